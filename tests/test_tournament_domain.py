"""Tournaments (RULES.md §5): seat draw, swaps, points of a hand, standings."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.domain.ledger import Ledger
from scorer.domain.model import Hand
from scorer.domain.scoring import Rules
from scorer.domain.seating import bye_count, draw, sitting_out, swap, table_sizes
from scorer.domain.tournament import (
    TournamentHand,
    hands_per_table,
    standings,
    tournament_rules,
)

# --- helpers, written independently of the module ------------------------------------------


def repeat_pairs(tables, previous_rounds) -> list[tuple[str, str]]:
    """The pairs seated together at `tables` who already shared a table in a previous round,
    each pair once, in table and seat order."""
    earlier = {
        frozenset((x, y))
        for round_tables in previous_rounds
        for table in round_tables
        for i, x in enumerate(table)
        for y in table[i + 1 :]
    }
    return [
        (x, y)
        for table in tables
        for i, x in enumerate(table)
        for y in table[i + 1 :]
        if frozenset((x, y)) in earlier
    ]


def tournament_points(game: str, system: str, params, table: list[str], hand: Hand) -> dict:
    """The points each player at `table` makes with `hand` as a tournament table keeps them:
    the tournament's rules, folded by a points-only ledger (at four the dealer sits out)."""
    rules = tournament_rules(game, system, params)
    ledger = Ledger(rules, tuple(table), hand.dealer or table[0], points_only=True)
    entry, _ = ledger.play(ledger.start(), 1, hand)
    return {name: entry.net[name] for name in table}


def names(n: int) -> list[str]:
    return [f"P{i:03d}" for i in range(n)]


def repeats(rounds: list[list[list[str]]]) -> int:
    """How many times a pair sits together again: each table-mate pair of a round counts once
    for every earlier round in which the same two already shared a table."""
    seen: Counter[frozenset[str]] = Counter()
    total = 0
    for tables in rounds:
        pairs = [frozenset(p) for table in tables for p in combinations(table, 2)]
        total += sum(seen[p] for p in pairs)
        seen.update(pairs)
    return total


def plain_draw(players: list[str], rng: random.Random) -> list[list[str]]:
    """Shuffle and cut into tables: the draw a bowl of paper slips would give."""
    order = list(players)
    rng.shuffle(order)
    tables, start = [], 0
    for size in table_sizes(len(players)):
        tables.append(order[start : start + size])
        start += size
    return tables


def play_rounds(players: list[str], rounds: int, seed: int) -> list[list[list[str]]]:
    played: list[list[list[str]]] = []
    for r in range(rounds):
        played.append(draw(players, played, seed + r))
    return played


def assert_seated_once(players: list[str], tables: list[list[str]]) -> None:
    seated = [name for table in tables for name in table]
    assert len(seated) == len(set(seated)), "somebody has two seats"
    assert set(seated) <= set(players)
    assert len(players) - len(seated) == (1 if len(players) == 5 else 0)
    assert [len(t) for t in tables] == table_sizes(len(players))
    assert all(len(t) in (3, 4) for t in tables)


