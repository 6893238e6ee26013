"""Two tablets, one table: races between two real server processes (`python -m
scorer.serve`, as `make run` starts it) on one database, each run many times over.

After every race the stored state must equal a fresh fold of the stored hands, exactly one
of two same-version edits or voids wins, concurrent records are all stored once with
consecutive numbers, a round closes exactly once, there is one first organiser, and a
server killed mid-burst loses no acknowledged hand. SQLite by default; PostgreSQL when
SCORER_TEST_DATABASE_URL names one.
"""

from __future__ import annotations

import os
import signal
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection
from typing import Any
from urllib.parse import urlencode

import pytest
from sqlalchemy import func, select

from scorer.store.database import db
from scorer.store.models import (
    HistoryEvent,
    Organiser,
    TournamentRound,
)
from scorer.store.table_rows import get_session
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
from tests.support.servers import call, start_server


def test_recording_while_another_device_edits_keeps_the_money_right(servers, checker):
    one, two = servers
    key = new_table(one)
    for i in range(4):
        assert (
            call(one, "POST", f"/api/v1/sessions/{key}/hands", frage(PLAYERS[i % 3], 70))[0] == 201
        )
    for attempt in range(40):
        status, first = call(two, "GET", f"/api/v1/sessions/{key}/hands/1")
        new_points = 61 + attempt % 30
        recorded, edited = race(
            lambda a=attempt: call(
                one, "POST", f"/api/v1/sessions/{key}/hands", frage(PLAYERS[a % 3], 75)
            ),
            lambda p=new_points, v=first["version"]: call(
                two,
                "PUT",
                f"/api/v1/sessions/{key}/hands/1",
                {**frage("Berta", p), "version": v},
            ),
        )
        assert recorded[0] == 201, recorded
        assert edited[0] == 200, edited
        assert_cache_is_the_fold(checker, key)
    status, session = call(one, "GET", f"/api/v1/sessions/{key}")
    assert session["hand_count"] == 44
    assert sum(session["balances"].values()) == 0


def test_of_two_edits_at_the_same_version_exactly_one_wins(servers, checker):
    one, two = servers
    key = new_table(one)
    for i in range(3):
        call(one, "POST", f"/api/v1/sessions/{key}/hands", frage(PLAYERS[i % 3], 70))
    for attempt in range(30):
        _, hand = call(one, "GET", f"/api/v1/sessions/{key}/hands/2")
        path = f"/api/v1/sessions/{key}/hands/2"
        results = race(
            lambda p=path, v=hand["version"]: call(
                one, "PUT", p, {**frage("Anton", 80), "version": v}
            ),
            lambda p=path, v=hand["version"]: call(
                two, "PUT", p, {**frage("Anton", 40), "version": v}
            ),
        )
        assert sorted(status for status, _ in results) == [200, 409], (attempt, results)
        _, after = call(one, "GET", path)
        assert after["version"] == hand["version"] + 1
        winner = next(body for status, body in results if status == 200)
        assert after["hand"] == winner["hand"]
    assert_cache_is_the_fold(checker, key)


def test_of_two_voids_at_the_same_version_exactly_one_wins(servers, checker):
    one, two = servers
    key = new_table(one)
    for attempt in range(30):
        status, hand = call(one, "POST", f"/api/v1/sessions/{key}/hands", frage("Berta", 65))
        assert status == 201
        path = f"/api/v1/sessions/{key}/hands/{hand['number']}?version={hand['version']}"
        results = race(lambda p=path: call(one, "DELETE", p), lambda p=path: call(two, "DELETE", p))
        assert sorted(status for status, _ in results) == [204, 409], (attempt, results)
    with checker.app_context():
        session = get_session(key)
        voids = db.session.scalar(
            select(func.count()).where(
                HistoryEvent.session_id == session.id, HistoryEvent.action == "void"
            )
        )
        assert voids == 30
        db.session.remove()
    assert assert_cache_is_the_fold(checker, key) == []


