"""A table's write queue (`scorer.store.table_queue`) from the inside: a table stored
without a request, its lock held by another program, writes queued in a known order."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
from sqlalchemy import select

from scorer.domain import commands
from scorer.services.tables import create_session
from scorer.store import table_queue
from scorer.store.database import db
from scorer.store.models import TableSession

PLAYERS = ["Anton", "Berta", "Charlotte"]


def new_table(app) -> str:
    """A table of three at Tarok stored by the service (no request); its key."""
    with app.app_context():
        session = create_session(
            commands.open_table(
                name="",
                game="tarok",
                system="points-kasse",
                params=None,
                players=PLAYERS,
                first_dealer=None,
            )
        )
        db.session.commit()
        return session.key


@contextlib.contextmanager
def table_locked_elsewhere(app, key: str) -> Iterator[None]:
    """Hold the table's lock from a connection of another program, until the block ends."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite"):
        other = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            yield
        finally:
            other.rollback()
            other.close()
    else:
        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as held:
            held.execute("SELECT id FROM table_session WHERE key = %s FOR UPDATE", [key])
            yield
            held.rollback()


def queue_in_order(
    app, key: str, writes: list[Callable]
) -> tuple[list[threading.Thread], list[Any]]:
    """Start one thread per write, each after the one before is queued; the first leads.
    Returns the threads and each write's result or exception (filled in as the threads
    end), in the same order."""
    outcomes: list[Any] = [None] * len(writes)

    def run(index: int) -> None:
        with app.app_context():
            try:
                outcomes[index] = table_queue.write_table(key, writes[index])
            except Exception as exc:  # noqa: BLE001 (the outcome under test)
                outcomes[index] = exc
            else:  # answered only once committed: a read of its own already sees the hand
                stored = db.session.scalar(
                    select(TableSession.hand_count).where(TableSession.key == key)
                )
                if stored < outcomes[index]:
                    outcomes[index] = AssertionError(f"answered before committed: {stored}")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(writes))]
    for index, thread in enumerate(threads):
        thread.start()
        waiting = (lambda: key in table_queue._queued) if index == 0 else None
        expected = index
        until(waiting or (lambda n=expected: len(table_queue._queued.get(key, ())) == n))
    return threads, outcomes


def until(condition: Callable[[], bool]) -> None:
    """Wait (up to 10 s) until `condition()` holds."""
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "the write never queued"
        time.sleep(0.005)
