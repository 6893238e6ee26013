"""More races between two server processes on one database (see test_concurrency.py):
the writes of the pages (a change of players, reopening an evening), closing an evening
while a hand is recorded, a Stammtisch member renamed twice, and the organiser's draw and
late entry sent from two devices at once. Each race is run many times over; after each,
the stored state is the fold of the stored hands and each write happened once or not at
all.
"""

from __future__ import annotations

from http.client import HTTPConnection
from urllib.parse import urlencode

from sqlalchemy import func, select

from scorer.store.database import db
from scorer.store.models import GroupEvent, HistoryEvent, TournamentPlayer, TournamentRound
from scorer.store.table_rows import get_session
from tests.support.groups import paid_lines_and_version
from tests.support.racing import (
    PLAYERS,
    assert_cache_is_the_fold,
    clear_organisers,
    frage,
    new_group,
    new_table,
    organiser_headers,
    race,
    sign_up,
)
from tests.support.servers import LOOPBACK, call
from tests.support.tables import lineup, table_version

TRIES = 8


def post_form(port: int, path: str, fields: dict[str, str] | None = None) -> int:
    """A page's form sent as a browser sends it (CSRF is off for these servers)."""
    connection = HTTPConnection(LOOPBACK, port, timeout=60)
    try:
        connection.request(
            "POST",
            path,
            body=urlencode(fields or {}).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def read(port: int, key: str) -> dict:
    status, session = call(port, "GET", f"/api/v1/sessions/{key}")
    assert status == 200
    return session


def history_count(app, key: str, action: str) -> int:
    with app.app_context():
        session = get_session(key)
        count = db.session.scalar(
            select(func.count())
            .select_from(HistoryEvent)
            .where(HistoryEvent.session_id == session.id, HistoryEvent.action == action)
        )
        db.session.remove()
        return count


def test_two_changes_of_players_at_the_same_version_one_wins(servers, checker):
    one, two = servers
    for attempt in range(TRIES):
        key = new_table(one)
        assert call(one, "POST", f"/api/v1/sessions/{key}/hands", frage("Berta", 70))[0] == 201
        version = table_version(checker, key)
        statuses = race(
            lambda k=key, v=version: post_form(
                one, f"/t/{k}/spieler", lineup([*PLAYERS, "Dieter"], v)
            ),
            lambda k=key, v=version: post_form(
                two, f"/t/{k}/spieler", lineup([*PLAYERS, "Emil"], v)
            ),
        )
        assert statuses == [302, 302], statuses  # the loser is sent back with a message
        players = read(one, key)["players"]
        assert len(players) == 4 and ("Dieter" in players) != ("Emil" in players), attempt
        assert table_version(checker, key) == version + 1, "exactly one change was applied"
        assert_cache_is_the_fold(checker, key)


def test_a_change_of_players_while_a_hand_is_recorded(servers, checker):
    one, two = servers
    outcomes = set()
    for _attempt in range(TRIES):
        key = new_table(one)
        version = table_version(checker, key)
        results = race(
            lambda k=key: call(one, "POST", f"/api/v1/sessions/{k}/hands", frage("Charlotte", 75)),
            lambda k=key, v=version: post_form(
                two, f"/t/{k}/spieler", lineup([*PLAYERS, "Dieter"], v)
            ),
        )
        assert results[0][0] == 201  # the hand is always taken (Charlotte never deals first)
        players = read(one, key)["players"]
        outcomes.add(len(players))  # 4 when the change came first, else refused: stale
        assert_cache_is_the_fold(checker, key)
    assert outcomes <= {3, 4}


def test_closing_while_a_hand_is_recorded(servers, checker):
    one, two = servers
    for attempt in range(TRIES):
        key = new_table(one)
        results = race(
            lambda k=key: call(one, "POST", f"/api/v1/sessions/{k}/hands", frage("Anton", 80)),
            lambda k=key: call(two, "POST", f"/api/v1/sessions/{k}/close"),
        )
        (recorded, _), (closed, _) = results
        assert closed == 200 and recorded in (201, 409), (attempt, results)
        session = read(one, key)
        assert session["closed"] is True
        assert len(session["hands"]) == (1 if recorded == 201 else 0)
        records = assert_cache_is_the_fold(checker, key)
        assert len(records) == len(session["hands"])
        # What was settled at closing is what the hands say: nothing came after it.
        with checker.app_context():
            stored = get_session(key)
            close = db.session.scalar(
                select(HistoryEvent).where(
                    HistoryEvent.session_id == stored.id, HistoryEvent.action == "close"
                )
            )
            assert close.data["balances"] == stored.state["balances"], attempt
            db.session.remove()


def test_an_evening_reopened_from_two_devices_at_once_is_reopened_once(servers, checker):
    one, two = servers
    for attempt in range(TRIES):
        key = new_table(one)
        assert call(one, "POST", f"/api/v1/sessions/{key}/hands", frage("Anton", 70))[0] == 201
        assert call(one, "POST", f"/api/v1/sessions/{key}/close")[0] == 200
        statuses = race(
            lambda k=key: post_form(one, f"/t/{k}/oeffnen"),
            lambda k=key: post_form(two, f"/t/{k}/oeffnen"),
        )
        assert statuses == [302, 302], statuses
        assert read(one, key)["closed"] is False
        assert history_count(checker, key, "reopen") == 1, attempt
        assert_cache_is_the_fold(checker, key)


def test_a_member_renamed_from_two_devices_at_once_is_renamed_once(servers, checker):
    one, two = servers
    for attempt in range(TRIES):
        key = new_group(one)
        results = race(
            lambda k=key: call(one, "PUT", f"/api/v1/groups/{k}/members/Anton", {"name": "Toni"}),
            lambda k=key: call(two, "PUT", f"/api/v1/groups/{k}/members/Anton", {"name": "Tonio"}),
        )
        assert sorted(status for status, _ in results) == [200, 404], (attempt, results)
        _, group = call(one, "GET", f"/api/v1/groups/{key}")
        members = group["members"]
        assert "Anton" not in members and ("Toni" in members) != ("Tonio" in members)
        with checker.app_context():
            renames = db.session.scalar(
                select(func.count()).select_from(GroupEvent).where(GroupEvent.action == "rename")
            )
            db.session.remove()
        assert renames == attempt + 1


def new_tournament(port: int, auth: dict[str, str], name: str) -> dict:
    status, tournament = call(
        port,
        "POST",
        "/api/v1/tournaments",
        {
            "name": name,
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": 2,
            "deals_per_player": 1,
            "players": [f"P{i}" for i in range(6)],
        },
        auth,
    )
    assert status == 201, tournament
    return tournament


def test_the_organiser_draws_once_and_enters_a_late_player_once(servers, checker):
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    for attempt in range(TRIES):
        tournament = new_tournament(one, auth, f"Cup {attempt}")
        path = f"/api/v1/tournaments/{tournament['id']}"
        late = race(
            lambda p=path: call(one, "POST", f"{p}/players", {"name": "Zoe"}, auth),
            lambda p=path: call(two, "POST", f"{p}/players", {"name": "zoe"}, auth),
        )
        assert sorted(status for status, _ in late) == [201, 422], (attempt, late)
        drawn = race(
            lambda p=path: call(one, "POST", f"{p}/rounds", {}, auth),
            lambda p=path: call(two, "POST", f"{p}/rounds", {}, auth),
        )
        assert sorted(status for status, _ in drawn) == [201, 409], (attempt, drawn)
        with checker.app_context():
            rounds = db.session.scalar(
                select(func.count())
                .select_from(TournamentRound)
                .where(TournamentRound.tournament_id == tournament["id"])
            )
            zoes = db.session.scalar(
                select(func.count())
                .select_from(TournamentPlayer)
                .where(
                    TournamentPlayer.tournament_id == tournament["id"],
                    func.lower(TournamentPlayer.name) == "zoe",
                )
            )
            db.session.remove()
        assert (rounds, zoes) == (1, 1), attempt


def test_two_swaps_of_seats_at_once_are_both_applied(servers, checker):
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    for attempt in range(TRIES):
        path = f"/api/v1/tournaments/{new_tournament(one, auth, f'Swap {attempt}')['id']}"
        status, drawn = call(one, "POST", f"{path}/rounds", {}, auth)
        assert status == 201, drawn
        first, second = (table["players"] for table in drawn["tables"])
        # Two swaps of four different players across the two tables, sent at once.
        a, b, c, d = first[0], second[0], first[1], second[1]
        swap = f"{path}/rounds/1/swap"
        swapped = race(
            lambda s=swap, pair={"a": a, "b": b}: call(one, "POST", s, pair, auth),
            lambda s=swap, pair={"a": c, "b": d}: call(two, "POST", s, pair, auth),
        )
        assert [status for status, _ in swapped] == [200, 200], (attempt, swapped)
        exchange = {a: b, b: a, c: d, d: c}
        expected = [[exchange.get(p, p) for p in seats] for seats in (first, second)]
        status, stored = call(one, "GET", f"{path}/rounds/1", None, auth)
        assert [table["players"] for table in stored["tables"]] == expected, attempt
        for table in stored["tables"]:  # the first seat deals first
            assert read(one, table["key"])["first_dealer"] == table["players"][0], attempt


def test_a_withdrawal_while_the_round_is_drawn(servers, checker):
    """Withdrawn before the draw: not seated and off the list; after it: seated in that
    round, withdrawn after it. Never seated and withdrawn before the round."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    for attempt in range(TRIES):
        path = f"/api/v1/tournaments/{new_tournament(one, auth, f'Late {attempt}')['id']}"
        answers = race(
            lambda p=path: call(one, "POST", f"{p}/rounds", {}, auth),
            lambda p=path: call(two, "DELETE", f"{p}/players/P5", None, auth),
        )
        assert [status for status, _ in answers] == [201, 204], (attempt, answers)
        status, tournament = call(one, "GET", path, None, auth)
        assert status == 200
        seated = any("P5" in table["players"] for table in tournament["rounds_drawn"][0]["tables"])
        listed = [p for p in tournament["players"] if p["name"] == "P5"]
        if seated:
            assert listed and listed[0]["withdrawn_after"] == 1, (attempt, tournament)
        else:
            assert not listed, (attempt, tournament)


def test_a_round_closed_from_two_devices_at_once_is_closed_once(servers, checker):
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    for attempt in range(TRIES):
        path = f"/api/v1/tournaments/{new_tournament(one, auth, f'Close {attempt}')['id']}"
        status, drawn = call(one, "POST", f"{path}/rounds", {}, auth)
        assert status == 201, drawn
        closed = race(
            lambda p=path: call(one, "POST", f"{p}/rounds/1/close", {}, auth),
            lambda p=path: call(two, "POST", f"{p}/rounds/1/close", {}, auth),
        )
        assert sorted(status for status, _ in closed) == [200, 409], (attempt, closed)
        for table in drawn["tables"]:
            assert history_count(checker, table["key"], "close") == 1, attempt
            assert read(one, table["key"])["closed"], attempt


def test_a_settle_up_closed_from_two_devices_at_once_pays_each_evening_once(servers, checker):
    one, two = servers
    for attempt in range(TRIES):
        key = new_group(one)
        evenings = []
        for players, declarer in ((PLAYERS, "Berta"), (["Dieter", "Emil", "Franzi"], "Emil")):
            status, body = call(one, "POST", f"/api/v1/groups/{key}/evenings", {"players": players})
            assert status == 201, body
            call(one, "POST", f"/api/v1/sessions/{body['key']}/hands", frage(declarer, 90))
            call(one, "POST", f"/api/v1/sessions/{body['key']}/close", {})
            evenings.append(body["key"])
        answers = race(
            lambda k=key: call(one, "POST", f"/api/v1/groups/{k}/settlement/close", {}),
            lambda k=key: call(two, "POST", f"/api/v1/groups/{k}/settlement/close", {}),
        )
        assert [status for status, _ in answers] == [200, 200], (attempt, answers)
        paid = [body["paid"] for _, body in answers]
        # Each evening is paid by exactly one of the two (in practice: the first pays
        # both, the second finds nothing left).
        assert sorted(paid[0] + paid[1]) == sorted(evenings), (attempt, paid)
        # One "paid" line in the group's history: the one that found nothing wrote nothing.
        assert paid_lines_and_version(checker, key)[0] == 1, (attempt, paid)
        _, group = call(one, "GET", f"/api/v1/groups/{key}")
        assert all(evening["paid"] for evening in group["evenings"]), (attempt, group)


def test_hands_entered_on_the_page_and_sent_by_the_api_at_once_are_all_stored(
    servers,
    checker,
):
    """The page's form and the API record through the same queue for the table."""
    one, two = servers
    key = new_table(one)
    page_hand = {"contract": "frage", "trump": "gras", "points": "70", "points_of": "declarer"}
    for attempt in range(TRIES):
        results = race(
            *[
                lambda p=(one, two)[i % 2], d=PLAYERS[i % 3]: post_form(
                    p, f"/t/{key}/spiel", {**page_hand, "declarer": d}
                )
                for i in range(4)
            ],
            *[
                lambda p=(two, one)[i % 2], d=PLAYERS[i % 3]: call(
                    p, "POST", f"/api/v1/sessions/{key}/hands", frage(d, 90)
                )[0]
                for i in range(4)
            ],
        )
        assert results == [302] * 4 + [201] * 4, (attempt, results)
    records = assert_cache_is_the_fold(checker, key)
    assert [r.number for r in records] == list(range(1, TRIES * 8 + 1))
    assert sorted(r.facts["points"] for r in records) == [70] * 32 + [90] * 32


def test_one_hand_number_sent_from_two_devices_at_once_is_stored_once(
    servers,
    checker,
):
    """Two devices (and the same two again through the page's form) enter hand N at the
    same moment, one through each server process: exactly one is stored as N; the other
    is answered 409 with the stored hand, and nothing of it is stored."""
    one, two = servers
    key = new_table(one)
    page_hand = {"contract": "frage", "trump": "gras", "points": "66", "points_of": "declarer"}
    number = 0
    for attempt in range(TRIES * 2):
        number += 1
        results = race(
            lambda n=number: call(
                one, "POST", f"/api/v1/sessions/{key}/hands", {**frage("Berta", 66), "number": n}
            ),
            lambda n=number: call(
                two, "POST", f"/api/v1/sessions/{key}/hands", {**frage("Anton", 70), "number": n}
            ),
        )
        statuses = sorted(status for status, _ in results)
        assert statuses == [201, 409], (attempt, results)
        stored = next(body for status, body in results if status == 201)
        refused = next(body for status, body in results if status == 409)
        assert stored["number"] == number
        assert refused["error"]["code"] == "hand_exists"
        assert refused["hand"]["hand"] == stored["hand"], (attempt, refused)
        # The same race through the pages' forms (JSON, as the page's script asks).
        number += 1
        answers = race(
            *[
                lambda p=p, d=d, n=number: post_json_form(
                    p, f"/t/{key}/spiel", {**page_hand, "declarer": d, "number": str(n)}
                )
                for p, d in ((one, "Charlotte"), (two, "Berta"))
            ]
        )
        assert sorted(answers) == [201, 409], (attempt, answers)
    records = assert_cache_is_the_fold(checker, key)
    assert [r.number for r in records] == list(range(1, number + 1))


def post_json_form(port: int, path: str, fields: dict[str, str]) -> int:
    """A page's form as its script sends it: asking for JSON."""
    connection = HTTPConnection(LOOPBACK, port, timeout=60)
    try:
        connection.request(
            "POST",
            path,
            body=urlencode(fields).encode(),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Accept": "application/json",
            },
        )
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_rules_changed_while_an_evening_starts_apply_from_the_right_evening(
    servers,
    checker,
):
    """The group's rules changed on one device while another starts an evening: the
    evening has the rules that held when it started, and the change says from which
    evening it applies, whichever came first."""
    one, two = servers
    for attempt in range(TRIES):
        key = new_group(one)
        results = race(
            lambda k=key: call(
                one, "PUT", f"/api/v1/groups/{k}/rules", {"params": {"stake_cents": 70}}
            ),
            lambda k=key: call(two, "POST", f"/api/v1/groups/{k}/evenings", {"players": PLAYERS}),
        )
        assert [status for status, _ in results] == [200, 201], (attempt, results)
        evening = results[1][1]
        _, archive = call(one, "GET", f"/api/v1/groups/{key}/archive.json")
        [change] = [line for line in archive["history"] if line["action"] == "rules"]
        started_first = evening["params"]["stake_cents"] == 50
        assert change["from_evening"] == (2 if started_first else 1), (attempt, change, evening)
        assert evening["params"]["stake_cents"] in (50, 70)
        _, group = call(one, "GET", f"/api/v1/groups/{key}")
        assert group["params"]["stake_cents"] == 70


