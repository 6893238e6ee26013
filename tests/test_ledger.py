"""The ledger of an evening (RULES.md §1 "The pot", "Sides and seats", §3, §4): stakes, the
four-player rotation, the pot cap, round ends and refills, Strohmandeln's doubling after a
draw, the final balances and conservation of money.

Every expected figure is worked out by hand from RULES.md in the comments next to it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.domain import GAMES, Bonus, Hand, RuleError
from scorer.domain.ledger import Ledger, LedgerState, final_balances
from scorer.domain.model import POT
from scorer.domain.scoring import Rules

FOUR = ("A", "B", "C", "D")
THREE = ("A", "B", "C")


def ledger(
    game: str,
    system: str,
    players: tuple[str, ...] = FOUR,
    first_dealer: str | None = None,
    **params: Any,
) -> Ledger:
    return Ledger(Rules.build(game, system, params), players, first_dealer or players[-1])


def parlett(players: tuple[str, ...] = FOUR, first_dealer: str | None = None, **params: Any):
    return ledger("haferltarock", "parlett-units", players, first_dealer, **params)


def frage(declarer: str, points: int) -> Hand:
    return Hand(declarer=declarer, contract="frage", points=points)


def hand_game(declarer: str, points: int, bid: int = 61) -> Hand:
    return Hand(declarer=declarer, contract="hand", points=points, bid=bid)


def stroh(declarer: str, points: int, *bonuses: Bonus) -> Hand:
    return Hand(declarer=declarer, contract="game", points=points, bonuses=bonuses)


def total(state: LedgerState) -> int:
    return sum(state.balances.values()) + state.pot


# --- the first stake ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "system", "players", "params", "stake"),
    [
        ("haferltarock", "parlett-units", FOUR, {}, 100),
        ("haferltarock", "parlett-units", THREE, {"stake_cents": 30}, 30),
        ("haferltarock", "levels", FOUR, {}, 100),
        ("haferltarock", "danyliuk-cents", THREE, {}, 50),
        ("tarok", "points-kasse", FOUR, {}, 100),
        ("tarok", "multiples", THREE, {"payout": "pot", "stake_cents": 70}, 70),
    ],
)
def test_pot_systems_take_the_first_stake_at_the_start(game, system, players, params, stake):
    state = ledger(game, system, players, **params).start()
    assert state.balances == {p: -stake for p in players}
    assert state.pot == len(players) * stake
    assert state.round == 1
    assert state.stakes_paid == 1
    assert state.round_over is False
    assert total(state) == 0


@pytest.mark.parametrize(
    ("game", "system", "params"),
    [
        ("tarok", "multiples", {}),  # payout = pocket by default
        ("tarok", "multiples", {"payout": "pocket"}),
        ("tarok", "fixed-direct", {}),
        ("scharfer-tarock", "scharf-fixed", {}),
        ("tapp-tarock", "tapp-points", {}),
    ],
)
def test_pocket_systems_take_no_stake(game, system, params):
    state = ledger(game, system, THREE, **params).start()
    assert state.balances == {p: 0 for p in THREE}
    assert state.pot == 0
    assert state.stakes_paid == 0


def test_strohmandeln_takes_no_stake():
    state = ledger("strohmandeln", "beck", ("A", "B")).start()
    assert state.balances == {"A": 0, "B": 0}
    assert state.pot == 0


def test_a_pocket_system_never_touches_the_pot():
    book = ledger("tarok", "multiples", FOUR, "D")
    # Solo (hand, not hearts) won with 70: multiplier 2, unit 10 → 20 from each defender.
    entries, state = book.fold([(1, Hand("A", "hand", trump="gras", points=70), None)])
    assert entries[0].net == {"A": 40, "B": -20, "C": -20, "D": 0, POT: 0}
    assert state.pot == 0
    assert entries[0].round_end is False
    assert entries[0].pot_after == 0


# --- seats: the dealer sits out at a table of four -------------------------------------------


def test_four_players_the_dealer_sits_out_and_the_deal_passes_in_list_order():
    book = parlett(FOUR, first_dealer="C")
    state = book.start()
    assert state.next_dealer == "C"
    expected_dealers = ["C", "D", "A", "B", "C", "D"]
    for number, dealer in enumerate(expected_dealers, start=1):
        declarer = book.next_after(dealer)  # forehand declares, never the dealer
        entry, state = book.play(state, number, hand_game(declarer, 70))
        assert entry.dealer == dealer
        assert entry.sitting_out == dealer
        assert entry.active == tuple(p for p in FOUR if p != dealer)
        # The dealer takes no part in the payments of the hand.
        assert entry.net[dealer] == 0
        assert state.next_dealer == book.next_after(dealer)
    assert state.next_dealer == "A"


def test_after_four_hands_everyone_dealt_once_and_played_three_times():
    book = parlett(FOUR, first_dealer="A")
    hands = [(n, hand_game(declarer, 70), None) for n, declarer in enumerate("BCDA", start=1)]
    entries, _ = book.fold(hands)
    assert [e.dealer for e in entries] == ["A", "B", "C", "D"]
    for player in FOUR:
        assert sum(player in e.active for e in entries) == 3


def test_a_declarer_who_sits_out_is_a_rule_error_on_declarer():
    book = parlett(FOUR, first_dealer="B")
    state = book.start()
    with pytest.raises(RuleError) as err:
        book.play(state, 1, frage("B", 70))
    assert "declarer" in err.value.fields
    # The state was not changed.
    assert state == book.start()


def test_a_declarer_who_sits_out_with_an_explicit_dealer():
    book = parlett(FOUR, first_dealer="A")
    state = book.start()
    with pytest.raises(RuleError) as err:
        book.play(state, 1, frage("C", 70), dealer="C")
    assert list(err.value.fields) == ["declarer"]


def test_an_explicit_dealer_moves_the_rotation_on_from_him():
    book = parlett(FOUR, first_dealer="A")
    entry, state = book.play(book.start(), 1, frage("A", 70), dealer="C")
    assert entry.dealer == "C"
    assert entry.sitting_out == "C"
    assert state.next_dealer == "D"


def test_an_unknown_dealer_is_a_rule_error():
    book = parlett(FOUR, first_dealer="A")
    with pytest.raises(RuleError) as err:
        book.play(book.start(), 1, frage("A", 70), dealer="Zoe")
    assert "dealer" in err.value.fields


def test_three_players_everyone_plays_every_hand():
    book = parlett(THREE, first_dealer="B")
    state = book.start()
    dealers = []
    for number in range(1, 5):
        # The dealer himself may declare at a table of three.
        entry, state = book.play(state, number, hand_game(state.next_dealer, 70))
        dealers.append(entry.dealer)
        assert entry.sitting_out is None
        assert entry.active == THREE
        # Hand won with 70, bid 61: 2 + 2·⌊9/5⌋ = 4 units = 40 from each defender.
        assert entry.net[entry.dealer] == 80
    assert dealers == ["B", "C", "A", "B"]


@pytest.mark.parametrize(
    ("game", "system", "players", "message"),
    [
        ("haferltarock", "parlett-units", ("A", "B"), "players"),
        ("haferltarock", "parlett-units", ("A", "B", "C", "D", "E"), "players"),
        ("strohmandeln", "beck", THREE, "players"),
        ("tapp-tarock", "tapp-points", FOUR, "players"),
        ("haferltarock", "parlett-units", ("A", "B", "a"), "players"),
        ("haferltarock", "parlett-units", ("pot", "B", "C"), "players"),  # the pot's account
        ("tarok", "fixed-direct", ("A", "Pot", "C"), "players"),
    ],
)
def test_a_table_with_the_wrong_players_is_refused(game, system, players, message):
    with pytest.raises(RuleError) as err:
        ledger(game, system, players, players[0])
    assert message in err.value.fields


def test_a_first_dealer_who_does_not_play_is_refused():
    with pytest.raises(RuleError) as err:
        Ledger(Rules.build("haferltarock", "parlett-units", None), THREE, "Zoe")
    assert "first_dealer" in err.value.fields


# --- the pot cap, round end and refill -------------------------------------------------------


def test_a_frage_that_wants_more_than_the_pot_holds_gets_what_is_left():
    # Stake 25 × 4 players: the pot holds 100. A Frage won with 120 wants
    # 1 + ⌊(120 − 61)/5⌋ = 12 units = 120 cents; the pot pays its 100 and is empty.
    book = parlett(FOUR, first_dealer="D", stake_cents=25)
    entry, state = book.play(book.start(), 1, frage("A", 120))
    assert entry.net == {"A": 100, "B": 0, "C": 0, "D": 0, POT: -100}
    assert entry.pot_after == 0
    assert entry.round_end is True
    assert entry.new_round is False
    assert entry.round == 1
    assert state.pot == 0
    assert state.round_over is True
    assert state.balances == {"A": 75, "B": -25, "C": -25, "D": -25}
    assert total(state) == 0
    # The explanation notes the shortfall.
    shortfall = [line for line in entry.score.explanation if line.cents == 100]
    assert shortfall and "120" in str(shortfall[0].text)


def test_a_frage_that_empties_the_pot_exactly_ends_the_round():
    # Stake 30 × 4 = 120; a Frage with 120 wants exactly 120.
    book = parlett(FOUR, first_dealer="D", stake_cents=30)
    entry, state = book.play(book.start(), 1, frage("A", 120))
    assert entry.net["A"] == 120
    assert entry.round_end is True
    assert state.pot == 0


def test_a_lost_frage_with_a_short_pot_pays_only_what_the_pot_holds():
    # Stake 5 × 3 = 15 in the pot. A Frage lost with 40: m = 1 + ⌊(60 − 40)/5⌋ = 5 units
    # = 50 cents: the declarer pays one defender 50, the pot pays the other only its 15.
    book = parlett(THREE, first_dealer="C", stake_cents=5)
    entry, state = book.play(book.start(), 1, frage("A", 40))
    assert entry.net == {"A": -50, "B": 50, "C": 15, POT: -15}
    assert entry.round_end is True
    assert state.balances == {"A": -55, "B": 45, "C": 10}
    assert total(state) == 0


def test_the_pot_is_refilled_before_the_next_hand():
    book = parlett(FOUR, first_dealer="D", stake_cents=25)
    first, state = book.play(book.start(), 1, frage("A", 120))
    assert first.round_end
    # Hand 2, dealer A sits out: B's hand game with 70 is paid directly, 40 from C and D.
    entry, state = book.play(state, 2, hand_game("B", 70))
    assert entry.new_round is True
    assert entry.round == 2
    assert entry.pot_after == 100  # refilled 4 × 25, untouched by a hand game
    assert entry.round_end is False
    assert entry.net == {"A": 0, "B": 80, "C": -40, "D": -40, POT: 0}
    assert state.round == 2
    assert state.stakes_paid == 2
    assert state.round_over is False
    # A: −25 + 100 − 25; B: −25 − 25 + 80; C, D: −25 − 25 − 40.
    assert state.balances == {"A": 50, "B": 30, "C": -90, "D": -90}
    assert state.pot == 100
    assert total(state) == 0
    # The refilled pot caps the next Frage again.
    third, state = book.play(state, 3, frage("D", 120))
    assert third.new_round is False
    assert third.net["D"] == 100
    assert third.round_end is True
    assert state.round == 2


def test_a_new_round_starts_only_after_a_round_end():
    book = parlett(FOUR, first_dealer="D")
    entries, state = book.fold([(1, frage("A", 61), None), (2, frage("B", 61), None)])
    assert [e.new_round for e in entries] == [False, False]
    assert [e.round for e in entries] == [1, 1]
    assert [e.pot_after for e in entries] == [390, 380]
    assert state.stakes_paid == 1


def test_no_refill_the_pot_stays_empty():
    book = parlett(FOUR, first_dealer="D", stake_cents=25, refill=False)
    _, state = book.play(book.start(), 1, frage("A", 120))
    entry, state = book.play(state, 2, hand_game("B", 70))
    assert entry.new_round is False
    assert entry.round == 1
    assert entry.pot_after == 0
    assert state.stakes_paid == 1
    # A: −25 + 100; B: −25 + 80; C, D: −25 − 40.
    assert state.balances == {"A": 75, "B": 55, "C": -65, "D": -65}
    # A Frage won out of an empty pot is paid nothing.
    entry, state = book.play(state, 3, frage("C", 100))
    assert entry.score.result == "won"
    assert entry.net == {"A": 0, "B": 0, "C": 0, "D": 0, POT: 0}
    assert entry.new_round is False
    assert entry.pot_after == 0
    assert state.balances == {"A": 75, "B": 55, "C": -65, "D": -65}
    assert state.pot == 0
    assert total(state) == 0


def test_points_kasse_round_end_and_refill():
    # points-kasse, stake 10 × 3 = 30. Frage won with 120: (120 − 60) × ½ = 30 cents (up5) →
    # the Kasse pays 30 and is empty. Next hand: everyone pays 10 again.
    book = ledger("tarok", "points-kasse", THREE, "C", stake_cents=10)
    entries, state = book.fold(
        [(1, Hand("A", "frage", trump="gras", points=120), None),
         (2, Hand("B", "frage", trump="gras", points=71), None)]
    )  # fmt: skip
    assert entries[0].net == {"A": 30, "B": 0, "C": 0, POT: -30}
    assert entries[0].round_end is True
    # Frage with 71: 11 × ½ = 5.5 → up5 → 10.
    assert entries[1].new_round is True
    assert entries[1].round == 2
    assert entries[1].net == {"A": 0, "B": 10, "C": 0, POT: -10}
    assert entries[1].pot_after == 20
    assert state.balances == {"A": 10, "B": -10, "C": -20}
    assert total(state) == 0


def test_fold_equals_playing_hand_by_hand():
    book = parlett(FOUR, first_dealer="D", stake_cents=30)
    hands = [
        (1, frage("A", 120), None),
        (2, hand_game("C", 50, bid=66), None),
        (3, frage("C", 58), None),
        (4, frage("A", 90), None),
    ]
    entries, folded = book.fold(hands)
    state = book.start()
    for (number, hand, dealer), entry in zip(hands, entries, strict=True):
        again, state = book.play(state, number, hand, dealer=dealer)
        assert again == entry
    assert state == folded
    assert entries[-1].balances_after == folded.balances


# --- Strohmandeln: a draw doubles the next hand ----------------------------------------------


def strohmandeln(system: str = "beck", **params: Any) -> Ledger:
    return ledger("strohmandeln", system, ("A", "B"), "A", **params)


def test_a_draw_pays_nothing_and_doubles_the_next_hand():
    book = strohmandeln()
    draw, state = book.play(book.start(), 1, stroh("A", 35))
    assert draw.score.result == "draw"
    assert draw.net == {"A": 0, "B": 0, POT: 0}
    assert draw.factor == 1
    assert state.factor == 2
    # Beck: declarer's simple win (36–44) = 2 points × 10 ct = 20, doubled → 40.
    won, state = book.play(state, 2, stroh("B", 40))
    assert won.factor == 2
    assert won.net == {"A": -40, "B": 40, POT: 0}
    assert state.factor == 1
    # A non-draw resets the count: the next hand counts once.
    again, state = book.play(state, 3, stroh("B", 40))
    assert again.factor == 1
    assert again.net == {"A": -20, "B": 20, POT: 0}
    assert state.balances == {"A": -60, "B": 60}


def test_two_draws_in_a_row_count_four_times():
    book = strohmandeln()
    entries, state = book.fold(
        [(1, stroh("A", 35), None), (2, stroh("B", 35), None), (3, stroh("A", 20), None)]
    )
    assert [e.factor for e in entries] == [1, 2, 4]
    # Beck: the defender's simple win (declarer ≤ 34) = 3 points × 10 = 30, × 4 = 120.
    assert entries[2].net == {"A": -120, "B": 120, POT: 0}
    assert state.factor == 1
    assert state.balances == {"A": -120, "B": 120}


def test_a_draw_pays_its_bonuses_at_the_current_factor():
    book = strohmandeln()
    pagat = Bonus("pagat_ultimo", "declarer", False, True)
    entries, state = book.fold([(1, stroh("A", 35), None), (2, stroh("B", 35, pagat), None)])
    # Hand 2 is a draw after a draw: only the Pagat (1 point = 10 ct) is paid, × 2.
    assert entries[1].score.result == "draw"
    assert entries[1].net == {"A": -20, "B": 20, POT: 0}
    assert state.factor == 4


def test_draw_doubles_next_false_keeps_every_hand_single():
    book = strohmandeln(draw_doubles_next=False)
    entries, state = book.fold([(1, stroh("A", 35), None), (2, stroh("B", 40), None)])
    assert entries[0].score.result == "draw"
    assert [e.factor for e in entries] == [1, 1]
    assert entries[1].net == {"A": -20, "B": 20, POT: 0}
    assert state.factor == 1


def test_draw_is_loss_is_no_draw_and_doubles_nothing():
    book = strohmandeln("furr", draw_is_loss=True)
    entries, state = book.fold([(1, stroh("A", 35), None), (2, stroh("A", 40), None)])
    # Furr: 35–35 counts as lost: the defender's simple win, 4 points = 40 ct.
    assert entries[0].score.result == "lost"
    assert entries[0].net == {"A": -40, "B": 40, POT: 0}
    # Furr: declarer's simple win = 3 points = 30 ct, not doubled.
    assert entries[1].factor == 1
    assert entries[1].net == {"A": 30, "B": -30, POT: 0}
    assert state.balances == {"A": -10, "B": 10}


def test_a_draw_in_a_bavarian_game_doubles_nothing():
    # points-kasse plays 60–60 as a draw; doubling after a draw is Strohmandeln's alone.
    book = ledger("tarok", "points-kasse", THREE, "C")
    entries, state = book.fold(
        [(1, Hand("A", "frage", trump="gras", points=60), None),
         (2, Hand("A", "frage", trump="gras", points=71), None)]
    )  # fmt: skip
    assert entries[0].score.result == "draw"
    assert entries[1].factor == 1
    assert entries[1].net["A"] == 10
    assert state.factor == 1


# --- final balances: what is left in the pot ------------------------------------------------


def test_final_balances_split_the_pot_with_odd_cents_in_seat_order():
    # Three players, stake 100: pot 300. A Frage won with 61 → the pot pays 1 unit = 10.
    # Pot 290 = 3 × 96 + 2: the first two seats (in list order) get 97, the third 96.
    book = parlett(("Xaver", "Anna", "Moritz"), first_dealer="Moritz")
    _, state = book.play(book.start(), 1, frage("Moritz", 61))
    assert state.pot == 290
    assert state.balances == {"Xaver": -100, "Anna": -100, "Moritz": -90}
    split = final_balances(state, ("Xaver", "Anna", "Moritz"), "split")
    assert split == {"Xaver": -3, "Anna": -3, "Moritz": 6}
    assert sum(split.values()) == 0
    assert POT not in split


def test_final_balances_split_at_a_table_of_four_includes_the_dealer():
    book = parlett(FOUR, first_dealer="D")
    _, state = book.play(book.start(), 1, frage("A", 61))
    # Pot 390 = 4 × 97 + 2: A and B get 98, C and D 97.
    assert final_balances(state, FOUR, "split") == {"A": 8, "B": -2, "C": -3, "D": -3}


def test_final_balances_keep_shows_the_pot():
    book = parlett(THREE, first_dealer="C")
    _, state = book.play(book.start(), 1, frage("A", 61))
    kept = final_balances(state, THREE, "keep")
    assert kept == {"A": -90, "B": -100, "C": -100, POT: 290}
    assert sum(kept.values()) == 0


def test_final_balances_of_an_empty_pot_are_the_balances():
    book = parlett(FOUR, first_dealer="D", stake_cents=25)
    _, state = book.play(book.start(), 1, frage("A", 120))
    expected = {"A": 75, "B": -25, "C": -25, "D": -25}
    assert final_balances(state, FOUR, "split") == expected
    assert final_balances(state, FOUR, "keep") == expected


def test_final_balances_without_a_pot():
    book = ledger("tapp-tarock", "tapp-points", THREE, "C")
    _, state = book.play(book.start(), 1, Hand("A", "dreier", points=40))
    # Dreier won: +3 game points × 10 ct from each defender.
    assert final_balances(state, THREE, None) == {"A": 60, "B": -30, "C": -30}


# --- conservation: money is neither made nor lost -------------------------------------------

TABLES = [
    ("haferltarock", "parlett-units", FOUR, {"stake_cents": 20}),
    ("haferltarock", "parlett-units", THREE, {"stake_cents": 15, "refill": False}),
    ("haferltarock", "levels", FOUR, {"stake_cents": 40}),
    ("haferltarock", "danyliuk-cents", THREE, {"stake_cents": 10}),
    ("tarok", "points-kasse", FOUR, {"stake_cents": 20}),
    ("tarok-bettel", "multiples", THREE, {"payout": "pot", "stake_cents": 30}),
    ("tarok", "fixed-direct", FOUR, {}),
    ("strohmandeln", "furr", ("A", "B"), {}),
]


@st.composite
def evenings(draw):
    game, system, players, params = draw(st.sampled_from(TABLES))
    contracts = list(GAMES[game].contracts)
    trumps = [None] if game == "strohmandeln" else ["herz", "gras"]
    raw = draw(
        st.lists(
            st.tuples(
                st.sampled_from(contracts),
                st.integers(0, GAMES[game].total),
                st.sampled_from([61, 61, 66, 81]),
                st.sampled_from(trumps),
                st.integers(0, 0 if game == "strohmandeln" else 2),
                st.booleans(),
                st.integers(0, len(players) - 1),
            ),
            max_size=25,
        )
    )
    return game, system, players, params, raw


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings())
def test_conservation_after_any_fold(evening):
    game, system, players, params, raw = evening
    book = ledger(game, system, players, players[-1], **params)
    state = book.start()
    assert total(state) == 0
    played = []
    for contract, points, bid, trump, doublings, flag, offset in raw:
        active, _ = book.seats(state.next_dealer)
        declarer = active[offset % len(active)]
        hand = Hand(
            declarer=declarer,
            contract=contract,
            points=None if contract == "bettel" else points,
            bid=bid,
            trump=None if contract == "bettel" else trump,
            no_tricks=flag and contract == "bettel",
            doublings=doublings,
        )
        number = len(played) + 1
        try:
            entry, new = book.play(state, number, hand)
        except RuleError:
            continue  # an illegal hand changes nothing
        played.append((number, hand, None))
        # Every hand's net sums to 0, the pot never goes below 0, money is conserved.
        assert sum(entry.net.values()) == 0
        assert new.pot >= 0
        assert entry.pot_after == new.pot
        assert total(new) == 0
        assert entry.balances_after == new.balances
        state = new
    entries, folded = book.fold(played)
    assert folded == state
    assert total(folded) == 0
    pot_at_end = book.rules.params.get("pot_at_end")
    assert sum(final_balances(folded, players, pot_at_end).values()) == 0
