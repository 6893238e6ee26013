"""`make run`: migrate the database, tell the person at the laptop where the tablets
should go, then hand over to gunicorn.

    python -m scorer.serve            # all interfaces, port 5000
    HOST=127.0.0.1 PORT=8000 WORKERS=3 python -m scorer.serve

It prints the address a tablet on the same network opens (the machine's LAN address,
found without sending a packet) with a QR code, and the one-time setup code of the first
organiser sign-up while nobody has an account. SQLite gets one process with threads (one
writer at a time anyway); PostgreSQL gets several processes. `GUNICORN_CMD_ARGS` and
`FORWARDED_ALLOW_IPS` reach gunicorn as usual (see README, "A club or tournament server").

On SQLite it holds the database's server lock from before the migration until gunicorn
ends (`scorer restore` is refused meanwhile), takes a backup before a migration that has
something to do (put back if the migration fails), and starts a small keeper process that
takes a backup a day while serving (scorer/store/backups.py; README, "Backups").
"""

from __future__ import annotations

import io
import os
import resource
import socket
import subprocess
import sys
import traceback
from pathlib import Path
from typing import NamedTuple

import segno

from scorer.domain.message import Msg, msg
from scorer.i18n.catalogue import say
from scorer.i18n.words import machine_language, speaking

WORKERS_SQLITE = 1
THREADS = 8
TIMEOUT = 60
KEEP_ALIVE = 5
CONNECTIONS = 4096
"""Connections a server process holds at once (gunicorn's `worker_connections`, 1,000 by
default): every phone of a 1,500-player event keeps one open while it follows the
standings, with the tablets and projectors beside them; at 1,000 the 1,001st waited in the
backlog until it gave up (a bench of 1,500 phones: 502 of them never answered)."""


def lan_address() -> str | None:
    """The address this machine has on its local network: the source address the kernel
    would pick for a route outwards. Connecting a UDP socket sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


CONFIG = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"
"""gunicorn's settings (the worker, threads, timeouts, the log): one file, read by gunicorn."""


def workers_for(sqlite: bool, workers: int | None = None) -> int:
    """Server processes: one on SQLite (one writer at a time anyway), cores + 1 (at most 8)
    on PostgreSQL, unless `workers` says. The cores are those this process may run on (a
    server pinned with `taskset` to one core of four has one)."""
    if workers is not None:
        return workers
    return WORKERS_SQLITE if sqlite else min(len(os.sched_getaffinity(0)) + 1, 8)


def gunicorn_argv() -> list[str]:
    """gunicorn with its settings file; HOST, PORT and WORKERS reach it in the environment."""
    return [sys.executable, "-m", "gunicorn", "--config", str(CONFIG), "wsgi:app"]


class Prepared(NamedTuple):
    sqlite: bool
    code: str | None
    """The setup code while nobody signed up."""
    database: Path | None = None
    """The SQLite file (None on PostgreSQL)."""
    backups: Path | None = None
    """Where its backups go."""
    lock: int | None = None
    """The descriptor holding the server's lock on the SQLite file (inherited by gunicorn)."""


def prepare() -> Prepared:
    """Migrate the database. On SQLite first take the server's lock (scorer.store.backups) and,
    when a migration has something to do, a backup (instance/backups/); a failed migration
    puts that backup back (the migrations run in one transaction anyway, see
    migrations/env.py; the copy also covers what a transaction cannot) and ends with what
    to do. On PostgreSQL the migrations' one transaction leaves the database as it was."""
    from flask_migrate import upgrade

    from scorer import create_app
    from scorer.auth.routes import setup_code
    from scorer.services.accounts import anyone_signed_up
    from scorer.store import backups
    from scorer.store.database import db

    app = create_app()
    with app.app_context():
        database = backups.sqlite_file(db.engine.url)
        directory = lock = copy = None
        if database is not None:
            directory = backups.backup_dir(database, app.config.get("BACKUP_DIR"))
            lock = backups.hold_serving_lock(database, waiting=_say_restore_waits)
            if migrations_pending():
                try:
                    copy = backups.automatic_backup(database, directory)
                except backups.BackupError as exc:
                    os.close(lock)
                    raise SystemExit(f"  {said(exc.message)}\n{not_started()}") from None
                sys.stderr.write(
                    f"  {said(msg('A backup before the upgrade: %(path)s', path=str(copy)))}\n"
                )
        try:
            upgrade()
        except BaseException as exc:  # Flask-Migrate ends a RuntimeError with sys.exit(1)
            traceback.print_exc()
            db.session.remove()
            db.engine.dispose()
            message = upgrade_failed(exc, database, copy)
            if lock is not None:
                os.close(lock)
            raise SystemExit(message) from None
        code = None if anyone_signed_up() else setup_code()
        sqlite = db.engine.dialect.name == "sqlite"
        db.engine.dispose()
    return Prepared(sqlite, code, database, directory, lock)


def said(message: Msg) -> str:
    """`message` in the machine's language (`words.machine_language`): the person at the
    laptop reads the banner and what went wrong."""
    with speaking(machine_language()):
        return say(message)


def not_started() -> str:
    return "  " + said(msg("Haferl was not started."))


def _say_restore_waits() -> None:
    sys.stderr.write(f"  {said(msg('A backup is being restored; the server waits for it.'))}\n")


