"""Writes sent to one table at the same moment are done in one transaction (group commit).

When many tablets post to one table at once, each waits for the table's lock, and each
holder spends most of its turn on taking the lock and committing rather than on its hand.
So the writes a server process receives for one table queue here. The first takes the
table's lock (`table_rows.session_for_write`); once it holds it, it does every write that
queued meanwhile too, in the order they came, and commits them together. Each request
then answers with its own result. The next write to arrive after that leads the next turn.

A write that raises (a hand refused, say) must change nothing and hold up nobody: the
transaction is rolled back, the refused write gets its error, and the others are done
again in a fresh transaction, on what is stored. A write is a function of the locked
table, so doing it again gives what it would have given the first time. When the batch
itself fails (the commit, the database), nothing of it is stored and each write that
came with the leader's is answered 503, to be sent again. Whatever the leader meets,
every queued write gets an answer, and a result only once it is committed.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from scorer.store import table_rows
from scorer.store.busy import Busy
from scorer.store.database import db, held_open
from scorer.store.locks import WRITER_WAIT
from scorer.store.models import TableSession

Result = TypeVar("Result")
Write = Callable[[TableSession], Result]


@dataclass(eq=False)
class _Turn(Generic[Result]):
    write: Write[Result]
    answered: threading.Event = field(default_factory=threading.Event)
    leads: bool = False
    result: Result | None = None
    error: BaseException | None = None
    committed: bool = False

    def answer(self) -> Result:
        if self.error is not None:
            raise self.error
        if not self.committed:  # never expected: a result is only kept once committed
            raise Busy("the write was not done: try again")
        return self.result  # type: ignore[return-value]


_guard = threading.Lock()
_queued: dict[str, list[_Turn]] = {}
"""For each table whose writes are being done in this process: the writes waiting for the
next turn. A table is here exactly while some thread leads its writes."""


def write_table(key: str, write: Write[Result]) -> Result:
    """`write(table)` on the table with `key`, locked, and committed; its result, or the
    exception it raised (then nothing it did is kept)."""
    turn: _Turn[Result] = _Turn(write)
    db.session.rollback()  # wait for the turn without a transaction or a connection
    with _guard:
        waiting = _queued.get(key)
        if waiting is None:
            _queued[key] = []
            turn.leads = True
        else:
            waiting.append(turn)
    if not turn.leads:
        _wait(key, turn)
        if not turn.leads:
            return turn.answer()
    _lead(key, turn)
    return turn.answer()


def _wait(key: str, turn: _Turn) -> None:
    """Until `turn` is answered or called to lead; a turn no leader took in time gives up."""
    if turn.answered.wait(WRITER_WAIT):
        return
    with _guard:
        waiting = _queued.get(key, [])
        if turn in waiting:
            waiting.remove(turn)
            raise Busy("the table is busy: try again")
    turn.answered.wait()  # taken by a leader at work: it answers


def _lead(key: str, first: _Turn) -> None:
    """Lock the table, do `first` and every write queued by then, commit, answer them all,
    and call the next waiting write (if any) to lead."""
    turns = [first]
    try:
        table = table_rows.session_for_write(key)
        with _guard:
            # No more than can leave the table short of done (at a round's table this
            # lock does not hold the round's, which finishing the table needs).
            room = max(table_rows.writes_before_done(table) - 1, 0)
            waiting = _queued[key]
            turns += waiting[:room]
            _queued[key] = waiting[room:]
        with held_open():  # the batch is one transaction, committed here
            _write_all(key, table, turns)
    except BaseException as exc:
        # Nothing of the batch is stored. A refusal was judged on the writes before it,
        # which are gone now too: every write that came with the leader's is told to try
        # again, with an exception of its own; the leader's request meets what happened.
        for turn in turns:
            if not turn.committed:
                turn.error = exc if turn is first else _not_done(exc)
        with contextlib.suppress(Exception):
            db.session.rollback()
        if not isinstance(exc, Exception):
            raise
    finally:
        for turn in turns:
            if turn is not first:
                turn.answered.set()
        _hand_on(key)


def _write_all(key: str, table: TableSession, turns: list[_Turn]) -> None:
    todo = list(turns)
    while todo:
        for turn in todo:
            try:
                turn.result = turn.write(table)
            except Exception as exc:
                db.session.rollback()
                turn.error, turn.result = exc, None
                todo.remove(turn)
                break
        else:
            db.session.commit()
            for turn in todo:
                turn.committed = True
            return
        if todo:
            table = table_rows.session_for_write(key, writes=len(todo))


def _not_done(cause: BaseException) -> Busy:
    busy = Busy("the table could not be written: try again")
    busy.__cause__ = cause
    return busy


def _hand_on(key: str) -> None:
    with _guard:
        waiting = _queued[key]
        if not waiting:
            del _queued[key]
            return
        nxt = waiting.pop(0)
    nxt.leads = True
    nxt.answered.set()
