"""Serialized writes: whatever changes a table, a tournament or the first sign-up happens
one transaction after another, and reads what it checks only after it holds the lock.

SQLite has one writer at a time: `BEGIN IMMEDIATE` takes the database's write lock before
the first read (a second writer waits up to the busy timeout). Threads of one process
first queue on a lock of their own: SQLite's busy handler polls in sleeps of up to 100 ms,
and twenty tablets waiting that way would wait far longer than the writes take. The
queue is released when the transaction ends (`_release_writer`). PostgreSQL locks the row
with `SELECT … FOR NO KEY UPDATE` (or a transaction-scoped advisory lock for a named
thing); READ COMMITTED then lets every later statement see what the previous holder
committed. NO KEY UPDATE excludes every other writer of the row, but not a row inserted
elsewhere that refers to it (its foreign key check takes KEY SHARE): a tablet that holds
its table may add a line to its tournament's log while the organiser holds the tournament
and waits for that table, which with FOR UPDATE was a deadlock.

Locks are always taken in one order, so two writers never wait for each other in a
circle: tournament → round → the round's table sessions (by id), and Stammtisch → evening.
A write that may finish a tournament table therefore locks its round before its table;
the other writes at that table lock the table alone and never take the round's lock
(`scorer.store.table_rows.session_for_write`).
"""

from __future__ import annotations

import threading
import zlib
from typing import Any, TypeVar

from sqlalchemy import event, select, text
from sqlalchemy.engine import Engine

from scorer.store.busy import Busy
from scorer.store.database import db

Model = TypeVar("Model")


def sqlite() -> bool:
    return db.engine.dialect.name == "sqlite"


WRITER_WAIT = 20.0
"""Seconds a write waits for its turn, as long as SQLite's busy timeout."""

_writer = threading.Lock()
_this_thread = threading.local()


def begin_write() -> None:
    """End whatever the request read so far and open a write transaction. On SQLite that
    holds the database's write lock until commit or rollback."""
    db.session.rollback()
    if not sqlite():
        return
    if not _writer.acquire(timeout=WRITER_WAIT):
        raise Busy("the database is busy: try again")
    _this_thread.writing = True
    try:
        db.session.execute(text("BEGIN IMMEDIATE"))
    except BaseException:
        release_writer()
        raise


def release_writer() -> None:
    """Let the next of this process's writers go (when this thread holds the turn)."""
    if getattr(_this_thread, "writing", False):
        _this_thread.writing = False
        _writer.release()


def release_at_the_end(engine: Engine) -> None:
    """A transaction of `engine` that ends (commit or rollback) lets the next writer go
    (`create_app` calls it for the app's engine)."""
    event.listen(engine, "commit", _release_writer)
    event.listen(engine, "rollback", _release_writer)


def _release_writer(connection: Any) -> None:
    release_writer()


def lock_one(model: type[Model], *where: Any) -> Model | None:
    """Begin a write and lock the row of `model` matching `where`, read fresh."""
    begin_write()
    return lock_more(model, *where)


def lock_more(model: type[Model], *where: Any) -> Model | None:
    """Inside a write already begun: lock one more row (freshly read, not from the
    session's identity map)."""
    statement = (
        select(model)
        .where(*where)
        .with_for_update(key_share=True)
        .execution_options(populate_existing=True)
    )
    return db.session.scalar(statement)


def lock_name(name: str) -> None:
    """Begin a write that excludes every other writer of `name` (the first sign-up, say):
    SQLite's write lock does that already; PostgreSQL takes an advisory lock that ends
    with the transaction."""
    begin_write()
    if not sqlite():
        db.session.execute(
            text("SELECT pg_advisory_xact_lock(:id)"), {"id": zlib.crc32(name.encode())}
        )
