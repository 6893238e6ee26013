"""Players who come and go (`Lineup`): a newcomer starts at 0 and pays the running round's
stake into the pot; who leaves keeps his balance and takes no share of the pot; the deal
goes on among those seated; money is conserved through every change, edit and void.

Figures are worked out by hand in the comments (Parlett units: stake 100 a head, a Frage
won with 70 is 1 + ⌊(70 − 61)/5⌋ = 2 units = 20 cents out of the pot)."""

from __future__ import annotations

import random

import pytest

from scorer.domain import Hand, RuleError, commands
from scorer.domain.commands import EditHand, RecordHand, VoidHand
from scorer.domain.ledger import Ledger, LedgerState, Lineup
from scorer.domain.model import POT
from scorer.domain.scoring import Rules
from scorer.services import table_reads, tables
from scorer.store import table_rows
from scorer.store.database import db
from scorer.store.models import TableSession
from tests.support.tables import lineup, new_table, table_url, table_version

THREE = ("A", "B", "C")


def frage(declarer: str, points: int = 70) -> Hand:
    return Hand(declarer=declarer, contract="frage", points=points)


def ledger(*lineups: Lineup, players=THREE, dealer="C", **params) -> Ledger:
    rules = Rules.build("haferltarock", "parlett-units", params)
    return Ledger(rules, players, dealer, lineups=lineups)


def total(state: LedgerState) -> int:
    return sum(state.balances.values()) + state.pot


def test_a_newcomer_pays_the_stake_and_the_deal_goes_round_four():
    # A, B, C play hand 1 (C deals); D sits down before hand 2, with A to deal.
    book = ledger(Lineup(2, ("A", "B", "C", "D"), "A"))
    entry, state = book.play(book.start(), 1, frage("A"))
    assert entry.net == {"A": 20, "B": 0, "C": 0, POT: -20}
    assert state.pot == 280 and state.seated is None
    entry, state = book.play(state, 2, frage("B"))
    # D paid 100 into the pot as he sat down; A deals and sits out.
    assert entry.dealer == "A" and entry.sitting_out == "A"
    assert entry.active == ("B", "C", "D")
    assert entry.net == {"A": 0, "B": 20, "C": 0, "D": 0, POT: -20}
    assert state.balances == {"A": -80, "B": -80, "C": -100, "D": -100}
    assert state.pot == 360 and total(state) == 0
    assert state.seated == ["A", "B", "C", "D"] and state.next_dealer == "B"
    # At the end all four share the pot.
    settled = book.settle_up(state)
    assert settled.balances == {"A": 10, "B": 10, "C": -10, "D": -10}


def test_who_leaves_keeps_his_balance_and_no_share_of_the_pot():
    four = ("A", "B", "C", "D")
    book = ledger(Lineup(2, ("A", "B", "C"), "A"), players=four, dealer="D")
    entry, state = book.play(book.start(), 1, frage("A"))  # D deals and sits out
    assert entry.sitting_out == "D"
    entry, state = book.play(state, 2, frage("B"))
    assert entry.active == ("A", "B", "C") and entry.sitting_out is None
    assert state.balances["D"] == -100  # his stake; nothing more
    assert total(state) == 0
    settled = book.settle_up(state)
    # Pot 360 shared by A, B, C: 120 each. D is still owed nothing and owes his stake.
    assert settled.balances == {"A": 40, "B": 40, "C": 20, "D": -100}
    assert sum(settled.balances.values()) == 0


def test_a_newcomer_while_the_pot_waits_for_its_refill_pays_with_everyone():
    # Stake 10 a head: a Frage 120 wants 12 units = 120 cents, the pot has 30, pays it and
    # is empty. E sits down before the refill: he pays the refill's stake, not two.
    book = ledger(Lineup(2, ("A", "B", "C", "E"), "A"), stake_cents=10)
    _, state = book.play(book.start(), 1, frage("A", 120))
    assert state.pot == 0 and state.round_over
    entry, state = book.play(state, 2, frage("B", 61))
    assert entry.new_round
    assert state.balances["E"] == -10
    assert total(state) == 0


