"""The standings a tournament keeps are always the fresh fold of its hands.

The standings are added up from what each table keeps as it goes (its ledger's balances and
its tally of results per declarer, `TableSession.declarer_tally`), so that their cost does
not grow with the hands. Here a tournament is played through the API with random hands,
edits (of declarer, contract and points), struck-out hands and rounds drawn and closed; after
every write the kept standings, the public standings JSON and every table's tally must equal
what a fresh fold of the stored hands gives."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorer.api import tournaments as tournament_api
from scorer.services import standings_at as standings_at_module
from scorer.services import tournaments as ops
from scorer.store.database import db
from scorer.store.models import HandRecord, TableSession, Tournament
from tests.support.tournaments import (
    API,
    active_players,
    created,
    draw,
    organiser,
    random_hand,
    read_round,
    session_of,
)

PLAYERS = ["Anna", "Bert", "Cilli", "Done", "Egon", "Fritz", "Gundi"]
"""Seven: a table of four (the dealer sits out) and a table of three."""


def recounted(session: TableSession) -> dict[str, dict[str, int]]:
    """A table's tally counted here from its live hands."""
    hands = db.session.scalars(
        db.select(HandRecord).where(
            HandRecord.session_id == session.id, HandRecord.voided.is_(False)
        )
    )
    tally: dict[str, Counter] = {}
    for hand in hands:
        tally.setdefault(hand.result, Counter())[hand.facts["declarer"]] += 1
    return {result: dict(counts) for result, counts in tally.items()}


def assert_kept_equals_fold(app, client, tournament: dict) -> None:
    with app.app_context():
        stored = db.session.get(Tournament, tournament["id"])
        kept = ops.tournament_standings(stored)
        assert kept == ops.fresh_standings(stored)
        for round_ in stored.round_list:
            for table in round_.tables:
                assert table.session.declarer_tally == recounted(table.session)
    public = client.get(f"{API}/standings/{tournament['key']}").get_json()
    assert [(s["player"], s["total"]) for s in public] == [(s.player, s.total) for s in kept]


def live_hand(client, key: str, rng: random.Random) -> dict | None:
    numbers = [n for n in range(1, session_of(client, key)["hand_count"] + 1)]
    rng.shuffle(numbers)
    for number in numbers:
        response = client.get(f"{API}/sessions/{key}/hands/{number}")
        if response.status_code == 200:  # a struck-out hand is not found
            return response.get_json()
    return None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_standings_equal_a_fresh_fold_after_every_write(app, client, seed, monkeypatch):
    # The public JSON is given again for half a second (RecentPages): here every answer
    # must be the current one.
    monkeypatch.setattr(tournament_api.PUBLIC_STANDINGS, "max_age", 0)
    rng = random.Random(seed)
    auth = organiser(app)
    tournament = created(client, auth, PLAYERS, rounds=2, deals=2)
    done: Counter[tuple[str, int]] = Counter()
    assert_kept_equals_fold(app, client, tournament)
    for number in (1, 2):
        round_ = draw(client, auth, tournament["id"])
        assert_kept_equals_fold(app, client, tournament)
        while not read_round(client, auth, tournament["id"], number)["closed"]:
            table = rng.choice(
                [t for t in read_round(client, auth, tournament["id"], number)["tables"]]
            )
            key = table["key"]
            action = rng.random()
            hand = live_hand(client, key, rng) if action < 0.35 else None
            if hand is None:
                session = session_of(client, key)
                if session["closed"]:
                    continue
                response = client.post(
                    f"{API}/sessions/{key}/hands", json=random_hand(rng, active_players(session))
                )
                assert response.status_code in (201, 409), response.get_json()
                done["record", response.status_code] += 1
            elif action < 0.2:
                active = [
                    p for p in session_of(client, key)["players"] if p != hand.get("sitting_out")
                ]
                changed = {**random_hand(rng, active), "version": hand["version"]}
                response = client.put(f"{API}/sessions/{key}/hands/{hand['number']}", json=changed)
                assert response.status_code in (200, 409, 422), response.get_json()
                done["edit", response.status_code] += 1
            else:
                response = client.delete(
                    f"{API}/sessions/{key}/hands/{hand['number']}?version={hand['version']}"
                )
                assert response.status_code in (204, 409), response.get_json()
                done["void", response.status_code] += 1
            assert_kept_equals_fold(app, client, tournament)
        assert round_["number"] == number
    assert done["edit", 200] >= 3 and done["void", 204] >= 3, done
    with app.app_context():
        stored = db.session.get(Tournament, tournament["id"])
        assert any(s.total for s in ops.tournament_standings(stored))
        assert any(s.wins_as_declarer for s in ops.tournament_standings(stored))


def test_the_page_and_the_json_at_one_version_are_one_fold(
    app, client, standings_clock, monkeypatch
):
    """The live page (in both languages) and the projectors' JSON, rendered at the same
    version, fold the standings once (`standings_at`); a hand makes a new version, which
    both show."""
    folds = []
    fold = standings_at_module.tournament_standings
    monkeypatch.setattr(
        standings_at_module, "tournament_standings", lambda t: folds.append(t.id) or fold(t)
    )
    auth = organiser(app)
    tournament = created(client, auth, PLAYERS, rounds=1, deals=1)
    round_ = draw(client, auth, tournament["id"])
    key = tournament["key"]

    def read_both() -> tuple[list[dict], str, str]:
        json = client.get(f"{API}/standings/{key}").get_json()
        german = client.get(f"/turnier/{key}/stand").get_data(as_text=True)
        english = client.get(f"/turnier/{key}/stand?lang=en").get_data(as_text=True)
        return json, german, english

    json, german, english = read_both()
    assert len(folds) == 1 and "Standings" in english and "Stand" in german
    assert all(row["total"] == 0 for row in json)
    table = round_["tables"][0]["key"]
    hand = random_hand(random.Random(4), active_players(session_of(client, table)))
    assert client.post(f"{API}/sessions/{table}/hands", json=hand).status_code == 201
    standings_clock.later()
    json, german, english = read_both()
    assert len(folds) == 2
    with app.app_context():
        fresh = ops.fresh_standings(db.session.get(Tournament, tournament["id"]))
    assert [(r["player"], r["total"]) for r in json] == [(s.player, s.total) for s in fresh]
    assert any(s.total for s in fresh)
