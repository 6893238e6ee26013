"""Races between two real server processes (`python -m scorer.serve`, as `make run` starts
it) on one database, for tests/test_concurrency*.py: the fixtures (the database, the two
servers, an app that looks at what was stored; a plugin registered in tests/conftest.py),
calls run at the same moment, and the writes raced. SQLite by default; PostgreSQL when
SCORER_TEST_DATABASE_URL names one."""

from __future__ import annotations

import base64
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection
from typing import Any

import pytest
from sqlalchemy import delete, func, select

from scorer import create_app
from scorer.services.table_reads import fold_session, ledger_for
from scorer.store.database import db
from scorer.store.models import (
    CharityGift,
    HandRecord,
    Organiser,
    Series,
    Tournament,
    TournamentAdjustment,
    TournamentLog,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
)
from scorer.store.table_rows import get_session
from tests.support.servers import call, empty, migrate_fresh, start_server

PLAYERS = ["Anton", "Berta", "Charlotte"]
SETUP_CODE = "race-setup-code"
"""The first sign-up's code on the raced servers."""


def frage(declarer: str, points: int) -> dict[str, Any]:
    """A Frage (Gras) of `declarer` with `points`, as the API takes it."""
    return {"declarer": declarer, "contract": "frage", "trump": "gras", "points": points}


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """The module's database, migrated to head (emptied afterwards): a SQLite file, or the
    PostgreSQL database SCORER_TEST_DATABASE_URL names."""
    url = os.environ.get("SCORER_TEST_DATABASE_URL") or (
        f"sqlite:///{tmp_path_factory.mktemp('race') / 'race.sqlite3'}"
    )
    migrate_fresh(url)
    yield url
    empty(url)


@pytest.fixture(scope="module")
def servers(database, tmp_path_factory):
    """Two server processes on the one database (two workers each on PostgreSQL)."""
    logs = tmp_path_factory.mktemp("logs")
    workers = None if database.startswith("sqlite") else 2
    env = {"SCORER_SETUP_CODE": SETUP_CODE, "SCORER_WTF_CSRF_ENABLED": "false"}
    started = [start_server(database, logs / f"server{i}.log", workers, **env) for i in (1, 2)]
    yield [s.port for s in started]
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def checker(database):
    """An app on the same database, for looking at what was stored."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "test"})
    yield app
    with app.app_context():
        db.engine.dispose()


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at the same moment, one thread each; their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(fn):
        barrier.wait()
        return fn()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def new_table(port: int, players=PLAYERS, **extra) -> str:
    """A table of `players` at Tarok made on the server at `port`; its key."""
    status, body = call(
        port,
        "POST",
        "/api/v1/sessions",
        {"game": "tarok", "system": "points-kasse", "players": players, **extra},
    )
    assert status == 201, body
    return body["key"]


def assert_cache_is_the_fold(checker, key: str) -> list[HandRecord]:
    """The stored balances, pot and every hand's cached result equal a fresh fold of the
    stored hands; returns the live hands."""
    with checker.app_context():
        session = get_session(key)
        entries, state = fold_session(session)
        # A change of players after the last hand is part of the state for the next one.
        state = ledger_for(session).ready(state, session.hand_count + 1)
        assert session.state == state.to_json()
        records = list(
            db.session.scalars(
                select(HandRecord)
                .where(HandRecord.session_id == session.id, HandRecord.voided.is_(False))
                .order_by(HandRecord.number)
            )
        )
        assert [r.number for r in records] == [e.number for e in entries]
        for record, entry in zip(records, entries, strict=True):
            assert record.net == entry.net, record.number
            assert record.pot_after == entry.pot_after, record.number
        assert session.hand_count == db.session.scalar(
            select(func.count()).where(HandRecord.session_id == session.id)
        )
        db.session.remove()
        return records


def organiser_headers(email: str, password: str) -> dict[str, str]:
    """The HTTP Basic header of an organiser."""
    token = base64.b64encode(f"{email}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def clear_organisers(checker) -> None:
    """Every organiser, series and tournament removed: the next sign-up is the first again."""
    with checker.app_context():
        for model in (
            CharityGift,
            TournamentLog,
            TournamentAdjustment,
            TournamentTable,
            TournamentRound,
            TournamentPlayer,
            Tournament,
            Series,
            Organiser,
        ):
            db.session.execute(delete(model))
        db.session.commit()
        db.session.remove()


def sign_up(port: int, email: str) -> int:
    """The sign-up form sent (with the setup code) to the server at `port`; its status."""
    form = (
        f"setup_code={SETUP_CODE}&name=Orga&email={email}&password=geheim123&confirm=geheim123"
    ).encode()
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(
            "POST",
            "/veranstalter/registrieren",
            body=form,
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def new_group(port: int) -> str:
    """A group of six at Haferltarock made on the server at `port`; its key."""
    status, body = call(
        port,
        "POST",
        "/api/v1/groups",
        {
            "game": "haferltarock",
            "system": "parlett-units",
            "params": {"stake_cents": 50},
            "members": [*PLAYERS, "Dieter", "Emil", "Franzi"],
        },
    )
    assert status == 201, body
    return body["key"]
