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


def test_only_the_routes_of_a_table_or_a_group_turn_their_key_into_it(app):
    """The routes under `/sessions/<key>` and `/groups/<group_key>` are blueprints of their
    own, and only they load the table or the group: another route may name a `key`."""
    from scorer.api.groups import _load_group
    from scorer.api.sessions import _load_session

    loaders = {
        name: {f.__name__ for f in functions}
        for name, functions in app.url_value_preprocessors.items()
        if _load_session in functions or _load_group in functions
    }
    assert loaders == {
        "api.table": {"_load_session"},
        "api.group": {"_load_group"},
    }
    for rule in app.url_map.iter_rules():
        where = rule.endpoint.rsplit(".", 1)[0]
        if rule.rule.startswith(("/api/v1/sessions/<key>", "/api/v1/groups/<group_key>")):
            assert where in loaders, rule.rule
        elif where in loaders:
            raise AssertionError(f"{rule.rule} is served by {where}")
