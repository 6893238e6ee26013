"""How the app's engine treats its connections: SQLite's settings on each new one
(`sqlite_pragmas`), and pooled connections checked before use only when they may have gone
stale (`ping_after_idle`); `prepare` does both, on the app's engine only.

A connection that sat idle in the pool can be dead: the database restarted, a proxy or a
firewall dropped it. SQLAlchemy's `pool_pre_ping` finds out by a round trip on every
checkout, which on a busy table is one round trip in five of recording a hand. Here a
connection is pinged only when it has been idle for `IDLE_PING_SECONDS`; one given back
less than that ago has just answered, so it is used as it is (HikariCP, the Java pool,
skips its check the same way, within 500 ms). A dead connection is thrown away and the
pool opens fresh ones, as with `pool_pre_ping`. A connection that died less than a
second after its last use still fails the one request that meets it.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import InvalidatePoolError

IDLE_PING_SECONDS = 1.0
"""A connection idle in the pool for this long is pinged before it is used again."""


def prepare(engine: Engine) -> None:
    """Everything the app's engine needs of its connections (`create_app` calls it)."""
    event.listen(engine, "connect", sqlite_pragmas)
    ping_after_idle(engine)


def sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """SQLite: write-ahead log and normal sync (a committed hand survives a crash of the
    app; only a power cut can lose the last commit), enforced foreign keys, and a writer
    that waits up to 20 s for another's `BEGIN IMMEDIATE` instead of failing."""
    if type(dbapi_connection).__module__ != "sqlite3":
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=20000")
    cursor.close()


def ping_after_idle(engine: Engine) -> None:
    """Check `engine`'s connections on checkout when they were idle long enough."""
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def _idle_from_now(dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_when_idle(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since < IDLE_PING_SECONDS:
            return  # new, or in use a moment ago
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as exc:
            # As pool_pre_ping does: the database went away, so do all connections idle with
            # this one; the pool opens fresh ones.
            raise InvalidatePoolError("the connection was closed while it was idle") from exc
