"""A table (an evening) found by its key: for reading, or locked for a write.

Every write to a table starts with `session_for_write`, which holds the table's lock (and
its round's or its group's where a write needs it) until the request commits; see
`scorer.store.locks` for the order every writer keeps."""

from __future__ import annotations

import re
import secrets
from typing import cast

from sqlalchemy import bindparam, select

from scorer.domain.limits import MAX_EVENING_HANDS
from scorer.domain.message import msg
from scorer.store.database import db
from scorer.store.errors import NotFound
from scorer.store.locks import begin_write, lock_more, sqlite
from scorer.store.models import Group, TableSession, TournamentRound, TournamentTable


def new_key() -> str:
    """An unguessable session key: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a key made by `new_key` looks like; anything else is no key at all."""


def get_session(key: str) -> TableSession:
    session = None
    if KEY_SHAPE.fullmatch(key):
        session = db.session.scalar(select(TableSession).where(TableSession.key == key))
    if session is None:
        raise NotFound(msg("no table with this key"))
    return session


_LOCK_BY_KEY = (
    select(TableSession, TournamentTable.round_id)
    .outerjoin(TournamentTable, TournamentTable.session_id == TableSession.id)
    .where(TableSession.key == bindparam("key"))
    .with_for_update(of=TableSession, key_share=True)
    .execution_options(populate_existing=True)
)
"""PostgreSQL: lock the table with this key and say whether it belongs to a round
(built once: every write to a table starts here)."""


def session_for_write(key: str, writes: int = 1) -> TableSession:
    """The session named by `key`, locked for this transaction (see `scorer.store.locks`), for
    `writes` writes in this transaction.

    A tournament's round closes when its last table is done, and whoever may close it holds
    the round's lock, taken before the table's (the order every writer keeps). Only a write
    that may finish its table needs it: when the table is `writes` hands or fewer from done
    (or done). The other writes at the round's tables lock their own table only, so fifty
    tables do not queue on one round (`writes_before_done` says how many may go together).

    On PostgreSQL one statement locks the table and says whether it belongs to a round;
    only then (rarely) is the lock given back and taken again in the round's order."""
    if not KEY_SHAPE.fullmatch(key):
        raise NotFound(msg("no table with this key"))
    begin_write()
    if sqlite():  # one writer at a time already excludes everyone else
        found = lock_more(TableSession, TableSession.key == key)
    else:
        row = db.session.execute(_LOCK_BY_KEY, {"key": key}).first()
        found, round_id = row if row is not None else (None, None)
        # A round's id comes only with a found row, and so with its table.
        if round_id is not None and writes_before_done(cast(TableSession, found)) < writes:
            begin_write()
            lock_more(TournamentRound, TournamentRound.id == round_id)
            found = lock_more(TableSession, TableSession.key == key)
    if found is None:
        raise NotFound(msg("no table with this key"))
    if found.group_id is not None and not sqlite():
        # A Stammtisch evening: its group first, as every writer of the group does.
        begin_write()
        lock_more(Group, Group.id == found.group_id)
        found = lock_more(TableSession, TableSession.key == key)
        if found is None:
            raise NotFound(msg("no table with this key"))
    return found


def writes_before_done(session: TableSession) -> int:
    """How many writes may go in one transaction that cannot finish the table: one fewer
    than the hands it still lacks (each write adds a hand at most); any number at a table
    without planned hands, none at a table that is done."""
    if session.hands_planned is None:
        return MAX_EVENING_HANDS
    return max(session.hands_planned - session.live_hands - 1, 0)


def lock_round(round_: TournamentRound) -> None:
    """Lock the round, then its tables' sessions in id order: the order every writer
    takes them in (a tablet's write locks its round before its table)."""
    lock_more(TournamentRound, TournamentRound.id == round_.id)
    db.session.scalars(
        select(TableSession)
        .join(TournamentTable, TournamentTable.session_id == TableSession.id)
        .where(TournamentTable.round_id == round_.id)
        .order_by(TableSession.id)
        .with_for_update(of=TableSession, key_share=True)
        .execution_options(populate_existing=True)
    ).all()
