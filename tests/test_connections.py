"""Pooled connections: pinged after sitting idle, used straight away when busy, and a
connection that died while idle never reaches a request."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from scorer.store import connections
from scorer.store.database import db

from .conftest import dispose, make_app


def counting_pings(monkeypatch, engine) -> list[int]:
    pings: list[int] = []
    ping = engine.dialect.do_ping

    def counted(dbapi_connection):
        pings.append(1)
        return ping(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return pings


def test_a_connection_in_use_a_moment_ago_is_not_pinged_one_idle_long_enough_is(app, monkeypatch):
    with app.app_context():
        pings = counting_pings(monkeypatch, db.engine)
        for _ in range(3):
            with db.engine.connect() as connection:
                assert connection.scalar(text("SELECT 1")) == 1
        assert pings == []  # the first is new, the others were given back just now
        monkeypatch.setattr(connections, "IDLE_PING_SECONDS", 0.0)
        with db.engine.connect() as connection:
            assert connection.scalar(text("SELECT 2")) == 2
        assert pings == [1]


@pytest.fixture
def pg_app(tmp_path):
    app = make_app(tmp_path)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        dispose(app)
        pytest.skip("a server-side kill needs PostgreSQL")
    yield app
    dispose(app)


def kill_idle_connections(app) -> int:
    """End every other backend of this database, from a connection outside the pool."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    with engine.connect() as killer:
        pid = killer.scalar(text("SELECT pg_backend_pid()"))
        return len(
            killer.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> :me"
                ),
                {"me": pid},
            ).all()
        )


@pytest.mark.parametrize("idle_long_enough", [True, False])
def test_a_connection_killed_while_idle_is_replaced_once_it_was_idle_long_enough(
    pg_app, monkeypatch, idle_long_enough
):
    client = pg_app.test_client()
    players = ["Anton", "Berta", "Charlotte"]
    answer = client.post(
        "/api/v1/sessions", json={"game": "tarok", "system": "points-kasse", "players": players}
    )
    key = answer.get_json()["key"]
    with pg_app.app_context():
        db.engine.pool.dispose()
        with db.engine.connect() as connection:  # one pooled connection, idle from now
            connection.scalar(text("SELECT 1"))
    assert kill_idle_connections(pg_app) >= 1
    idle = 0.0 if idle_long_enough else 3600.0
    monkeypatch.setattr(connections, "IDLE_PING_SECONDS", idle)
    hand = {"declarer": "Anton", "contract": "frage", "trump": "gras", "points": 70}
    if idle_long_enough:
        assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
        assert client.get(f"/api/v1/sessions/{key}").get_json()["hand_count"] == 1
    else:  # what the ping is for: used unchecked, the dead connection fails the request
        with pytest.raises(Exception, match="terminat|closed|connection"):
            client.post(f"/api/v1/sessions/{key}/hands", json=hand)