def test_a_member_retired_while_named_for_an_evening_ends_as_the_last_write_says(
    servers,
    checker,
):
    one, two = servers
    for attempt in range(TRIES):
        key = new_group(one)
        results = race(
            lambda k=key: call(one, "PUT", f"/api/v1/groups/{k}/members/Emil", {"coming": False}),
            lambda k=key: call(
                two, "POST", f"/api/v1/groups/{k}/evenings", {"players": [*PLAYERS, "Emil"]}
            ),
        )
        assert [status for status, _ in results] == [200, 201], (attempt, results)
        _, archive = call(one, "GET", f"/api/v1/groups/{key}/archive.json")
        lines = [line["action"] for line in archive["history"] if line.get("name") == "Emil"]
        assert lines in (["retire"], ["retire", "return"]), (attempt, lines)
        _, group = call(one, "GET", f"/api/v1/groups/{key}")
        assert ("Emil" in group["not_coming"]) == (lines == ["retire"]), (attempt, group)


def test_one_archive_imported_from_two_devices_at_once_makes_two_equal_groups(
    servers,
    checker,
):
    one, two = servers
    key = new_group(one)
    _, evening = call(one, "POST", f"/api/v1/groups/{key}/evenings", {"players": PLAYERS})
    for points in (70, 50, 95):
        assert (
            call(one, "POST", f"/api/v1/sessions/{evening['key']}/hands", frage("Berta", points))[0]
            == 201
        )
    assert call(one, "POST", f"/api/v1/sessions/{evening['key']}/close")[0] == 200
    _, archive = call(one, "GET", f"/api/v1/groups/{key}/archive.json")
    for attempt in range(TRIES // 2):
        results = race(
            lambda: call(one, "POST", "/api/v1/groups/import", archive),
            lambda: call(two, "POST", "/api/v1/groups/import", archive),
        )
        assert [status for status, _ in results] == [201, 201], (attempt, results)
        made = [body for _, body in results]
        assert made[0]["key"] != made[1]["key"]
        for body in made:
            assert body["pot_cents"] == call(one, "GET", f"/api/v1/groups/{key}")[1]["pot_cents"]
            [copy] = body["evenings"]
            assert (
                call(one, "GET", f"/api/v1/sessions/{copy['key']}/settlement")[1]
                == call(one, "GET", f"/api/v1/sessions/{evening['key']}/settlement")[1]
            )
            assert_cache_is_the_fold(checker, copy["key"])
