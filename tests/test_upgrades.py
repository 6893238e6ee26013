"""Upgrades from every release work on real data, and a failed one changes nothing.

tests/data/upgrades/ holds, per earlier schema, a SQLite database written by the release
of that time (its own migrations, its own API: evenings with hands, an edit, a strike, a
closed evening, players who come and go, a Stammtisch group with a closed season, a
tournament with a played round and a second drawn and partly played) and what that
release's API answered about every evening, group and tournament (`make_fixture.py` made
both, in a `git worktree` of the release). Each is upgraded to head with `flask db
upgrade` on SQLite and, when SCORER_TEST_DATABASE_URL names one, on PostgreSQL (the same
rows copied into a database migrated to the same revision, then upgraded), and must give
the same answers: every evening's balances, Haferl, hand count and settle-up, every group's
Haferl, closed seasons and season standings, every tournament's standings; a fresh fold
agrees; the upgraded schema is the models'; and every open table takes a new hand.

A migration that fails rolls back (one transaction on both databases, also on SQLite:
migrations/env.py); `make run`'s prepare() takes a backup before a migration that has
something to do, puts it back when the migration fails, and says what to do.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from pathlib import Path

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, select, text

from scorer import serve
from scorer.services import table_reads
from scorer.services import tournaments as ops
from scorer.store import backups, table_codes
from scorer.store.database import db
from scorer.store.models import HandRecord, TableSession, Tournament
from tests.conftest import DATA
from tests.support.migrations import (
    POSTGRES_URL,
    app_on_release,
    empty,
    release_answers,
    same_json_default,
    same_rows,
    sqlite_copy,
)

FIXTURES = sorted((DATA / "upgrades").glob("*.json"))
API = "/api/v1"
NO_POSTGRES = pytest.mark.skipif(not POSTGRES_URL, reason="SCORER_TEST_DATABASE_URL not set")
BACKENDS = ["sqlite", pytest.param("postgresql", marks=NO_POSTGRES)]


@pytest.fixture
def upgraded(request, tmp_path):
    """(app at head, the release's answers, backend): a fixture upgraded by `flask db
    upgrade`."""
    path, backend = request.param
    app, answers, source = app_on_release(path, backend, tmp_path)
    app.config["RATE_LIMITS"] = False
    with app.app_context():
        assert current_revision() == answers["revision"]
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output + repr(result.exception)
    yield app, answers, backend
    if backend == "postgresql":
        empty(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def current_revision() -> str | None:
    with db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def cases() -> list:
    """(fixture, backend) for every fixture, on SQLite and on PostgreSQL."""
    found = []
    for path in FIXTURES:
        found.append(pytest.param((path, "sqlite"), id=f"{path.stem}-sqlite"))
        found.append(
            pytest.param((path, "postgresql"), id=f"{path.stem}-postgresql", marks=NO_POSTGRES)
        )
    return found


def test_there_is_a_fixture_for_every_release_schema():
    """Every revision but the head has a database written by code at that revision: the
    release made at it, or (35d74af2d862, which no release shipped: the next migration came
    in the same stop) the last commit at it, cbaa01e. All but the first migration, which no
    release shipped alone either: the tournaments' one came the same afternoon."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config(str(Path(flask_migrate.__file__).parent / "nothing.ini"))
    config.set_main_option("script_location", str(DATA.parent.parent / "migrations"))
    script = ScriptDirectory.from_config(config)
    revisions = [r.revision for r in script.walk_revisions()]
    head = script.get_current_head()
    first = revisions[-1]
    covered = {release_answers(path)["revision"] for path in FIXTURES}
    assert covered == set(revisions) - {head, first}


@pytest.mark.parametrize("upgraded", cases(), indirect=True)
def test_an_upgraded_release_database_gives_the_same_answers_and_takes_new_hands(upgraded):
    app, answers, backend = upgraded
    client = app.test_client()
    with app.app_context():
        assert current_revision() == flask_migrate_head(app)
        with db.engine.connect() as connection:
            context = MigrationContext.configure(
                connection,
                opts={"compare_type": True, "compare_server_default": same_json_default},
            )
            assert compare_metadata(context, db.metadata) == []
        # Explanation lines a release stored as plain English are messages now (35d74af2d862).
        plain = db.select(db.func.count()).where(
            db.cast(HandRecord.explanation, db.String).like('%"text":%')
        )
        assert db.session.scalar(plain) == 0

    for key, old in answers["sessions"].items():
        session = client.get(f"{API}/sessions/{key}").get_json()
        settlement = client.get(f"{API}/sessions/{key}/settlement").get_json()
        assert session["balances"] == old["balances"], key
        assert session["hand_count"] == old["hand_count"], key
        assert session["closed"] == old["closed"], key
        assert settlement["balances"] == old["settlement"], key
        assert settlement["transfers"] == old["transfers"], key
    with app.app_context():
        codes, rows = set(), 0
        for stored in db.session.scalars(select(TableSession)):
            rows += 1
            _, fresh = table_reads.fold_session(stored)
            assert fresh.balances == stored.state["balances"], stored.key
            assert fresh.pot == stored.state["pot"], stored.key
            # Every table has its short code (6b7c8d9e0f1a), each its own.
            assert table_codes.normalized(stored.short_code or "") == stored.short_code
            codes.add(stored.short_code)
        assert len(codes) == rows
        db.session.remove()

    for key, old in answers["groups"].items():
        group = client.get(f"{API}/groups/{key}").get_json()
        assert group["pot_cents"] == old["pot_cents"]
        assert group["season"] == old["season"]
        assert group["closed_seasons"] == old["closed_seasons"]
        for season, standings in old["standings"].items():
            now = client.get(f"{API}/groups/{key}/standings?season={season}").get_json()
            assert same_rows(now, standings), (key, season)

    for key, old in answers["tournaments"].items():
        response = client.get(f"{API}/standings/{key}")
        assert response.status_code == 200
        now = response.get_json()
        assert same_rows(now["standings"] if isinstance(now, dict) else now, old), key
        with app.app_context():
            tournament = db.session.scalar(select(Tournament).where(Tournament.key == key))
            assert ops.tournament_standings(tournament) == ops.fresh_standings(tournament)
            db.session.remove()

    # The upgraded data takes new hands: at every open table, and a group's new evening.
    open_tables = [key for key, old in answers["sessions"].items() if not old["closed"]]
    assert open_tables
    for key in open_tables:
        before = client.get(f"{API}/sessions/{key}").get_json()
        hand = new_hand(client, key)
        after = client.get(f"{API}/sessions/{key}").get_json()
        assert after["hand_count"] == before["hand_count"] + 1
        for player, cents in hand["net"].items():
            assert after["balances"][player] == before["balances"][player] + cents, key
        assert any(hand["net"].values())
    for key in answers["groups"]:
        response = client.post(
            f"{API}/groups/{key}/evenings", json={"players": ["Anton", "Berta", "Dora"]}
        )
        assert response.status_code == 201, response.get_json()
        assert new_hand(client, response.get_json()["key"])["number"] == 1
    # The report's table, with `-s`: what was compared, one line per release and database.
    print(
        f"{answers['commit']} {answers['revision']} {backend:10} "
        f"evenings {len(answers['sessions']):2} groups {len(answers['groups'])} "
        f"tournaments {len(answers['tournaments'])}: equal"
    )


def flask_migrate_head(app) -> str:
    from alembic.script import ScriptDirectory

    with app.app_context():
        config = app.extensions["migrate"].migrate.get_config()
        return ScriptDirectory.from_config(config).get_current_head()


def new_hand(client, key: str) -> dict:
    """A Frage recorded at the table, by the first player the rules let declare."""
    players = client.get(f"{API}/sessions/{key}").get_json()["players"]
    for declarer in players:
        response = client.post(
            f"{API}/sessions/{key}/hands",
            json={"declarer": declarer, "contract": "frage", "points": 75},
        )
        if response.status_code == 201:
            return response.get_json()
        assert response.status_code == 422, response.get_json()
    raise AssertionError(f"no player may declare at {key}")


# --- a failed migration -----------------------------------------------------------------

FAILING = '''"""fails on purpose, after changing data and recreating a referenced table

Revision ID: ffff00000028
Revises: {head}
"""
from alembic import op

revision = "ffff00000028"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade():
    op.execute("UPDATE table_session SET name = 'kaputt'")
    op.execute("DELETE FROM history_event")
    # SQLite: a copy of a table that others reference (what failed with foreign keys on)
    recreate = "always" if op.get_bind().dialect.name == "sqlite" else "auto"
    with op.batch_alter_table("tournament", recreate=recreate) as batch_op:
        batch_op.alter_column("name", new_column_name="title")
    raise ValueError("a migration that fails on purpose")


def downgrade():
    pass
'''


def failing_migrations(tmp_path: Path, head: str) -> Path:
    """The project's migrations plus one that fails after it changed things."""
    directory = tmp_path / "migrations"
    shutil.copytree(DATA.parent.parent / "migrations", directory)
    (directory / "versions" / "ffff00000028_fails.py").write_text(FAILING.format(head=head))
    return directory


def everything(app) -> dict[str, list]:
    """Every row of every table, and the tables' columns."""
    with app.app_context(), db.engine.connect() as connection:
        inspector = inspect(connection)
        found = {}
        for name in sorted(inspector.get_table_names()):
            columns = [c["name"] for c in inspector.get_columns(name)]
            rows = connection.execute(text(f"SELECT * FROM {name}")).all()
            found[name] = [columns, sorted(repr(tuple(r)) for r in rows)]
        return found


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_failing_migration_leaves_the_database_as_it_was(backend, tmp_path):
    """The release of 9b0358a, upgraded through every migration and then one that
    changes data, recreates a referenced table and fails: nothing of it is kept."""
    path = DATA / "upgrades" / "9b0358a.json"
    app, answers, source = app_on_release(path, backend, tmp_path)
    before = everything(app)
    assert before["hand"][1] and before["tournament"][1]
    directory = failing_migrations(tmp_path, flask_migrate_head(app))
    try:
        with app.app_context():
            with pytest.raises(ValueError, match="fails on purpose"):
                flask_migrate.upgrade(directory=str(directory))
            db.engine.dispose()
        assert everything(app) == before
        with app.app_context():
            assert current_revision() == answers["revision"]
            db.engine.dispose()
        if backend == "sqlite":
            with sqlite3.connect(source) as connection:
                assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
                assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            connection.close()
        # And the real migrations still go through afterwards.
        result = app.test_cli_runner().invoke(args=["db", "upgrade"])
        assert result.exit_code == 0, result.output + repr(result.exception)
    finally:
        if backend == "postgresql":
            empty(app)
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def make_run_env(tmp_path, monkeypatch):
    """The environment `make run` would have, on a copy of the 9b0358a release's
    database in tmp_path (nothing written to the project's instance folder)."""
    database = sqlite_copy(DATA / "upgrades" / "9b0358a.json", tmp_path)
    monkeypatch.setenv("SCORER_DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("SCORER_SECRET_KEY", "test")
    monkeypatch.setenv("SCORER_SETUP_CODE", "test-setup-code")
    monkeypatch.setenv("SCORER_PDF_CACHE", str(tmp_path / "pdf-cache"))
    return database


def hand_count(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        count = connection.execute("SELECT COUNT(*) FROM hand").fetchone()[0]
    connection.close()
    return count


def revision_of(database: Path) -> str:
    with sqlite3.connect(database) as connection:
        revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    connection.close()
    return revision


def test_make_run_backs_up_before_a_migration_with_work_and_not_otherwise(make_run_env):
    database = make_run_env
    hands = hand_count(database)
    prepared = serve.prepare()
    os.close(prepared.lock)
    assert prepared.sqlite and prepared.database == database
    assert prepared.backups == database.parent / "backups"
    [copy] = backups.backups_in(prepared.backups)
    assert revision_of(copy) == "105688fba1c2" and hand_count(copy) == hands
    assert backups.integrity(copy) == "ok"
    assert revision_of(database) != "105688fba1c2" and hand_count(database) == hands
    again = serve.prepare()  # nothing to migrate: no second backup
    os.close(again.lock)
    assert backups.backups_in(prepared.backups) == [copy]


@pytest.mark.parametrize("failure", ["exception", "exit"])
def test_make_run_puts_the_backup_back_when_a_migration_fails_and_says_what_to_do(
    failure, make_run_env, monkeypatch
):
    """A migration that fails half-way without a transaction to roll it back (simulated:
    it deletes every hand, committed, then fails) leaves the file as it was before."""
    database = make_run_env
    hands = hand_count(database)
    assert hands > 0

    def half_done(*args, **kwargs):
        with sqlite3.connect(database) as connection:
            connection.execute("DELETE FROM history_event")
            connection.execute("DELETE FROM hand")
        connection.close()
        if failure == "exception":
            raise ValueError("migration broke half-way")
        sys.exit(1)  # what Flask-Migrate does with a RuntimeError, after logging it

    monkeypatch.setattr(flask_migrate, "upgrade", half_done)
    with pytest.raises(SystemExit) as exit_:
        serve.prepare()
    message = str(exit_.value.code)
    reason = (
        "ValueError (migration broke half-way)" if failure == "exception" else "der Fehler steht"
    )
    assert f"Die Datenbank konnte nicht aktualisiert werden: {reason}" in message
    assert "nichts ist verloren" in message and "Was tun" in message
    assert message.endswith("Haferl wurde nicht gestartet.")
    assert hand_count(database) == hands
    assert revision_of(database) == "105688fba1c2"
    [failed] = database.parent.glob(f"{database.name}.failed-upgrade-*")
    assert hand_count(failed) == 0
    # The lock was given back: a restore is not refused by a server that never started.
    with backups.nobody_serving(database):
        pass