def undo(port: int, key: str, number: int, version: int) -> int:
    """The table page's Undo (a form post), as a tablet sends it; its status."""
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        form = urlencode({"version": version, "next": "table"})
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        connection.request("POST", f"/t/{key}/spiele/{number}/streichen", form, headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_undo_against_another_devices_next_hand_strikes_only_the_latest(servers, checker):
    """Tablet A takes its hand back while tablet B enters the next one, on the other server:
    Undo strikes its hand only when no later hand was stored before it (else 409, nothing
    struck), and B's hand is stored either way."""
    one, two = servers
    key = new_table(one)
    outcomes = Counter()
    for _ in range(20):
        status, hand = call(one, "POST", f"/api/v1/sessions/{key}/hands", frage("Berta", 65))
        assert status == 201
        number = hand["number"]
        next_hand = {**frage("Charlotte", 70), "number": number + 1}
        undone, (recorded, _body) = race(
            lambda n=number, v=hand["version"]: undo(one, key, n, v),
            lambda body=next_hand: call(two, "POST", f"/api/v1/sessions/{key}/hands", body),
        )
        assert recorded == 201 and undone in (302, 409), (undone, recorded)
        outcomes[undone] += 1
        with checker.app_context():
            session = get_session(key)
            events = db.session.execute(
                select(HistoryEvent.action, HistoryEvent.hand_number)
                .where(HistoryEvent.session_id == session.id)
                .order_by(HistoryEvent.id)
            ).all()
            db.session.remove()
        voided = ("void", number) in events
        assert voided == (undone == 302)
        if voided:  # struck before the next hand came: never after it
            assert events.index(("void", number)) < events.index(("record", number + 1))
    assert outcomes[302] + outcomes[409] == 20, outcomes
    live = assert_cache_is_the_fold(checker, key)  # the cached state is the fold
    assert len(live) == 40 - outcomes[302]


@pytest.mark.parametrize("tablets", [2, 20])
def test_concurrent_records_are_all_stored_once_in_order(servers, checker, tablets):
    ports = servers
    key = new_table(ports[0])
    per_tablet = 60 // tablets * 2

    def tablet(index: int) -> list[int]:
        numbers = []
        for n in range(per_tablet):
            status, body = call(
                ports[index % 2],
                "POST",
                f"/api/v1/sessions/{key}/hands",
                frage(PLAYERS[(index + n) % 3], 61 + (index * 7 + n) % 50),
            )
            assert status == 201, body
            numbers.append(body["number"])
        return numbers

    numbers = [n for batch in race(*[lambda i=i: tablet(i) for i in range(tablets)]) for n in batch]
    assert sorted(numbers) == list(range(1, tablets * per_tablet + 1))
    records = assert_cache_is_the_fold(checker, key)
    assert len(records) == tablets * per_tablet


def test_the_same_idempotency_key_at_once_stores_one_hand(servers, checker):
    one, two = servers
    key = new_table(one)
    for attempt in range(20):
        headers = {"Idempotency-Key": f"tablet-a-{attempt}"}
        body = frage(PLAYERS[attempt % 3], 70)
        results = race(
            *[
                lambda p=p, b=body, h=headers: call(
                    p, "POST", f"/api/v1/sessions/{key}/hands", b, h
                )
                for p in (one, two, one, two)
            ]
        )
        assert [status for status, _ in results] == [201] * 4, results
        assert len({answer["number"] for _, answer in results}) == 1
    assert len(assert_cache_is_the_fold(checker, key)) == 20


def test_refused_hands_among_many_at_once_hold_up_none_of_the_others(servers, checker):
    """Hands posted at once are written together; one refused among them (a key used
    before for another hand) is answered 422 and the others are all stored, in order."""
    one, two = servers
    key = new_table(one)
    used = {"Idempotency-Key": "used-before"}
    assert call(one, "POST", f"/api/v1/sessions/{key}/hands", frage("Anton", 70), used)[0] == 201
    numbers = [1]
    for attempt in range(15):
        posts = [
            (frage("Berta", 99), used) if i % 4 == 3 else (frage(PLAYERS[i % 3], 61 + i), {})
            for i in range(8)
        ]
        results = race(
            *[
                lambda p=(one, two)[i % 2], b=body, h=headers: call(
                    p, "POST", f"/api/v1/sessions/{key}/hands", b, h
                )
                for i, (body, headers) in enumerate(posts)
            ]
        )
        statuses = [status for status, _ in results]
        assert statuses == [422 if i % 4 == 3 else 201 for i in range(8)], (attempt, results)
        assert all(
            "Idempotency-Key" in answer["error"]["fields"] for s, answer in results if s == 422
        )
        numbers += [answer["number"] for status, answer in results if status == 201]
    assert sorted(numbers) == list(range(1, 1 + 15 * 6 + 1))
    assert len(assert_cache_is_the_fold(checker, key)) == 1 + 15 * 6


def test_two_first_sign_ups_at_once_make_one_organiser(servers, checker):
    one, two = servers
    for attempt in range(15):
        clear_organisers(checker)
        statuses = race(
            lambda a=attempt: sign_up(one, f"a{a}@example.org"),
            lambda a=attempt: sign_up(two, f"b{a}@example.org"),
        )
        assert statuses == [302, 302]
        with checker.app_context():
            assert db.session.scalar(select(func.count(Organiser.id))) == 1, attempt
            db.session.remove()


def test_a_round_closes_exactly_once_when_its_last_tables_finish_together(servers, checker):
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    for attempt in range(8):
        status, tournament = call(
            one,
            "POST",
            "/api/v1/tournaments",
            {
                "name": f"Turnier {attempt}",
                "game": "haferltarock",
                "system": "parlett-units",
                "rounds": 1,
                "deals_per_player": 1,
                "players": [f"P{i}" for i in range(6)],
            },
            auth,
        )
        assert status == 201, tournament
        status, round_ = call(
            one, "POST", f"/api/v1/tournaments/{tournament['id']}/rounds", {}, auth
        )
        assert status == 201, round_
        tables = round_["tables"]
        assert len(tables) == 2

        def last_hand(table, port):
            players = table["players"]
            return call(
                port,
                "POST",
                f"/api/v1/sessions/{table['key']}/hands",
                {"declarer": players[1], "contract": "frage", "points": 70},
            )

        for table in tables:
            for n in range(table["hands_planned"] - 1):
                status, _ = call(
                    one,
                    "POST",
                    f"/api/v1/sessions/{table['key']}/hands",
                    {"declarer": table["players"][n % 3], "contract": "frage", "points": 65},
                )
                assert status == 201
        results = race(lambda t=tables: last_hand(t[0], one), lambda t=tables: last_hand(t[1], two))
        assert [status for status, _ in results] == [201, 201], results
        status, after = call(
            two, "GET", f"/api/v1/tournaments/{tournament['id']}/rounds/1", headers=auth
        )
        assert after["closed"] is True, (attempt, after)
        with checker.app_context():
            closes = Counter(
                db.session.scalars(
                    select(HistoryEvent.session_id).where(HistoryEvent.action == "close")
                )
            )
            ids = [get_session(t["key"]).id for t in tables]
            assert [closes[i] for i in ids] == [1, 1]
            db.session.remove()


@pytest.mark.skipif(
    not os.environ.get("SCORER_TEST_DATABASE_URL"),
    reason="PostgreSQL's row locks (SQLite has one writer at a time anyway)",
)
def test_a_hand_waits_for_its_rounds_lock_only_when_it_may_finish_its_table(servers, checker):
    """While someone holds the round's row lock, hands at its tables that cannot finish
    them are stored; the hand that finishes a table waits for the round (its close is
    decided under that lock), and is stored once the lock is given back."""
    one, _ = servers
    clear_organisers(checker)
    assert sign_up(one, "orga@example.org") == 302
    auth = organiser_headers("orga@example.org", "geheim123")
    body = {
        "name": "Sperre",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 1,
        "deals_per_player": 2,
        "players": [f"P{i}" for i in range(6)],
    }
    status, tournament = call(one, "POST", "/api/v1/tournaments", body, auth)
    assert status == 201, tournament
    status, round_ = call(one, "POST", f"/api/v1/tournaments/{tournament['id']}/rounds", {}, auth)
    assert status == 201, round_
    table = round_["tables"][0]
    path = f"/api/v1/sessions/{table['key']}/hands"

    def hand(n: int) -> tuple[int, Any]:
        facts = {"declarer": table["players"][n % 3], "contract": "frage", "points": 65}
        return call(one, "POST", path, facts, timeout=30)

    with checker.app_context():
        holder = db.engine.connect()
        holder.execute(
            select(TournamentRound.id)
            .where(TournamentRound.tournament_id == tournament["id"])
            .with_for_update()
        )
        try:
            for n in range(table["hands_planned"] - 1):
                assert hand(n)[0] == 201, n  # would time out if it waited for the round
            with ThreadPoolExecutor(1) as pool:
                last = pool.submit(hand, table["hands_planned"] - 1)
                waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                for _ in range(300):
                    with db.engine.connect() as probe:
                        if probe.exec_driver_sql(waiting).scalar():
                            break
                    threading.Event().wait(0.1)
                else:
                    pytest.fail("the table's last hand did not wait for the round's lock")
                assert not last.done()
                holder.rollback()
                assert last.result()[0] == 201
        finally:
            holder.close()
        db.session.remove()


def test_a_server_killed_mid_burst_loses_no_acknowledged_hand(database, checker, tmp_path):
    server = start_server(database, tmp_path / "victim.log")
    key = new_table(server.port)
    acknowledged: list[int] = []
    lock = threading.Lock()

    def tablet(index: int) -> None:
        for n in range(200):
            try:
                status, body = call(
                    server.port,
                    "POST",
                    f"/api/v1/sessions/{key}/hands",
                    frage(PLAYERS[(index + n) % 3], 61 + n % 40),
                    timeout=10,
                )
            except OSError:
                return
            if status == 201:
                with lock:
                    acknowledged.append(body["number"])

    def kill_when_busy() -> None:
        while len(acknowledged) < 40:
            threading.Event().wait(0.01)
        server.stop(signal.SIGKILL)

    with ThreadPoolExecutor(9) as pool:
        for i in range(8):
            pool.submit(tablet, i)
        pool.submit(kill_when_busy)
    assert server.process.poll() is not None
    assert 40 <= len(acknowledged) < 1600

    restarted = start_server(database, tmp_path / "restarted.log")
    try:
        status, session = call(restarted.port, "GET", f"/api/v1/sessions/{key}")
        assert status == 200
        stored = [h["number"] for h in session["hands"]]
        assert set(acknowledged) <= set(stored)
        assert stored == list(range(1, len(stored) + 1))
        assert_cache_is_the_fold(checker, key)
        # The table goes on where it stopped.
        status, body = call(
            restarted.port, "POST", f"/api/v1/sessions/{key}/hands", frage("Anton", 90)
        )
        assert (status, body["number"]) == (201, len(stored) + 1)
    finally:
        restarted.stop()


# --- a Stammtisch: the carried Haferl is taken once, and given back once ------------------


def group_total(port: int, key: str) -> tuple[int, dict]:
    """Members' nets + the group's Haferl + what open evenings hold (must be 0)."""
    _, group = call(port, "GET", f"/api/v1/groups/{key}")
    total = group["pot_cents"]
    for evening in group["evenings"]:
        if evening["closed"]:
            _, answer = call(port, "GET", f"/api/v1/sessions/{evening['key']}/settlement")
            total += sum(c for p, c in answer["balances"].items() if p != "pot")
        else:
            _, session = call(port, "GET", f"/api/v1/sessions/{evening['key']}")
            total += sum(session["balances"].values())
    return total, group


def test_two_evenings_started_at_once_take_the_haferl_once(servers, checker):
    one, two = servers
    for attempt in range(8):
        key = new_group(one)
        status, first = call(one, "POST", f"/api/v1/groups/{key}/evenings", {"players": PLAYERS})
        assert status == 201, first
        call(one, "POST", f"/api/v1/sessions/{first['key']}/hands", frage("Berta", 90))
        call(one, "POST", f"/api/v1/sessions/{first['key']}/close", {})
        _, group = call(one, "GET", f"/api/v1/groups/{key}")
        carried = group["pot_cents"]
        assert carried > 0
        answers = race(
            lambda key=key: call(
                one, "POST", f"/api/v1/groups/{key}/evenings", {"players": PLAYERS}
            ),
            lambda key=key: call(
                two,
                "POST",
                f"/api/v1/groups/{key}/evenings",
                {"players": ["Dieter", "Emil", "Franzi"]},
            ),
        )
        assert [status for status, _ in answers] == [201, 201], (attempt, answers)
        pots = sorted(body["balances"]["pot"] for _, body in answers)
        assert pots == sorted([carried, 150]), (attempt, pots)  # one took it, one paid stakes
        total, group = group_total(one, key)
        assert total == 0 and group["pot_cents"] == 0, attempt


def test_two_evenings_closed_at_once_give_back_both_haferls(servers, checker):
    one, two = servers
    for attempt in range(8):
        key = new_group(one)
        evenings = []
        for players in (PLAYERS, ["Dieter", "Emil", "Franzi"]):
            status, body = call(one, "POST", f"/api/v1/groups/{key}/evenings", {"players": players})
            assert status == 201, body
            evenings.append(body)
        call(one, "POST", f"/api/v1/sessions/{evenings[0]['key']}/hands", frage("Berta", 70))
        call(two, "POST", f"/api/v1/sessions/{evenings[1]['key']}/hands", frage("Emil", 80))
        pots = [
            call(one, "GET", f"/api/v1/sessions/{e['key']}")[1]["balances"]["pot"] for e in evenings
        ]
        answers = race(
            lambda first=evenings[0]["key"]: call(
                one, "POST", f"/api/v1/sessions/{first}/close", {}
            ),
            lambda second=evenings[1]["key"]: call(
                two, "POST", f"/api/v1/sessions/{second}/close", {}
            ),
        )
        assert [status for status, _ in answers] == [200, 200], answers
        total, group = group_total(one, key)
        assert group["pot_cents"] == sum(pots), (attempt, group["pot_cents"], pots)
        assert total == 0, attempt


def test_a_season_closed_from_two_devices_at_once_closes_once(servers, checker):
    one, two = servers
    for attempt in range(8):
        key = new_group(one)
        status, evening = call(one, "POST", f"/api/v1/groups/{key}/evenings", {"players": PLAYERS})
        assert status == 201, evening
        call(one, "POST", f"/api/v1/sessions/{evening['key']}/hands", frage("Berta", 90))
        call(one, "POST", f"/api/v1/sessions/{evening['key']}/close", {})
        answers = race(
            lambda key=key: call(one, "POST", f"/api/v1/groups/{key}/season/close", {}),
            lambda key=key: call(two, "POST", f"/api/v1/groups/{key}/season/close", {}),
        )
        assert sorted(status for status, _ in answers) == [200, 409], (attempt, answers)
        total, group = group_total(one, key)
        assert group["season"] == 2 and len(group["closed_seasons"]) == 1, attempt
        assert total + sum(group["closed_seasons"][0]["shares"].values()) == 0, attempt
