"""Real servers for the concurrency tests and the load benchmark: `python -m scorer.serve`
(what `make run` starts) on 127.0.0.1, on a database the caller has migrated, and a small
JSON client; and how Debian's Chromium is launched for the end-to-end tests and the page
benchmark. Nothing here talks to any address but 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

PROJECT_ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Headless, as root, without a network: what the brief asks Chromium to be launched with."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def migrate_fresh(url: str) -> None:
    """An empty database migrated to the newest schema (a shared PostgreSQL test
    database is emptied first)."""
    from flask_migrate import upgrade

    from scorer import create_app
    from scorer.store.database import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test"})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as connection:
            connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
        upgrade()
        db.engine.dispose()


def empty(url: str) -> None:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    from scorer.store.database import db

    db.metadata.drop_all(engine)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()


@dataclass
class Server:
    """One `scorer.serve` process group (gunicorn's arbiter and its workers)."""

    port: int
    process: subprocess.Popen
    log: Path

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def start_server(url: str, log: Path, workers: int | None = None, **env: str) -> Server:
    """Start `python -m scorer.serve` on 127.0.0.1 and wait until it answers. Nothing is
    written to the project's `instance/` folder: the setup code is given and the PDF
    cache lies beside the log."""
    port = free_port()
    environment = {
        **os.environ,
        "HOST": LOOPBACK,
        "PORT": str(port),
        "SCORER_DATABASE_URL": url,
        "SCORER_SECRET_KEY": "test",
        "SCORER_RATE_LIMITS": "false",
        "SCORER_SETUP_CODE": "server-setup-code",
        "SCORER_PDF_CACHE": str(log.parent / "pdf-cache"),
        **({"WORKERS": str(workers)} if workers else {}),
        **env,
    }
    with log.open("ab") as handle:
        process = subprocess.Popen(
            [sys.executable, "-m", "scorer.serve"],
            cwd=PROJECT_ROOT,
            env=environment,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(port, process, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-3000:]}")
        try:
            if call(port, "GET", "/api/v1/games")[0] == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.stop(signal.SIGKILL)
    raise RuntimeError(f"server did not answer: {log.read_text()[-3000:]}")


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 60,
) -> tuple[int, Any]:
    """One request on a new connection; returns (status, parsed JSON or None)."""
    connection = HTTPConnection(LOOPBACK, port, timeout=timeout)
    try:
        payload = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if payload is not None else {}
        connection.request(method, path, body=payload, headers={**sent, **(headers or {})})
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    try:
        parsed = json.loads(data) if data else None
    except ValueError:
        parsed = None
    return response.status, parsed