# --- table sizes ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [*range(3, 61), 200])
def test_table_sizes_are_fours_and_threes_with_as_many_fours_as_possible(n):
    sizes = table_sizes(n)
    assert all(size in (3, 4) for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    if n == 5:
        assert sizes == [4]
        assert bye_count(5) == 1
        return
    assert sum(sizes) == n
    assert bye_count(n) == 0
    # More fours would leave a remainder that threes cannot make up.
    fours = sizes.count(4)
    assert not any((n - 4 * more) % 3 == 0 for more in range(fours + 1, n // 4 + 1))


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (6, [3, 3]),
        (7, [4, 3]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (13, [4, 3, 3, 3]),
    ],
)
def test_table_sizes_examples(n, sizes):
    assert table_sizes(n) == sizes


@pytest.mark.parametrize("n", [-1, 0, 1, 2])
def test_fewer_than_three_players_cannot_play(n):
    with pytest.raises(ValueError, match="at least 3"):
        table_sizes(n)


# --- the draw -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [*range(3, 61), 200])
def test_every_player_is_seated_exactly_once_each_round(n):
    players = names(n)
    for tables in play_rounds(players, 3, seed=n):
        assert_seated_once(players, tables)


def test_five_players_take_turns_at_the_bye():
    players = names(5)
    played = play_rounds(players, 5, seed=11)
    byes = [sitting_out(players, tables) for tables in played]
    assert all(len(b) == 1 for b in byes)
    assert sorted(b[0] for b in byes) == players  # five rounds: everyone sits out once
    for tables in played:
        assert_seated_once(players, tables)


def test_the_draw_is_reproducible_from_the_seed_and_leaves_global_random_alone():
    players = names(17)
    random.seed(123)
    state = random.getstate()
    first = play_rounds(players, 4, seed=5)
    assert random.getstate() == state
    assert play_rounds(players, 4, seed=5) == first
    others = [play_rounds(players, 1, seed=s)[0] for s in range(6, 12)]
    assert any(other != first[0] for other in others)


def test_fewer_repeat_meetings_than_a_plain_random_draw():
    players = names(12)
    rng = random.Random(2024)
    plain = [repeats([plain_draw(players, rng) for _ in range(3)]) for _ in range(2000)]
    plain_average = sum(plain) / len(plain)
    for seed in range(10):
        assert repeats(play_rounds(players, 3, seed)) < plain_average


def test_twelve_players_meet_again_only_as_often_as_they_must():
    # Three tables of four from three tables of four: every old table is split over three
    # new ones, so one pair of it meets again; three repeat pairs is the least possible.
    players = names(12)
    for seed in range(10):
        first, second = play_rounds(players, 2, seed)
        assert repeats([first, second]) == 3


@pytest.mark.parametrize("seed", range(5))
def test_nobody_meets_again_when_the_draw_can_avoid_it(seed):
    players = names(16)  # a 4 × 4 grid: rows, then columns, then diagonals
    played = play_rounds(players, 3, seed)
    assert repeats(played) == 0


def test_players_who_left_are_ignored_and_names_must_be_unique():
    # A withdrawn player's old seat does not matter; A-B-C / D-E-F avoids every old pair.
    previous = [[["A", "D", "Gone"], ["B", "E"], ["C", "F", "Gone too"]]]
    tables = draw(["A", "B", "C", "D", "E", "F"], previous, seed=1)
    assert_seated_once(["A", "B", "C", "D", "E", "F"], tables)
    assert repeat_pairs(tables, previous) == []
    with pytest.raises(ValueError, match="twice"):
        draw(["A", "B", "A"], [], seed=1)


def test_repeat_pairs_lists_the_pairs_who_met_before():
    previous = [[["A", "B", "C"], ["D", "E", "F"]]]
    assert repeat_pairs([["A", "D", "B"], ["C", "E", "F"]], previous) == [
        ("A", "B"),
        ("E", "F"),
    ]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 40), rounds=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_property_everyone_is_seated_exactly_once_each_round(n, rounds, seed):
    players = names(n)
    for tables in play_rounds(players, rounds, seed):
        assert_seated_once(players, tables)


# --- swaps ----------------------------------------------------------------------------------


def test_swap_between_tables_exchanges_the_seats():
    tables = [["A", "B", "C", "D"], ["E", "F", "G"]]
    assert swap(tables, "B", "G") == [["A", "G", "C", "D"], ["E", "F", "B"]]
    assert tables == [["A", "B", "C", "D"], ["E", "F", "G"]]  # input unchanged


def test_swap_within_a_table_changes_the_seating_order():
    assert swap([["A", "B", "C"], ["D", "E", "F"]], "C", "A") == [
        ["C", "B", "A"],
        ["D", "E", "F"],
    ]
    assert swap([["A", "B", "C"]], "B", "B") == [["A", "B", "C"]]


def test_swap_needs_two_seated_players():
    with pytest.raises(ValueError, match="'Z'"):
        swap([["A", "B", "C"]], "A", "Z")


# --- points of a hand -----------------------------------------------------------------------


def test_a_payment_from_the_pot_is_points_for_the_declarer_only():
    rules = Rules.build("haferltarock", "parlett-units", None)
    hand = Hand("A", "frage", trump="gras", points=72)
    money = rules.score(["A", "B", "C"], hand).net(["A", "B", "C"])
    assert money == {"A": 30, "B": 0, "C": 0, "pot": -30}
    # 3 units of 10 ct are 3 points; the pot's side is dropped.
    points = tournament_points("haferltarock", "parlett-units", None, ["A", "B", "C"], hand)
    assert points == {"A": 3, "B": 0, "C": 0}


def test_a_lost_frage_half_paid_from_the_pot_drops_the_pot():
    hand = Hand("A", "frage", trump="gras", points=50)
    points = tournament_points("haferltarock", "parlett-units", None, ["A", "B", "C"], hand)
    assert points == {"A": -3, "B": 3, "C": 3}


def test_the_pot_is_never_capped_in_a_tournament():
    params = {"stake_cents": 5, "rounding": "none"}
    hand = Hand("A", "hand", trump="gras", points=120, all_tricks=True)
    # 60 over × 1 ct, doubled for Durch: 120 points although a real Kasse would hold less.
    points = tournament_points("tarok", "points-kasse", params, ["A", "B", "C"], hand)
    assert points == {"A": 120, "B": 0, "C": 0}


def test_at_a_table_of_four_the_dealer_sits_out_with_zero():
    params = {"payout": "pot", "max_doublings": 1}
    hand = Hand("A", "hand", trump="gras", points=50, doublings=1, dealer="D")
    points = tournament_points("tarok", "multiples", params, ["D", "A", "B", "C"], hand)
    assert points == {"D": 0, "A": -4, "B": 4, "C": 4}


def test_one_game_point_is_one_tournament_point():
    hand = Hand("A", "dreier", points=40)
    points = tournament_points(
        "tapp-tarock", "tapp-points", {"point_cents": 10}, ["A", "B", "C"], hand
    )
    assert points == {"A": 6, "B": -3, "C": -3}


def test_a_system_without_units_counts_cents():
    hand = Hand("A", "hand", trump="gras", points=70)
    points = tournament_points("tarok", "fixed-direct", None, ["A", "B", "C"], hand)
    assert points == {"A": 100, "B": -50, "C": -50}


def test_hands_per_table_let_everyone_deal_and_play_equally_often():
    for size in (3, 4):
        hands = hands_per_table(size)
        seats = [f"S{i}" for i in range(size)]
        dealt = Counter(seats[h % size] for h in range(hands))
        played = Counter(
            seat
            for h in range(hands)
            for seat in seats
            if size == 3 or seat != seats[h % size]  # at a four the dealer sits out
        )
        assert set(dealt.values()) == {4}
        assert set(played.values()) == {12}
    assert hands_per_table(4, deals_each=2) == 8
    with pytest.raises(ValueError):
        hands_per_table(5)
    with pytest.raises(ValueError):
        hands_per_table(3, deals_each=0)


# --- standings ------------------------------------------------------------------------------


def th(round_: int, declarer: str, result: str, net: dict[str, int], table: int = 1):
    return TournamentHand(round_, table, tuple(net), declarer, result, net)


def test_standings_add_up_the_rounds():
    hands = [
        th(1, "A", "won", {"A": 6, "B": -3, "C": -3}),
        th(1, "B", "lost", {"A": 2, "B": -4, "C": 2}),
        th(2, "C", "won", {"A": -1, "C": 2, "D": -1}),
    ]
    table = {s.player: s for s in standings(["A", "B", "C", "D"], hands, rounds=3)}
    assert table["A"].total == 7
    assert table["A"].per_round == [8, -1, 0]
    assert table["A"].last_round == -1  # round 2 is the last one played
    assert table["A"].wins_as_declarer == 1
    assert table["B"].per_round == [-7, 0, 0]
    assert table["B"].wins_as_declarer == 0  # B lost his game
    assert table["C"].per_round == [-1, 2, 0]
    assert table["D"].per_round == [0, -1, 0]
    assert [s.player for s in standings(["A", "B", "C", "D"], hands, rounds=3)] == [
        "A",
        "C",
        "D",
        "B",
    ]


def test_a_tie_goes_to_more_games_won_as_declarer():
    hands = [
        th(1, "A", "won", {"A": 2, "B": -2, "C": 0}),
        th(1, "B", "won", {"A": -1, "B": 3, "C": -2}),
        th(1, "B", "won", {"A": 1, "B": 1, "C": -2}),
    ]
    ranked = standings(["A", "B", "C"], hands, rounds=1)
    assert [(s.player, s.total, s.wins_as_declarer, s.place) for s in ranked] == [
        ("B", 2, 2, 1),
        ("A", 2, 1, 2),
        ("C", -4, 0, 3),
    ]


def test_then_to_the_better_last_round_then_the_place_is_shared():
    hands = [
        # Round 1: A +6, B 0, C -2, D +2.  Round 2: A 0, B +6, C +4, D 0.
        th(1, "A", "won", {"A": 6, "B": -2, "C": -2}),
        th(1, "D", "won", {"B": 2, "D": 2, "C": 0}),
        th(2, "B", "won", {"B": 6, "A": 0, "C": -2}),
        th(2, "C", "won", {"C": 6, "A": 0, "D": 0}),
    ]
    ranked = standings(["D", "C", "B", "A"], hands, rounds=2)
    assert [(s.player, s.total, s.wins_as_declarer, s.last_round) for s in ranked] == [
        ("B", 6, 1, 6),  # equal total and wins with A: better last round
        ("A", 6, 1, 0),
        ("C", 2, 1, 4),
        ("D", 2, 1, 0),
    ]
    assert [s.place for s in ranked] == [1, 2, 3, 4]


def test_players_equal_on_everything_share_the_place_listed_by_name():
    hands = [
        th(1, "A", "won", {"A": 9, "bert": -3, "Carl": -3, "Dora": -3}),
        th(2, "Dora", "won", {"Dora": 4, "bert": 4, "Carl": 4, "A": -12}),
    ]
    ranked = standings(["A", "Carl", "bert", "Dora", "Emil"], hands, rounds=2)
    assert [(s.place, s.player, s.total, s.wins_as_declarer, s.last_round) for s in ranked] == [
        (1, "Dora", 1, 1, 4),
        (2, "bert", 1, 0, 4),  # bert and Carl: equal total, wins and last round
        (2, "Carl", 1, 0, 4),
        (4, "Emil", 0, 0, 0),
        (5, "A", -3, 1, -12),
    ]


def test_a_shared_first_place_is_followed_by_third():
    hands = [
        th(1, "A", "won", {"A": 3, "B": 0, "C": -3}),
        th(1, "B", "won", {"B": 3, "A": 0, "C": -3}),
    ]
    ranked = standings(["C", "B", "A"], hands, rounds=1)
    assert [(s.place, s.player, s.total) for s in ranked] == [
        (1, "A", 3),
        (1, "B", 3),
        (3, "C", -6),
    ]


def test_standings_before_any_hand_and_bad_input():
    ranked = standings(["B", "A"], [], rounds=2)
    assert [(s.place, s.player, s.per_round, s.last_round) for s in ranked] == [
        (1, "A", [0, 0], 0),
        (1, "B", [0, 0], 0),
    ]
    with pytest.raises(ValueError, match="round 3"):
        standings(["A", "B", "C"], [th(3, "A", "won", {"A": 1, "B": 0, "C": -1})], rounds=2)
    with pytest.raises(ValueError, match="'X'"):
        standings(["A", "B", "C"], [th(1, "A", "won", {"A": 1, "X": -1})], rounds=1)


def test_a_pot_entry_in_a_net_is_not_a_player():
    hands = [th(1, "A", "won", {"A": 3, "B": 0, "C": 0, "pot": -3})]
    ranked = standings(["A", "B", "C"], hands, rounds=1)
    assert [(s.player, s.total) for s in ranked] == [("A", 3), ("B", 0), ("C", 0)]
