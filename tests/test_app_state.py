"""The app keeps its state to itself: `import wsgi` builds an app and touches no database
(migrations are `make run`'s and the CLI's), and what the factory sets up (SQLite's
settings, the writers' turn, the club's clock) is set on that app's engine and desk, not on
every engine or paper of the process."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from scorer.i18n.words import speaking
from scorer.store.database import db
from tests.conftest import dispose, make_app

ROOT = Path(__file__).resolve().parent.parent


def test_importing_wsgi_builds_the_app_and_migrates_nothing(tmp_path):
    database = tmp_path / "fresh.sqlite3"
    environment = {
        **os.environ,
        "SCORER_DATABASE_URL": f"sqlite:///{database}",
        "SCORER_SECRET_KEY": "test",
        "SCORER_PDF_CACHE": str(tmp_path / "pdf-cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", "import wsgi; print(wsgi.app.name)"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "scorer.app"
    assert not database.exists()  # not opened, not migrated


def test_sqlite_settings_are_the_apps_engines_only(tmp_path):
    app = make_app(tmp_path)
    try:
        with app.app_context():
            url = str(db.engine.url)
            with db.engine.connect() as connection:
                if db.engine.dialect.name != "sqlite":
                    pytest.skip("PostgreSQL has none of SQLite's settings")
                assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
                assert connection.execute(text("PRAGMA busy_timeout")).scalar() == 20000
                assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        other = create_engine(url.replace("test.sqlite3", "other.sqlite3"))
        with other.connect() as connection:
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 0
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "delete"
        other.dispose()
    finally:
        dispose(app)


def test_each_app_writes_times_on_its_own_clock(tmp_path):
    moment = datetime(2026, 12, 2, 20, 7)  # UTC
    (tmp_path / "london").mkdir()
    (tmp_path / "berlin").mkdir()
    london = make_app(tmp_path / "london", TIMEZONE="Europe/London")
    berlin = make_app(tmp_path / "berlin")
    try:
        with speaking("en"):
            assert london.extensions["desk"].clock.time(moment) == "20:07"
            assert berlin.extensions["desk"].clock.time(moment) == "21:07"
    finally:
        dispose(london)
        dispose(berlin)
