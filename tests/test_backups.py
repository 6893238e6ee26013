"""Backups (scorer/backups.py): `flask scorer backup` while a real server (`python -m
scorer.serve`, as `make run` starts it) takes hands from 8 threads, `scorer restore`
refused while that server holds the database and a round trip once it is stopped, a
broken backup refused, the keeper's daily backup, the newest 14 kept, and PostgreSQL
pointed to pg_dump. Always on SQLite files of their own (backups are SQLite's)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from scorer import create_app
from scorer.store import backups
from scorer.store.database import db
from tests.support.servers import call, migrate_fresh, start_server

PLAYERS = ["Anton", "Berta", "Charlotte"]
WRITERS = 8


def app_on(database: Path, **config):
    return create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SECRET_KEY": "test",
            "TESTING": True,
            "RATE_LIMITS": False,
            **config,
        }
    )


def stored_hands(database: Path) -> set[tuple[str, int]]:
    """(table key, number) of every live hand in a database file."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT s.key, h.number FROM hand h JOIN table_session s ON s.id = h.session_id"
            " WHERE NOT h.voided"
        ).fetchall()
    connection.close()
    return {(key, number) for key, number in rows}


def new_table(post) -> str:
    status, body = post(
        "/api/v1/sessions",
        {"game": "haferltarock", "system": "parlett-units", "players": PLAYERS},
    )
    assert status == 201, body
    return body["key"]


