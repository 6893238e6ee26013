"""`make run`: migrate the database, tell the person at the laptop where the tablets
should go, then hand over to gunicorn.

    python -m scorer.serve            # all interfaces, port 5000
    HOST=127.0.0.1 PORT=8000 WORKERS=3 python -m scorer.serve

It prints the address a tablet on the same network opens (the machine's LAN address,
found without sending a packet) with a QR code, and the one-time setup code of the first
organiser sign-up while nobody has an account. SQLite gets one process with threads (one
writer at a time anyway); PostgreSQL gets several processes. `GUNICORN_CMD_ARGS` and
`FORWARDED_ALLOW_IPS` reach gunicorn as usual (see README, "A club or tournament server").
"""

from __future__ import annotations

import io
import os
import socket
import sys

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
        # Live pages ask every 1.5 s (static/live.js): an idle connection is kept a little
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


def prepare() -> tuple[bool, str | None]:
    """Migrate the database; returns (SQLite?, the setup code while nobody signed up)."""
    from flask_migrate import upgrade

    from scorer import create_app
    from scorer.auth.routes import anyone_signed_up, setup_code
    from scorer.extensions import db
    from scorer.restate import restate_old_explanations

    app = create_app()
    with app.app_context():
        upgrade()
        restate_old_explanations()
        code = None if anyone_signed_up() else setup_code()
        sqlite = db.engine.dialect.name == "sqlite"
        db.engine.dispose()
    return sqlite, code


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
    sqlite, code = prepare()
    sys.stdout.write(banner(host, port, code))
    sys.stdout.flush()
    workers = os.environ.get("WORKERS")
    argv = gunicorn_argv(host, port, sqlite, int(workers) if workers else None)
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
