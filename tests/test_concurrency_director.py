"""The tournament director's writes raced from two server processes on one database (see
test_concurrency.py): a tablet's correction against the round's close, an adjustment
against the round's close, and the organiser's correction against the finish. Each race
is run many times over; after each, the standings kept equal a fresh fold, and the log
holds each write that answered success once and no write that was refused.
"""

from __future__ import annotations

import time

from sqlalchemy import select

from scorer.services import tournaments as ops
from scorer.store.database import db
from scorer.store.models import Tournament, TournamentLog
from tests.support.racing import clear_organisers, organiser_headers, race, sign_up
from tests.support.servers import call

TRIES = 8
LATE = (0.0, 0.0, 0.0, 0.05, 0.1, 0.2, 0.6, 1.2)
"""How long the correction waits after the barrier in each try (an organiser's request
checks a password: 0.1-0.4 s here). At once it usually comes first; a few tries let the
other write start first, so both orders are met."""


def later(seconds: float, then):
    def run():
        time.sleep(seconds)
        return then()

    return run


def new_tournament(port: int, auth: dict[str, str], name: str) -> dict:
    body = {
        "name": name,
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 1,
        "deals_per_player": 1,
        "players": ["P0", "P1", "P2", "P3"],
    }
    status, tournament = call(port, "POST", "/api/v1/tournaments", body, auth)
    assert status == 201, tournament
    status, round_ = call(port, "POST", f"/api/v1/tournaments/{tournament['id']}/rounds", {}, auth)
    assert status == 201, round_
    return {**tournament, "table": round_["tables"][0]["key"]}


def first_hand(port: int, key: str, points: int) -> dict:
    status, session = call(port, "GET", f"/api/v1/sessions/{key}")
    assert status == 200
    dealer = session["next_dealer"]
    declarer = next(p for p in session["players"] if p != dealer)
    hand = {"declarer": declarer, "contract": "frage", "points": points}
    status, stored = call(port, "POST", f"/api/v1/sessions/{key}/hands", hand)
    assert status == 201, stored
    return hand


def log_and_check(app, tournament_id: int) -> list[tuple[str, str]]:
    """The log's (action, by), after checking that the kept standings are the fold."""
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert ops.tournament_standings(tournament) == ops.fresh_standings(tournament)
        lines = db.session.scalars(
            select(TournamentLog)
            .where(TournamentLog.tournament_id == tournament_id)
            .order_by(TournamentLog.id)
        ).all()
        result = [(line.action, line.by) for line in lines]
        db.session.remove()
        return result


def test_a_tablets_correction_against_the_rounds_close(servers, checker):
    """Either the correction comes first (200, logged by the table, and counted) and the
    round closes after it, or the close comes first and the correction is refused (409)."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    seen = set()
    for attempt in range(TRIES):
        tournament = new_tournament(one, auth, f"Korrektur {attempt}")
        key = tournament["table"]
        hand = first_hand(one, key, 70)
        path = f"/api/v1/tournaments/{tournament['id']}/rounds/1/close"
        corrected = {**hand, "points": 40, "version": 1}
        fix, close = race(
            later(
                LATE[attempt],
                lambda k=key, c=corrected: call(two, "PUT", f"/api/v1/sessions/{k}/hands/1", c),
            ),
            lambda p=path: call(one, "POST", p, {}, auth),
        )
        assert close[0] == 200, (attempt, close)
        assert fix[0] in (200, 409), (attempt, fix)
        seen.add(fix[0])
        log = log_and_check(checker, tournament["id"])
        assert log.count(("close", "Orga")) == 1, (attempt, log)
        assert (("correct", "table") in log) == (fix[0] == 200), (attempt, log)
        if fix[0] == 200:
            assert log.index(("correct", "table")) < log.index(("close", "Orga"))
        status, stored = call(one, "GET", f"/api/v1/sessions/{key}/hands/1")
        assert stored["hand"]["points"] == (40 if fix[0] == 200 else 70), attempt
    assert seen == {200, 409}, seen  # both orders met


def test_an_adjustment_against_the_rounds_close(servers, checker):
    """Both happen, once each, in either order; the adjustment counts."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    for attempt in range(TRIES):
        tournament = new_tournament(one, auth, f"Anpassung {attempt}")
        first_hand(one, tournament["table"], 70)
        base = f"/api/v1/tournaments/{tournament['id']}"
        penalty = {"player": "P1", "points": -7, "reason": "late"}
        adjusted, closed = race(
            lambda b=base, a=penalty: call(two, "POST", f"{b}/adjustments", a, auth),
            lambda b=base: call(one, "POST", f"{b}/rounds/1/close", {}, auth),
        )
        assert (adjusted[0], closed[0]) == (201, 200), (attempt, adjusted, closed)
        log = log_and_check(checker, tournament["id"])
        assert sorted(action for action, _ in log if action in ("adjust", "close")) == [
            "adjust",
            "close",
        ]
        status, rows = call(one, "GET", f"{base}/standings", None, auth)
        assert {r["player"]: r["adjustment"] for r in rows}["P1"] == -7


def test_the_organisers_correction_against_the_finish(servers, checker):
    """After the round closed: either the correction comes first and counts in the final
    standings, or the finish comes first and the correction is refused; never a correction
    after the finish."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    seen = set()
    for attempt in range(TRIES):
        tournament = new_tournament(one, auth, f"Ende {attempt}")
        key = tournament["table"]
        hand = first_hand(one, key, 70)
        base = f"/api/v1/tournaments/{tournament['id']}"
        assert call(one, "POST", f"{base}/rounds/1/close", {}, auth)[0] == 200
        corrected = {**hand, "points": 40, "version": 1}
        fix, finish = race(
            later(
                LATE[attempt],
                lambda k=key, c=corrected: call(
                    two, "PUT", f"/api/v1/sessions/{k}/hands/1", c, auth
                ),
            ),
            lambda b=base: call(one, "POST", f"{b}/finish", {}, auth),
        )
        assert finish[0] == 200, (attempt, finish)
        assert fix[0] in (200, 409), (attempt, fix)
        seen.add(fix[0])
        log = log_and_check(checker, tournament["id"])
        assert log[-1] == ("finish", "Orga"), (attempt, log)
        assert (("correct", "Orga") in log) == (fix[0] == 200), (attempt, log)
        status, stored = call(one, "GET", f"/api/v1/sessions/{key}/hands/1")
        assert stored["hand"]["points"] == (40 if fix[0] == 200 else 70), attempt
    assert seen == {200, 409}, seen  # both orders met
