"""A full disk refuses a write with a clear 503 and changes nothing; the PDF cache is a
cache: it keeps within its size (the oldest papers go first) and gives way first when the
disk is full. The database's full disk is real SQLite (`PRAGMA max_page_count`: SQLite says
"database or disk is full" as on a full file system) and, on both databases, a fault put
where the hand is written; the cache's is a fault put where the PDF file is written."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from scorer.reports import printing
from scorer.services import tables as table_service
from scorer.store.database import db
from tests.conftest import dispose, make_app

API = "/api/v1"
TABLE = {"game": "haferltarock", "system": "parlett-units", "players": ["A", "B", "C"]}
FULL = "The server's disk is full: nothing was saved."


def new_table(client) -> str:
    return client.post(f"{API}/sessions", json=TABLE).get_json()["key"]


def hand(n: int) -> dict:
    return {"declarer": "ABC"[n % 3], "contract": "frage", "points": 61 + n % 30}


def state(client, key: str) -> tuple:
    table = client.get(f"{API}/sessions/{key}").get_json()
    return table["hand_count"], table["balances"], [h["hand"] for h in table["hands"]]


def test_a_hand_written_to_a_full_database_is_refused_and_nothing_changes(client, monkeypatch):
    key = new_table(client)
    assert client.post(f"{API}/sessions/{key}/hands", json=hand(0)).status_code == 201
    before = state(client, key)

    def full(*args, **kwargs):
        raise OperationalError(
            "INSERT INTO hand", {}, sqlite3.OperationalError("database or disk is full")
        )

    monkeypatch.setattr(table_service, "write_hand", full)
    headers = {"Idempotency-Key": "k-1"}
    refused = client.post(f"{API}/sessions/{key}/hands", json=hand(1), headers=headers)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    assert FULL in refused.get_json()["error"]["message"]
    page = client.post(
        f"/t/{key}/spiel",
        data={"declarer": "B", "contract": "frage", "points": "70", "points_of": "declarer"},
        headers={"Accept": "application/json", "Idempotency-Key": "k-2"},
    )
    assert page.status_code == 503
    assert "Der Datenträger des Servers ist voll" in page.get_data(as_text=True)
    assert state(client, key) == before
    monkeypatch.undo()  # room again: the device sends the same hand with the same key
    again = client.post(f"{API}/sessions/{key}/hands", json=hand(1), headers=headers)
    assert again.status_code == 201 and again.get_json()["number"] == 2
    assert (
        client.post(f"{API}/sessions/{key}/hands", json=hand(1), headers=headers).status_code == 201
    )
    assert state(client, key)[0] == 2  # stored once


def test_a_really_full_sqlite_file_refuses_the_hand_and_keeps_the_table_whole(tmp_path):
    app = make_app(tmp_path)
    try:
        with app.app_context():
            engine = db.engine
            if engine.dialect.name != "sqlite":
                pytest.skip("SQLite's own page limit; PostgreSQL's is the test above")
        client = app.test_client()
        key = new_table(client)
        with app.app_context():
            pages = db.session.execute(db.text("PRAGMA page_count")).scalar()
            db.engine.dispose()

        def capped(connection, record) -> None:
            connection.execute(f"PRAGMA max_page_count = {pages + 2}")

        event.listen(engine, "connect", capped)
        answers = [
            client.post(f"{API}/sessions/{key}/hands", json=hand(n)).status_code for n in range(400)
        ]
        assert 503 in answers, answers[-5:]
        stored = answers.index(503)
        assert set(answers[:stored]) == {201}
        refused = client.post(f"{API}/sessions/{key}/hands", json=hand(stored))
        assert refused.status_code == 503 and FULL in refused.get_json()["error"]["message"]
        event.remove(engine, "connect", capped)
        with app.app_context():
            db.engine.dispose()
        count, balances, hands = state(client, key)
        assert count == stored == len(hands)
        again = client.post(f"{API}/sessions/{key}/hands", json=hand(stored))
        assert again.status_code == 201 and again.get_json()["number"] == stored + 1
        assert sum(balances.values()) == 0
    finally:
        dispose(app)


def papers(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.glob("*.pdf"))


def test_the_pdf_cache_gives_way_when_the_disk_is_full_and_the_paper_is_still_given(
    app, client, monkeypatch
):
    cache = Path(app.config["PDF_CACHE"])
    first, second = new_table(client), new_table(client)
    assert client.get(f"{API}/sessions/{first}/export.pdf").status_code == 200
    assert len(papers(cache)) == 1
    real = Path.write_bytes
    full_once = []

    def write(path: Path, data: bytes) -> int:
        if path.name.endswith(".part") and not full_once:
            full_once.append(path.name)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(Path, "write_bytes", write)
    answer = client.get(f"{API}/sessions/{second}/export.pdf")
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
    assert full_once  # the disk was full once: the other paper gave way, this one is kept
    assert papers(cache) == [p for p in papers(cache) if second in p] and len(papers(cache)) == 1
    assert not list(cache.glob("*.part"))


def test_a_paper_that_finds_no_room_at_all_is_given_without_being_kept(app, client, monkeypatch):
    cache = Path(app.config["PDF_CACHE"])
    key = new_table(client)

    def full(path: Path, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    answer = client.get(f"{API}/sessions/{key}/export.pdf")
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
    assert papers(cache) == [] and not list(cache.glob("*.part"))


def test_the_pdf_cache_keeps_within_its_size_the_oldest_going_first(tmp_path):
    app = make_app(tmp_path, PDF_CACHE_BYTES=1)
    try:
        client = app.test_client()
        cache = Path(app.config["PDF_CACHE"])
        for key in [new_table(client) for _ in range(3)]:
            assert client.get(f"{API}/sessions/{key}/export.pdf").status_code == 200
            assert len(papers(cache)) == 1 and key in papers(cache)[0]  # the newest only
    finally:
        dispose(app)
    folder = tmp_path / "cache"
    folder.mkdir()
    for age, name in enumerate(["c", "a", "b"]):  # c oldest, then a, then b
        paper = folder / f"{name}.pdf"
        paper.write_bytes(b"x" * 100)
        os.utime(paper, (1_000_000 + age, 1_000_000 + age))
    printing._make_room(folder, 250)
    assert papers(folder) == ["a.pdf", "b.pdf"]
    printing._make_room(folder, 100)
    assert papers(folder) == ["b.pdf"]
