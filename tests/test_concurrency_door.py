"""Two desks at the door, on two server processes and one database (see
test_concurrency.py): check-ins of different players at once, the same player at once,
look-alike registrations at once, the last place under the cap, and a check-in against the
draw. Each race is run many times over; after each, what is stored is one consistent door:
every answer that said success is stored once, a refusal stored nothing, and a player is
either drawn in the round or joins the next, never checked in for a round he is not in."""

from __future__ import annotations

from sqlalchemy import select

from scorer.store.database import db
from scorer.store.models import Tournament, TournamentLog
from tests.support.racing import clear_organisers, organiser_headers, race, sign_up
from tests.support.servers import call

TRIES = 8
AUTH = organiser_headers("orga@example.org", "geheim123")


def empty_tournament(port: int, name: str, **extra) -> tuple[int, str]:
    body = {
        "name": name,
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 2,
        "deals_per_player": 1,
        "players": [],
        **extra,
    }
    status, tournament = call(port, "POST", "/api/v1/tournaments", body, AUTH)
    assert status == 201, tournament
    return tournament["id"], f"/api/v1/tournaments/{tournament['id']}"


def register(port: int, base: str, name: str) -> tuple[int, object]:
    return call(port, "POST", f"{base}/players", {"name": name}, AUTH)


def players_and_log(app, tournament_id: int) -> tuple[dict, list[str]]:
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        players = {
            p.name: (p.checked_in, p.waiting, p.fee, p.joined_round) for p in tournament.players
        }
        log = list(
            db.session.scalars(
                select(TournamentLog.action)
                .where(TournamentLog.tournament_id == tournament_id)
                .order_by(TournamentLog.id)
            )
        )
        db.session.remove()
        return players, log


def test_two_desks_check_in_at_once(servers, checker):
    """Different players at once: both checked in. The same player at once, one ticking
    him paid: checked in once with that fee, both answers 200."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    for attempt in range(TRIES):
        tid, base = empty_tournament(one, f"Einlass {attempt}", entry_fee_cents=1000)
        for name in ("Anna", "Bert"):
            assert register(one, base, name)[0] == 201
        a, b = race(
            lambda b=base: call(one, "POST", f"{b}/players/Anna/check-in", {"paid": True}, AUTH),
            lambda b=base: call(two, "POST", f"{b}/players/Bert/check-in", {"paid": False}, AUTH),
        )
        assert (a[0], b[0]) == (200, 200), (attempt, a, b)
        same = race(
            lambda b=base: call(one, "POST", f"{b}/players/Bert/check-in", {"paid": True}, AUTH),
            lambda b=base: call(two, "POST", f"{b}/players/Bert/check-in", {"paid": True}, AUTH),
        )
        assert [s[0] for s in same] == [200, 200], (attempt, same)
        players, log = players_and_log(checker, tid)
        assert players["Anna"] == (True, False, "paid", 1)
        assert players["Bert"] == (True, False, "paid", 1)
        assert log == ["enter", "enter", "check_in", "check_in", "check_in", "check_in"]
        status, cash = call(one, "GET", f"{base}/cash", None, AUTH)
        assert cash["received_cents"] == 2000 and cash["unpaid"] == []


def test_look_alike_names_and_the_last_place_registered_at_once(servers, checker):
    """'Anna Huber' and 'anna huber' at once: one is registered (201), the other refused
    (422). Two players for the last place under the cap: one gets it, the other waits."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    for attempt in range(TRIES):
        tid, base = empty_tournament(one, f"Anmeldung {attempt}", cap=3)
        for name in ("P1", "P2"):
            assert register(one, base, name)[0] == 201
        alike = race(
            lambda b=base: register(one, b, "Anna Huber"),
            lambda b=base: register(two, b, "anna huber"),
        )
        assert sorted(s[0] for s in alike) == [201, 422], (attempt, alike)
        last = race(
            lambda b=base: register(one, b, "Carl"), lambda b=base: register(two, b, "Dora")
        )
        assert [s[0] for s in last] == [201, 201], (attempt, last)
        assert sorted(s[1]["waiting"] for s in last) == [True, True], (attempt, last)
        players, log = players_and_log(checker, tid)
        assert len(players) == 5 and log == ["enter"] * 5
        assert sum(1 for _, waiting, _, _ in players.values() if not waiting) == 3


def test_a_check_in_against_the_draw(servers, checker):
    """Either the check-in comes first and the player is seated in round 1, or the draw
    comes first and he joins from round 2: never checked in for a round he is not in."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    seen = set()
    for attempt in range(TRIES):
        tid, base = empty_tournament(one, f"Auslosung {attempt}")
        for name in ("P1", "P2", "P3", "P4", "Late"):
            assert register(one, base, name)[0] == 201
        for name in ("P1", "P2", "P3", "P4"):
            assert call(one, "POST", f"{base}/players/{name}/check-in", {}, AUTH)[0] == 200
        checked, drawn = race(
            lambda b=base: call(two, "POST", f"{b}/players/Late/check-in", {}, AUTH),
            lambda b=base: call(one, "POST", f"{b}/rounds", {}, AUTH),
        )
        assert (checked[0], drawn[0]) == (200, 201), (attempt, checked, drawn)
        seated = {n for table in drawn[1]["tables"] for n in table["players"]} | set(
            drawn[1]["byes"]
        )
        joined = checked[1]["joined_round"]
        assert ("Late" in seated) == (joined == 1), (attempt, joined, seated)
        players, _ = players_and_log(checker, tid)
        assert players["Late"][3] == joined
        seen.add(joined)
    assert seen, seen
