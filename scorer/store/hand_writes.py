"""The rows recording a hand writes while its table is locked, as statements built once.

Recording a hand is the write a busy table repeats, and while it runs every other tablet
at that table waits for the lock. So its three rows (the hand, the table's cached state
and version, the history line) are written by plain INSERT/UPDATE statements with bound
parameters, built and compiled once per process: the ORM's unit of work took a third of
the time the lock was held, and building a statement afresh costs its compilation each
time. PostgreSQL gets the three as one statement, the first two as data-modifying CTEs of
the last: one round trip instead of three. SQLite, in the same process and without such
CTEs, runs them one after another. None of the three reads a row another one writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from sqlalchemy import Connection, Table, bindparam, insert, update
from sqlalchemy.sql.dml import UpdateBase

from scorer.store.locks import sqlite
from scorer.store.models import HandRecord, HistoryEvent, TableSession

TABLE_COLUMNS = ("state", "hand_count", "declarer_tally", "version", "updated_at")
"""What recording a hand changes in the table's row."""
EVENT_COLUMNS = ("session_id", "hand_number", "action", "data", "at")


def write_hand(
    connection: Connection,
    hand: Mapping[str, Any],
    table_id: int,
    *,
    table: Mapping[str, Any],
    event: Mapping[str, Any],
) -> None:
    """Insert the `hand` row (every column but its id), set the `TABLE_COLUMNS` of table
    `table_id`, and insert the history line `event` (its `EVENT_COLUMNS`)."""
    params = {
        **_prefixed("hand", hand),
        **_prefixed("table", table),
        **_prefixed("event", event),
        "table_id": table_id,
    }
    for statement in _statements(together=not sqlite()):
        connection.execute(statement, params)


@cache
def _statements(together: bool) -> tuple[UpdateBase, ...]:
    hands = HandRecord.__table__
    tables = TableSession.__table__
    events = HistoryEvent.__table__
    new_hand = insert(hands).values(
        _bound("hand", hands, (column.name for column in hands.c if not column.primary_key))
    )
    table_row = (
        update(tables)
        .where(tables.c.id == bindparam("table_id"))
        .values(_bound("table", tables, TABLE_COLUMNS))
    )
    history_line = insert(events).values(_bound("event", events, EVENT_COLUMNS))
    if not together:
        return new_hand, table_row, history_line
    return (history_line.add_cte(new_hand.cte("new_hand")).add_cte(table_row.cte("table_row")),)


def _bound(prefix: str, table: Table, names: Iterable[str]) -> dict[str, Any]:
    return {name: bindparam(f"{prefix}_{name}", type_=table.c[name].type) for name in names}


def _prefixed(prefix: str, values: Mapping[str, Any]) -> dict[str, Any]:
    return {f"{prefix}_{name}": value for name, value in values.items()}
