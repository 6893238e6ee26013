"""Backups of the SQLite database: taking one while the server runs, putting one back.

    flask --app wsgi scorer backup [PATH]     # a consistent copy, also while serving
    flask --app wsgi scorer restore PATH      # puts one back; refused while a server runs

A copy is taken with SQLite's online backup API in one step (`Connection.backup` with
all pages at once): it reads one snapshot of the database inside a read transaction, so a
hand being written meanwhile is either wholly in it or not at all, and in WAL mode the
server's writers never wait for it. The copy is written to a `.part` file, switched to a
plain rollback journal (a lone file, no `-wal` beside it), checked with
`PRAGMA integrity_check`, synced and then renamed into place.

Backups go into a folder `backups` beside the database (`instance/backups/` for the
default `instance/haferl.sqlite3`; `SCORER_BACKUP_DIR` moves it), named
`haferl-YYYYmmdd-HHMMSS.sqlite3`. `make run` (scorer/serve.py) takes one before a
migration that has something to do, and a small keeper process started beside gunicorn
takes one whenever the newest is a day old (so also at every start after a day off); the
newest 14 are kept.

"A server runs on the database" is an advisory lock: `scorer.serve` holds a shared
`flock` on `<database>.lock` from before it migrates until gunicorn's arbiter and all its
workers have exited (the descriptor is inherited across `exec` and `fork`; the kernel
drops the lock when the last one closes, also after a crash or `kill -9`). `restore`
takes the same lock exclusively and without waiting: while any server holds it, the
restore is refused. A server started some other way (`flask run`, a hand-made gunicorn
command) holds no lock; stop it before restoring.

PostgreSQL has its own tools: both commands say to use `pg_dump` / `pg_restore` and exit
with status 1.

Nothing here imports Flask: the commands are `scorer.cli`'s, which says the refusals
(`BackupError.message`, as data) in the machine's language; the keeper runs as
`python -m scorer.store.backups keep …`, stays small and logs in English.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from scorer.domain.message import Msg, msg

NAME = "haferl-%Y%m%d-%H%M%S.sqlite3"
GLOB = "haferl-????????-??????.sqlite3"
KEEP = 14
"""Automatic backups kept per folder (the newest ones)."""
DAY = 24 * 3600
CHECK_EVERY = 600
"""How often (seconds) the keeper looks whether the newest backup is a day old."""

POSTGRES = msg(
    'PostgreSQL: back up with pg_dump and restore with pg_restore (see README, "Backups").'
)


class BackupError(Exception):
    """A backup or restore that did not happen; its `message` says why and what to do (as
    data: the command line says it in the machine's language, a log in English)."""

    def __init__(self, message: Msg):
        super().__init__(message)
        self.message = message


# --- where ------------------------------------------------------------------------------


def sqlite_file(url: Any) -> Path | None:
    """The file of a SQLite database URL (a string or SQLAlchemy's URL); None for
    another database or an in-memory one."""
    from sqlalchemy.engine import make_url

    parsed = make_url(str(url) if not hasattr(url, "drivername") else url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).resolve()


def backup_dir(database: Path, configured: str | os.PathLike | None = None) -> Path:
    """`configured` (SCORER_BACKUP_DIR), else the folder `backups` beside the database."""
    return Path(configured) if configured else database.parent / "backups"


def backup_name(now: datetime | None = None) -> str:
    return (now or datetime.now()).strftime(NAME)


def backups_in(directory: Path) -> list[Path]:
    """The backups of a folder, oldest first (their names sort by time)."""
    return sorted(directory.glob(GLOB)) if directory.is_dir() else []


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


# --- taking and checking ----------------------------------------------------------------


def integrity(path: Path) -> str:
    """`PRAGMA integrity_check` of a database file: "ok", or what it found (also when the
    file is no SQLite database at all)."""
    if not path.is_file():
        return "no such file"
    try:
        with contextlib.closing(sqlite3.connect(path)) as db:
            # What it found may quote the broken bytes, which need not be UTF-8.
            db.text_factory = lambda raw: raw.decode("utf-8", "replace")
            rows = db.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    except UnicodeDecodeError:  # SQLite's own message quoted the broken bytes
        return "damaged, and SQLite's report of it is unreadable"
    return "; ".join(str(row[0]) for row in rows[:5])


def take_backup(database: Path, target: Path) -> Path:
    """A consistent copy of `database` at `target` (see the module's docstring)."""
    if not database.is_file():
        raise BackupError(msg("No database at %(path)s.", path=str(database)))
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    part.unlink(missing_ok=True)
    try:
        source = sqlite3.connect(database, timeout=30)
        try:
            copy = sqlite3.connect(part)
            try:
                source.backup(copy, pages=-1)
                copy.execute("PRAGMA journal_mode=DELETE")
                copy.commit()
            finally:
                copy.close()
        finally:
            source.close()
        found = integrity(part)
        if found != "ok":
            raise BackupError(
                msg(
                    "The backup failed its integrity check (%(found)s); nothing was saved.",
                    found=found,
                )
            )
        with open(part, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(part, target)
    except sqlite3.Error as exc:
        raise BackupError(msg("The backup failed: %(reason)s", reason=str(exc))) from exc
    finally:
        part.unlink(missing_ok=True)
    return target


def prune(directory: Path, keep: int = KEEP) -> list[Path]:
    """Delete all but the newest `keep` backups of a folder; returns those deleted."""
    gone = backups_in(directory)[:-keep] if keep > 0 else backups_in(directory)
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def automatic_backup(database: Path, directory: Path, now: datetime | None = None) -> Path:
    """A backup into `directory` under the usual name, then only the newest 14 kept."""
    target = directory / backup_name(now)
    while target.exists():  # two in one second: the next second's name
        time.sleep(0.2)
        target = directory / backup_name()
    take_backup(database, target)
    prune(directory)
    return target


def due(directory: Path, now: float | None = None) -> bool:
    """Whether the newest backup of a folder is a day old (or there is none)."""
    existing = backups_in(directory)
    if not existing:
        return True
    return (now or time.time()) - existing[-1].stat().st_mtime >= DAY


# --- the server's lock and restoring ----------------------------------------------------


def hold_serving_lock(database: Path, waiting: Callable[[], None] = lambda: None) -> int:
    """The server's shared lock on `<database>.lock`: an inheritable descriptor (kept
    open across `exec` into gunicorn and in its forked workers). Waits while a restore
    holds the lock exclusively (after calling `waiting`, which tells the person)."""
    fd = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        waiting()
        fcntl.flock(fd, fcntl.LOCK_SH)
    os.set_inheritable(fd, True)
    return fd


@contextlib.contextmanager
def nobody_serving(database: Path) -> Iterator[None]:
    """Hold `<database>.lock` exclusively, or refuse (BackupError) while a server holds it."""
    fd = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(
                msg(
                    "A server is still running on this database: stop it first (Ctrl+C in "
                    "the window of make run), then restore. Nothing was changed."
                )
            ) from None
        yield
    finally:
        os.close(fd)


def restore(database: Path, backup: Path, now: datetime | None = None) -> Path | None:
    """Put `backup` in the place of `database`: refused while a server holds the lock or
    when the backup fails `PRAGMA integrity_check`; the current database is kept beside
    it as `<name>.before-restore-YYYYmmdd-HHMMSS` (returned; None when there was none)."""
    backup = Path(backup).resolve()
    if backup == database:
        raise BackupError(msg("That is the database itself, not a backup."))
    with nobody_serving(database):
        check_backup(backup)
        part = database.with_name(database.name + ".restore.part")
        take_backup(backup, part)  # a fresh, checked copy; the backup itself stays as it is
        try:
            aside = set_aside(database, "before-restore", now)
        except BaseException:
            part.unlink(missing_ok=True)
            raise
        os.replace(part, database)
    return aside


def check_backup(backup: Path) -> None:
    """Refuse (BackupError) a file that fails `PRAGMA integrity_check` or is no Haferl
    database."""
    found = integrity(backup)
    if found != "ok":
        raise BackupError(
            msg(
                "%(path)s is not a sound SQLite database (%(found)s); nothing was changed.",
                path=str(backup),
                found=found,
            )
        )
    with contextlib.closing(sqlite3.connect(backup)) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    if not {"alembic_version", "table_session", "hand"} <= tables:
        raise BackupError(
            msg("%(path)s is not a Haferl database; nothing was changed.", path=str(backup))
        )


def set_aside(database: Path, label: str, now: datetime | None = None) -> Path | None:
    """Rename the database to `<name>.<label>-<time>` with its write-ahead log folded in;
    None when there is no database."""
    if not database.exists():
        return None
    # Folding the write-ahead log into the file; the last connection to close removes it.
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    wal = database.with_name(database.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        raise BackupError(
            msg(
                "%(path)s is not empty: is a program still using the database? "
                "Nothing was changed.",
                path=str(wal),
            )
        )
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    aside = database.with_name(f"{database.name}.{label}-{stamp}")
    os.replace(database, aside)
    for suffix in ("-wal", "-shm"):
        database.with_name(database.name + suffix).unlink(missing_ok=True)
    return aside


# --- the keeper: a backup a day while serving -------------------------------------------


def keep_daily(
    database: Path, directory: Path, parent: int, *, check_every: float = CHECK_EVERY
) -> None:
    """Runs beside the server (`python -m scorer.store.backups keep …`, started by scorer.serve):
    takes a backup whenever the newest one is a day old, and ends with the server (its
    parent process, gunicorn's arbiter after the exec) or with Ctrl+C."""
    while os.getppid() == parent:
        if due(directory):
            try:
                made = automatic_backup(database, directory)
                sys.stderr.write(f"backup: {made}\n")  # a log line, in English
            except (BackupError, OSError) as exc:
                sys.stderr.write(f"{exc.message if isinstance(exc, BackupError) else exc}\n")
        deadline = time.monotonic() + check_every
        while time.monotonic() < deadline and os.getppid() == parent:
            time.sleep(min(5.0, check_every))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorer.store.backups")
    commands = parser.add_subparsers(dest="command", required=True)
    keep = commands.add_parser("keep", help="a backup a day while the server runs")
    keep.add_argument("--database", required=True, type=Path)
    keep.add_argument("--dir", required=True, type=Path)
    keep.add_argument("--parent", required=True, type=int)
    keep.add_argument("--check-every", type=float, default=CHECK_EVERY)
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        keep_daily(args.database, args.dir, args.parent, check_every=args.check_every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
