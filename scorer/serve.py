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
import socket
import subprocess
import sys
import traceback
from pathlib import Path
from typing import NamedTuple

import segno

WORKERS_SQLITE = 1
THREADS = 8
TIMEOUT = 60
KEEP_ALIVE = 5


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


def gunicorn_argv(host: str, port: str, sqlite: bool, workers: int | None = None) -> list[str]:
    if workers is None:
        workers = WORKERS_SQLITE if sqlite else min((os.cpu_count() or 1) + 1, 8)
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"{host}:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(THREADS),
        # gthread with threads of its own for the tablets' writes (scorer.worker).
        "--worker-class",
        "scorer.worker.TabletsFirstWorker",
        "--timeout",
        str(TIMEOUT),
        # Live pages ask every 1.5 s (static/js/live.js): an idle connection is kept a little
        # longer than that, so a watching device does not open a new one for every ask.
        # It waits in the worker's poller, not in a thread.
        "--keep-alive",
        str(KEEP_ALIVE),
        # No --max-requests: with SQLite's one process, each replacement stopped every
        # table for the ~1.4 s a new worker takes to start; PDFs render in a child
        # process, and a worker's memory levels off (about 130 MB after 18 imports of
        # 1,990 hands and 60 answers of a 1,990-hand table).
        "--access-logfile",
        "-",
        # No control socket: unused here, and two servers on one machine would share its path.
        "--no-control-socket",
        "wsgi:app",
    ]


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
            lock = backups.hold_serving_lock(database)
            if migrations_pending():
                try:
                    copy = backups.automatic_backup(database, directory)
                except backups.BackupError as exc:
                    os.close(lock)
                    raise SystemExit(f"{exc}\n{NOT_STARTED}") from None
                sys.stderr.write(f"  Sicherung vor der Aktualisierung / backup first: {copy}\n")
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


NOT_STARTED = "  Haferl wurde nicht gestartet. / Haferl was not started."


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
    what to do, in German and English."""
    from scorer.store import backups

    reason = f"{type(exc).__name__} ({exc})"
    de, en = reason, reason
    if isinstance(exc, SystemExit):  # Flask-Migrate logged the error and exited
        de, en = "der Fehler steht oben", "the error is shown above"
    lines = [
        "",
        f"  Die Datenbank konnte nicht aktualisiert werden: {de}",
        f"  The database could not be upgraded: {en}",
    ]
    if database is not None and copy is not None:
        try:
            failed = backups.set_aside(database, "failed-upgrade")
            backups.take_backup(copy, database)
        except (backups.BackupError, OSError) as again:
            lines += [
                f"  Die Sicherung {copy} konnte nicht zurückgelegt werden ({again}): bitte mit",
                f"  `flask --app wsgi scorer restore {copy}` zurückspielen.",
                f"  The backup {copy} could not be put back ({again}): restore it with",
                f"  `flask --app wsgi scorer restore {copy}`.",
            ]
        else:
            lines += [
                f"  Sie ist wieder wie vorher (aus der Sicherung {copy}); nichts ist verloren.",
                f"  It is as it was before (from the backup {copy}); nothing is lost.",
                f"  (Der fehlgeschlagene Stand / the failed state: {failed})",
            ]
    else:
        lines += [
            "  Sie ist unverändert (alle Schritte in einer Transaktion); nichts ist verloren.",
            "  It is unchanged (every step in one transaction); nothing is lost.",
        ]
    lines += [
        "  Was tun: die vorige Version von Haferl starten (git checkout <vorige Version>,",
        "  make run) und den Fehler mit dieser Ausgabe melden.",
        "  What to do: run the previous version of Haferl (git checkout <previous version>,",
        "  make run) and report the error with this output.",
        NOT_STARTED,
    ]
    return "\n".join(lines)


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


def banner(host: str, port: str, code: str | None) -> str:
    lines = []
    if host in ("0.0.0.0", "::"):
        address = lan_address()
        if address:
            url = f"http://{address}:{port}/"
            qr = io.StringIO()
            segno.make(url, error="m").terminal(out=qr, compact=True)
            lines += [
                "",
                f"  Haferl läuft. Auf dem Tablet (im selben WLAN) öffnen:  {url}",
                "",
                qr.getvalue(),
            ]
        else:
            lines.append(f"  Haferl läuft auf Port {port}, aber dieser Rechner hat kein Netz.")
        lines.append(f"  Auf diesem Rechner: http://127.0.0.1:{port}/")
    else:
        lines.append(f"  Haferl läuft: http://{host}:{port}/ (nur an dieser Adresse)")
    if code:
        lines += [
            "",
            f"  Einrichtungscode für das erste Veranstalterkonto: {code}",
            "  (/veranstalter/registrieren fragt danach; er gilt, bis das Konto angelegt ist)",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    host = os.environ.get("HOST") or "0.0.0.0"
    port = os.environ.get("PORT") or "5000"
    prepared = prepare()
    sys.stdout.write(banner(host, port, prepared.code))
    sys.stdout.flush()
    if prepared.database is not None and prepared.backups is not None:
        start_backup_keeper(prepared.database, prepared.backups)
    workers = os.environ.get("WORKERS")
    argv = gunicorn_argv(host, port, prepared.sqlite, int(workers) if workers else None)
    # The lock taken by prepare() stays held: its descriptor is inherited by gunicorn.
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