def test_coming_back_under_the_same_name_keeps_the_balance():
    book = ledger(Lineup(2, ("A", "B", "D"), "A"), Lineup(3, ("A", "B", "C"), "A"))
    _, state = book.play(book.start(), 1, frage("C"))
    _, state = book.play(state, 2, frage("D"))
    c_before = state.balances["C"]
    entry, state = book.play(state, 3, frage("A"))
    assert state.balances["C"] == c_before  # C came back: no second stake
    assert "D" in state.balances and "D" not in entry.active
    assert book.everyone == ("A", "B", "C", "D")
    assert book.seated_at(1) == THREE and book.seated_at(2) == ("A", "B", "D")


@pytest.mark.parametrize(
    ("lineup", "field"),
    [
        (Lineup(2, ("A", "B"), "A"), "players"),  # too few
        (Lineup(2, ("A", "B", "C", "D", "E"), "A"), "players"),  # too many
        (Lineup(2, ("A", "b", "C"), "A"), "players"),  # B came back spelt otherwise
        (Lineup(2, ("A", "B", "Pot"), "A"), "players"),
        (Lineup(2, ("A", "B", "D"), "C"), "dealer"),  # the dealer is not seated
    ],
)
def test_a_lineup_that_cannot_be_is_refused(lineup, field):
    with pytest.raises(RuleError) as err:
        ledger(lineup)
    assert field in err.value.fields


# --- through the operations: the cache is always the fold --------------------------------


def fresh(session: TableSession) -> LedgerState:
    _, state = table_reads.fold_session(session)
    return table_reads.ledger_for(session).ready(state, session.hand_count + 1)


def test_random_evenings_with_players_coming_and_going_stay_the_fold(app):
    """Hands, lineup changes, edits and voids in random order: after each, the stored state
    is the fresh fold and the money sums to zero."""
    names = ["Anna", "Bert", "Cora", "Dani", "Emil", "Fritz"]
    for seed in range(12):
        rng = random.Random(seed)
        with app.app_context():
            session = tables.create_session(
                commands.open_table(
                    name="Runde",
                    game="haferltarock",
                    system="parlett-units",
                    params={"stake_cents": 40},
                    players=names[:3],
                    first_dealer=None,
                )
            )
            for _ in range(30):
                move = rng.random()
                state = LedgerState.from_json(session.state)
                ledger = table_reads.ledger_for(session)
                if move < 0.15:
                    count = rng.choice([3, 4])
                    players = rng.sample(names, count)
                    tables.change_players(session, commands.change_players(players))
                elif move < 0.25 and session.hand_count:
                    live = table_reads.hands_of(session)
                    if live:
                        record = rng.choice(live)
                        tables.void_hand(session, VoidHand(record.number, record.version))
                elif move < 0.35 and session.hand_count:
                    live = table_reads.hands_of(session)
                    if live:
                        record = rng.choice(live)
                        facts = {**record.facts, "points": rng.randint(0, 120)}
                        command = EditHand(record.number, record.version, Hand.from_json(facts))
                        tables.edit_hand(session, command)
                else:
                    active, _ = ledger.seats(state.next_dealer, ledger.seated(state))
                    hand = frage(rng.choice(active), rng.randint(0, 120))
                    tables.record_hand(session, RecordHand(hand))
                db.session.flush()
                state = LedgerState.from_json(session.state)
                assert state.to_json() == fresh(session).to_json(), seed
                assert total(state) == 0
                settled = table_reads.settlement(session)
                assert sum(settled.balances.values()) == 0
            db.session.rollback()