def hand(number: int) -> dict:
    return {"declarer": PLAYERS[number % 3], "contract": "frage", "points": 40 + number % 60}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A real server on a migrated SQLite file: (database, port)."""
    folder = tmp_path_factory.mktemp("served")
    database = folder / "haferl.sqlite3"
    url = f"sqlite:///{database}"
    migrate_fresh(url)
    server = start_server(url, folder / "server.log", BACKUP_CHECK_EVERY="0.5")
    yield database, server.port
    server.stop()


def test_a_backup_while_8_threads_write_hands_holds_every_acknowledged_hand(served, tmp_path):
    database, port = served
    tables = [new_table(lambda path, body: call(port, "POST", path, body)) for _ in range(WRITERS)]
    acknowledged: list[tuple[str, int]] = []
    lock = threading.Lock()
    stop = threading.Event()
    errors: list[object] = []

    def write(key: str) -> None:
        number = 0
        while not stop.is_set():
            number += 1
            status, body = call(port, "POST", f"/api/v1/sessions/{key}/hands", hand(number))
            if status != 201:
                errors.append((status, body))
                return
            with lock:
                acknowledged.append((key, body["number"]))

    writers = [threading.Thread(target=write, args=(key,)) for key in tables]
    for thread in writers:
        thread.start()
    try:
        deadline = time.monotonic() + 60
        while len(acknowledged) < 200 and time.monotonic() < deadline and not errors:
            time.sleep(0.01)
        with lock:
            before = list(acknowledged)  # every hand answered 201 before the backup began
        copy = tmp_path / "while-writing.sqlite3"
        app = app_on(database)
        started = time.monotonic()
        result = app.test_cli_runner().invoke(args=["scorer", "backup", str(copy)])
        took = time.monotonic() - started
        assert result.exit_code == 0, result.output
        time.sleep(0.3)
    finally:
        stop.set()
        for thread in writers:
            thread.join(timeout=60)
    assert not errors, errors[:3]
    assert len(before) >= 200
    assert len(acknowledged) > len(before)  # writing went on around the backup
    assert "Gesichert: " in result.output and "integrity_check ok" in result.output
    assert backups.integrity(copy) == "ok"
    in_copy = stored_hands(copy)
    assert set(before) <= in_copy
    assert in_copy <= set(acknowledged) | stored_hands(database)
    assert not Path(f"{copy}-wal").exists()  # a lone file
    print(f"backup of {len(in_copy)} hands while writing: {took * 1000:.0f} ms")
    with app.app_context():
        db.engine.dispose()


def test_restore_is_refused_while_the_server_holds_the_database(served, tmp_path):
    database, port = served
    copy = tmp_path / "copy.sqlite3"
    backups.take_backup(database, copy)
    key = new_table(lambda path, body: call(port, "POST", path, body))
    assert call(port, "POST", f"/api/v1/sessions/{key}/hands", hand(1))[0] == 201
    hands = stored_hands(database)
    app = app_on(database)
    result = app.test_cli_runner().invoke(args=["scorer", "restore", str(copy)])
    assert result.exit_code == 1
    assert "Der Server läuft noch auf dieser Datenbank" in result.output
    assert stored_hands(database) == hands
    assert not list(database.parent.glob("*.before-restore-*"))
    assert call(port, "GET", f"/api/v1/sessions/{key}")[0] == 200
    with app.app_context():
        db.engine.dispose()


def test_the_server_takes_a_backup_a_day_beside_the_database(served):
    """The keeper started with the server: no backup yet, so one at once; within its
    day no second (checked every half second here)."""
    database, _ = served
    folder = database.parent / "backups"
    deadline = time.monotonic() + 30
    while not backups.backups_in(folder) and time.monotonic() < deadline:
        time.sleep(0.1)
    found = backups.backups_in(folder)
    assert len(found) == 1
    assert backups.integrity(found[0]) == "ok"
    time.sleep(1.5)
    assert backups.backups_in(folder) == found


def test_a_restore_round_trip(tmp_path):
    database, app, client, key = table_with_hands(tmp_path, 5)
    before = client.get(f"/api/v1/sessions/{key}").get_json()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["scorer", "backup"])
    assert result.exit_code == 0, result.output
    [copy] = backups.backups_in(tmp_path / "backups")
    for number in range(6, 9):
        assert client.post(f"/api/v1/sessions/{key}/hands", json=hand(number)).status_code == 201
    assert client.get(f"/api/v1/sessions/{key}").get_json()["hand_count"] == 8

    result = runner.invoke(args=["scorer", "restore", str(copy)])
    assert result.exit_code == 0, result.output
    assert "Zurückgespielt: " in result.output and "make run startet wieder" in result.output
    [aside] = tmp_path.glob("haferl.sqlite3.before-restore-*")
    assert str(aside) in result.output
    assert len(stored_hands(aside)) == 8
    assert len(stored_hands(database)) == 5
    after = client.get(f"/api/v1/sessions/{key}").get_json()
    assert after["balances"] == before["balances"] and after["hand_count"] == 5
    assert client.post(f"/api/v1/sessions/{key}/hands", json=hand(6)).status_code == 201
    assert backups.integrity(database) == "ok"
    with app.app_context():
        db.engine.dispose()


def table_with_hands(tmp_path: Path, hands: int):
    """(database, app, client, table key): a fresh SQLite database with one table of
    `hands` hands, written through the API."""
    database = tmp_path / "haferl.sqlite3"
    migrate_fresh(f"sqlite:///{database}")
    app = app_on(database)
    client = app.test_client()
    key = new_table(lambda path, body: response(client.post(path, json=body)))
    for number in range(1, hands + 1):
        assert client.post(f"/api/v1/sessions/{key}/hands", json=hand(number)).status_code == 201
    return database, app, client, key


def response(answer) -> tuple[int, dict]:
    return answer.status_code, answer.get_json()


def test_a_backup_whose_damage_sqlite_cannot_say_is_refused(tmp_path):
    """A broken schema whose error message quotes bytes that are not UTF-8 (Python's
    sqlite3 cannot even read what SQLite says): refused like any other broken file."""
    database, app, client, key = table_with_hands(tmp_path, 3)
    broken = tmp_path / "broken.sqlite3"
    backups.take_backup(database, broken)
    data = broken.read_bytes()
    assert b"CREATE TABLE hand" in data
    broken.write_bytes(data.replace(b"CREATE TABLE hand", b"CREATE \x90ABLE hand", 1))
    found = backups.integrity(broken)
    assert found != "ok" and "unreadable" in found
    hands = stored_hands(database)
    result = app.test_cli_runner().invoke(args=["scorer", "restore", str(broken)])
    assert result.exit_code == 1 and "keine unversehrte SQLite-Datenbank" in result.output
    assert stored_hands(database) == hands
    with app.app_context():
        db.engine.dispose()


def test_a_broken_backup_is_refused_and_nothing_changes(tmp_path):
    database, app, client, key = table_with_hands(tmp_path, 39)
    broken = tmp_path / "broken.sqlite3"
    backups.take_backup(database, broken)
    data = bytearray(broken.read_bytes())
    page = 4096
    for offset in range(page * 2, len(data), page):  # every page but the schema's: scribbled
        data[offset + 100 : offset + 400] = os.urandom(300)
    broken.write_bytes(bytes(data))
    assert backups.integrity(broken) != "ok"
    hands = stored_hands(database)
    result = app.test_cli_runner().invoke(args=["scorer", "restore", str(broken)])
    assert result.exit_code == 1
    assert "keine unversehrte SQLite-Datenbank" in result.output
    assert stored_hands(database) == hands
    assert not list(tmp_path.glob("*.before-restore-*"))
    not_ours = tmp_path / "other.sqlite3"
    with sqlite3.connect(not_ours) as other:
        other.execute("CREATE TABLE t (x)")
    other.close()
    result = app.test_cli_runner().invoke(args=["scorer", "restore", str(not_ours)])
    assert result.exit_code == 1 and "keine Haferl-Datenbank" in result.output
    with app.app_context():
        db.engine.dispose()


def test_only_the_newest_14_backups_are_kept(tmp_path):
    database = tmp_path / "haferl.sqlite3"
    migrate_fresh(f"sqlite:///{database}")
    folder = tmp_path / "backups"
    folder.mkdir()
    start = datetime(2026, 11, 1, 20, 0, 0)
    old = [folder / backups.backup_name(start + timedelta(days=day)) for day in range(20)]
    for path in old:
        shutil.copyfile(database, path)
    (folder / "mine.sqlite3").write_bytes(b"a copy of one's own")  # not one of ours
    made = backups.automatic_backup(database, folder)
    kept = backups.backups_in(folder)
    assert len(kept) == backups.KEEP == 14
    assert kept[-1] == made and kept[:-1] == old[-13:]
    assert (folder / "mine.sqlite3").exists()
    assert not backups.due(folder)
    assert backups.due(folder, now=time.time() + backups.DAY + 1)


def test_the_keeper_backs_up_when_the_newest_is_a_day_old_and_ends_with_its_parent(tmp_path):
    database = tmp_path / "haferl.sqlite3"
    migrate_fresh(f"sqlite:///{database}")
    folder = tmp_path / "backups"
    folder.mkdir()
    stale = folder / backups.backup_name(datetime(2026, 11, 1))
    shutil.copyfile(database, stale)
    day_old = time.time() - backups.DAY - 60
    os.utime(stale, (day_old, day_old))
    # Its parent is a shell that waits for a line: closing its stdin ends the parent.
    parent = subprocess.Popen(
        [
            "sh",
            "-c",
            f'{sys.executable} -m scorer.store.backups keep --database "{database}"'
            f' --dir "{folder}" --parent $$ --check-every 0.2 & read line; exit 0',
        ],
        stdin=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while len(backups.backups_in(folder)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        found = backups.backups_in(folder)
        assert len(found) == 2 and found[0] == stale
        time.sleep(1)
        assert backups.backups_in(folder) == found  # the new one is not a day old
        keeper = subprocess.run(
            ["pgrep", "-f", f"scorer.store.backups keep --database {database}"],
            capture_output=True,
            text=True,
        ).stdout.split()
        assert len(keeper) == 1
        parent.stdin.close()
        parent.wait(timeout=10)
        deadline = time.monotonic() + 15
        while Path(f"/proc/{keeper[0]}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not Path(f"/proc/{keeper[0]}").exists()  # it ended with its parent
    finally:
        if parent.poll() is None:
            os.killpg(parent.pid, 9)
            parent.wait()


@pytest.mark.parametrize("command", [["backup"], ["restore", "/tmp/x.sqlite3"]])
def test_on_postgresql_both_commands_point_to_pg_dump(command):
    url = os.environ.get("SCORER_TEST_DATABASE_URL") or "postgresql://nobody@127.0.0.1:1/none"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test"})
    result = app.test_cli_runner().invoke(args=["scorer", *command])
    assert result.exit_code == 1
    assert "pg_dump" in result.output and "pg_restore" in result.output
    assert "Sicherungen macht pg_dump" in result.output
