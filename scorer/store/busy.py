"""`Busy`: what the server cannot do right now but will in a moment (the database or a
table stayed locked, the disk is full; the printer's own refusal is
`scorer.reports.refusals.PrinterBusy`). Pages and the API answer it with 503 and
`Retry-After`."""

from __future__ import annotations

import errno
import sqlite3

SQLSTATE_DISK_FULL = "53100"
"""PostgreSQL's `disk_full`."""


class Busy(Exception):
    """Try again in a few seconds."""


class DiskFull(Busy):
    """The server's disk is full: nothing was written (the transaction rolled back); the
    device keeps what it sent and sends it again."""


def is_disk_full(exc: BaseException | None) -> bool:
    """Whether `exc`, or an error it wraps, says the disk is full: ENOSPC or EDQUOT from a
    file, SQLite's SQLITE_FULL, PostgreSQL's disk_full (SQLAlchemy's errors wrap the
    driver's as `orig`)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
            return True
        if isinstance(exc, sqlite3.OperationalError) and "database or disk is full" in str(exc):
            return True
        if getattr(exc, "sqlstate", None) == SQLSTATE_DISK_FULL:
            return True
        exc = getattr(exc, "orig", None) or exc.__cause__ or exc.__context__
    return False