def test_a_newcomer_pays_no_stake_into_a_haferl_carried_in():
    rules = Rules.build("haferltarock", "parlett-units", {})
    book = Ledger(
        rules, THREE, "C", lineups=(Lineup(2, ("A", "B", "C", "D"), "A"),), opening_pot=240
    )
    start = book.start()
    assert start.pot == 240 and start.balances == {"A": 0, "B": 0, "C": 0}
    _, state = book.play(start, 1, frage("A"))
    _, state = book.play(state, 2, frage("B"))
    assert state.balances["D"] == 0  # nobody paid a stake this round: neither does he
    assert sum(state.balances.values()) + state.pot == 240


def test_the_changes_of_players_and_what_a_newcomer_pays_are_told():
    """`seat_changes` names who sits down, comes back and gets up; `newcomer_stake` what
    a newcomer pays as he sits down, as `ready` charges it."""
    book = ledger(
        Lineup(2, ("A", "B", "C", "D"), "A"),
        Lineup(3, ("A", "B", "C"), "A"),
        Lineup(4, ("A", "B", "D", "E"), "A"),
    )
    assert book.seat_changes() == [
        (2, ("D",), (), ()),
        (3, (), (), ("D",)),
        (4, ("E",), ("D",), ("C",)),
    ]
    state = book.start()
    assert book.newcomer_stake(state) == 100  # the running round's stake
    assert book.ready(state, 2).balances["D"] == -100
    waiting = LedgerState.from_json({**state.to_json(), "round_over": True})
    assert book.newcomer_stake(waiting) is None  # pays with everyone at the refill
    carried = Ledger(Rules.build("haferltarock", "parlett-units", {}), THREE, "C", opening_pot=240)
    assert carried.newcomer_stake(carried.start()) == 0
    points = Ledger(Rules.build("haferltarock", "parlett-units", {}), THREE, "C", points_only=True)
    assert points.newcomer_stake(points.start()) == 0


def test_the_hand_list_and_the_chart_show_who_came_and_went(app, client):
    """The hand list has a line of its own for a newcomer's stake, a return and a leave;
    the chart draws each player from the hand he joined to the hand he left."""
    from scorer.reports.chart import balance_series

    key = table_url(new_table(client, players=["Anton", "Berta", "Clara"])).rsplit("/", 1)[-1]
    api = f"/api/v1/sessions/{key}"

    def hand(declarer: str) -> None:
        body = {"declarer": declarer, "contract": "frage", "points": 70}
        assert client.post(f"{api}/hands", json=body).status_code == 201

    def seat(players: list[str]) -> None:
        form = {"player_3": "", **lineup(players, table_version(app, key))}  # a cleared field
        answer = client.post(f"/t/{key}/spieler", data=form)
        assert answer.status_code == 302, answer.get_data(as_text=True)[-3000:]

    hand("Anton")
    seat(["Anton", "Berta", "Clara", "Dora"])  # Dora sits down before hand 2
    hand("Berta")
    seat(["Anton", "Berta", "Dora"])  # Clara gets up before hand 3
    hand("Dora")
    page = client.get(f"/t/{key}/spiele").get_data(as_text=True)
    assert "Dora setzt sich dazu und zahlt 1,00 € ins Haferl" in page
    assert "Clara steht auf; der Stand bleibt" in page
    assert page.index("Dora setzt sich dazu") < page.index("Clara steht auf")
    assert "Runde 1 beginnt: alle zahlen 1,00 € ins Haferl." in page

    with app.app_context():
        session = table_rows.get_session(key)
        book = table_reads.ledger_for(session)
        start, after = table_reads.standings(session, table_reads.hands_of(session))
        names, series = balance_series(
            book.everyone,
            [start[0], *(b for b, _ in after.values())],
            [book.seated_at(1), *(book.seated_at(n) for n in after)],
        )
        db.session.remove()
    assert names == ["Anton", "Berta", "Clara", "Dora"]
    assert series["Dora"][:2] == [None, None] and None not in series["Dora"][2:]
    assert series["Clara"][-1] is None and None not in series["Clara"][:3]
    chart = client.get(f"/t/{key}/verlauf.svg").get_data(as_text=True)
    assert chart.count("<polyline") == 4  # one line each, each only where he sat