def migrations_pending() -> bool:
    """Whether `flask db upgrade` has something to do on a database that holds data."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from flask import current_app
    from sqlalchemy import inspect

    from scorer.store.database import db

    config = current_app.extensions["migrate"].migrate.get_config()
    heads = set(ScriptDirectory.from_config(config).get_heads())
    with db.engine.connect() as connection:
        if not inspect(connection).get_table_names():
            return False  # a new, empty database: nothing to keep
        current = set(MigrationContext.configure(connection).get_current_heads())
    return current != heads


def upgrade_failed(exc: BaseException, database: Path | None, copy: Path | None) -> str:
    """Put the backup taken before the migration back (SQLite) and say what happened and
    what to do, in the machine's language."""
    from scorer.store import backups

    reason = msg("the error is shown above") if isinstance(exc, SystemExit) else None
    # Flask-Migrate logged the error and exited; otherwise the exception says it.
    lines: list[Msg] = [
        msg(
            "The database could not be upgraded: %(reason)s",
            reason=reason or f"{type(exc).__name__} ({exc})",
        ),
    ]
    if database is not None and copy is not None:
        try:
            failed = backups.set_aside(database, "failed-upgrade")
            backups.take_backup(copy, database)
        except (backups.BackupError, OSError) as again:
            why = again.message if isinstance(again, backups.BackupError) else str(again)
            lines.append(
                msg(
                    "The backup %(path)s could not be put back (%(reason)s): restore it with "
                    "`flask --app wsgi scorer restore %(path)s`.",
                    path=str(copy),
                    reason=why,
                )
            )
        else:
            lines += [
                msg(
                    "It is as it was before (from the backup %(path)s); nothing is lost.",
                    path=str(copy),
                ),
                msg("The failed state is kept at %(path)s.", path=str(failed)),
            ]
    else:
        lines.append(msg("It is unchanged (every step in one transaction); nothing is lost."))
    lines.append(
        msg(
            "What to do: run the previous version of Haferl (git checkout <previous version>, "
            "make run) and report the error with this output."
        )
    )
    return "\n".join(["", *("  " + said(line) for line in lines), not_started()])


def start_backup_keeper(database: Path, directory: Path) -> subprocess.Popen:
    """A small process beside the server that takes a backup whenever the newest is a day
    old (scorer.store.backups.keep_daily). A process, not a thread: the serving process becomes
    gunicorn by exec, and a thread in gunicorn's arbiter would be copied half-way into
    every worker it forks. It ends when the server does (its parent changes) or with the
    server's Ctrl+C (same process group)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorer.store.backups",
            "keep",
            "--database",
            str(database),
            "--dir",
            str(directory),
            "--parent",
            str(os.getpid()),
            "--check-every",
            os.environ.get("BACKUP_CHECK_EVERY") or "600",
        ]
    )


RUNNING_AT = msg("Haferl is running. Open on the tablet (same Wi-Fi): %(url)s")
NO_NETWORK = msg("Haferl runs on port %(port)s, but this machine has no network.")
HERE = msg("On this machine: %(url)s")
ONLY_HERE = msg("Haferl is running: %(url)s (at this address only)")
SETUP_CODE = msg("Setup code for the first organiser account: %(code)s")
SETUP_CODE_USE = msg("(/veranstalter/registrieren asks for it; it holds until the account is made)")


def banner(host: str, port: str, code: str | None) -> str:
    """Where the tablets go (with a QR code) and the setup code, in the machine's language."""
    lines: list[str] = []
    if host in ("0.0.0.0", "::"):
        address = lan_address()
        if address:
            url = f"http://{address}:{port}/"
            qr = io.StringIO()
            segno.make(url, error="m").terminal(out=qr, compact=True)
            lines += ["", "  " + said(RUNNING_AT.with_args(url=url)), "", qr.getvalue()]
        else:
            lines.append("  " + said(NO_NETWORK.with_args(port=port)))
        lines.append("  " + said(HERE.with_args(url=f"http://127.0.0.1:{port}/")))
    else:
        lines.append("  " + said(ONLY_HERE.with_args(url=f"http://{host}:{port}/")))
    if code:
        lines += ["", "  " + said(SETUP_CODE.with_args(code=code)), "  " + said(SETUP_CODE_USE)]
    return "\n".join(lines) + "\n"


def room_for_connections() -> None:
    """Open files enough for CONNECTIONS (and the database's, the logs'): the soft limit
    raised as far as the hard one allows (a shell's is often 1,024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTIONS + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raise_to = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, raise_to), hard))


def main() -> None:
    host = os.environ.get("HOST") or "0.0.0.0"
    port = os.environ.get("PORT") or "5000"
    prepared = prepare()
    sys.stdout.write(banner(host, port, prepared.code))
    sys.stdout.flush()
    if prepared.database is not None and prepared.backups is not None:
        start_backup_keeper(prepared.database, prepared.backups)
    workers = os.environ.get("WORKERS")
    os.environ.update(
        HOST=host,
        PORT=port,
        WORKERS=str(workers_for(prepared.sqlite, int(workers) if workers else None)),
    )
    room_for_connections()
    argv = gunicorn_argv()
    # The lock taken by prepare() stays held: its descriptor is inherited by gunicorn.
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
