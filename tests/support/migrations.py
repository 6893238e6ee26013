"""Databases the migrations made: an app on an empty database (no `create_all`), emptied
again, Alembic's comparison of JSON defaults on PostgreSQL; and a release's data
(tests/data/upgrades/) at that release's revision, with what its API answered."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import flask_migrate
from sqlalchemy import JSON, MetaData, create_engine, select, text

from scorer import create_app
from scorer.store.database import db

POSTGRES_URL = os.environ.get("SCORER_TEST_DATABASE_URL")


def fresh_app(tmp_path, name: str, url: str | None = None):
    """An app on an empty SQLite file (or `url`): no create_all, unlike the `app` fixture."""
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": url or f"sqlite:///{tmp_path / name}",
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "test",
        }
    )


def empty(app) -> None:
    """Drop the models' tables and Alembic's version table from a shared test database."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        with db.engine.begin() as connection:
            connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")


def same_json_default(context, inspected, column, inspected_default, _, rendered_default):
    """PostgreSQL cannot compare two `json` values with `=`, which Alembic's comparison of
    server defaults does: a JSON column's default is compared as text here ("'{}'::json"
    or "'{}'" against "{}"); every other column as Alembic does (None)."""
    if not isinstance(column.type, JSON):
        return None
    return (inspected_default or "").split("::")[0].strip("'") != (rendered_default or "").strip(
        "'"
    )


def release_answers(path: Path) -> dict:
    """What a release's API answered (tests/data/upgrades/<commit>.json), with its commit
    and revision."""
    return json.loads(path.read_text(encoding="utf-8"))


def sqlite_copy(path: Path, tmp_path: Path) -> Path:
    """A copy in `tmp_path` of the release's SQLite database (beside its answers)."""
    copy = tmp_path / f"{path.stem}.sqlite3"
    shutil.copyfile(path.with_suffix(".sqlite3"), copy)
    return copy


def load_into_postgres(app, source: Path, revision: str) -> None:
    """The rows of a SQLite fixture in the PostgreSQL database of `app`, migrated to the
    fixture's revision by the same migrations; sequences moved past the copied ids."""
    empty(app)
    with app.app_context():
        flask_migrate.upgrade(revision=revision)
        old = create_engine(f"sqlite:///{source}")
        rows_of = MetaData()
        rows_of.reflect(old)
        target = MetaData()
        target.reflect(db.engine)
        with old.connect() as reading, db.engine.begin() as writing:
            for table in target.sorted_tables:
                if table.name == "alembic_version":
                    continue
                rows = [
                    dict(r._mapping) for r in reading.execute(select(rows_of.tables[table.name]))
                ]
                if rows:
                    writing.execute(table.insert(), rows)
                if "id" in table.c:
                    writing.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                            f"COALESCE(MAX(id), 1)) FROM {table.name}"
                        )
                    )
        old.dispose()
        db.engine.dispose()


def app_on_release(path: Path, backend: str, tmp_path: Path):
    """(an app on a copy of the release's data, at the release's revision, on `backend`;
    the release's answers; the SQLite copy)."""
    answers = release_answers(path)
    source = sqlite_copy(path, tmp_path)
    if backend == "postgresql":
        app = fresh_app(tmp_path, "unused.sqlite3", POSTGRES_URL)
        load_into_postgres(app, source, answers["revision"])
    else:
        app = fresh_app(tmp_path, source.name)
    return app, answers, source


def same_rows(now: list[dict], old: list[dict]) -> bool:
    """Standings rows equal on every field the old release gave (newer ones may add)."""
    return len(now) == len(old) and all(
        {k: row[k] for k in was if k in row} == was and set(was) <= set(row)
        for row, was in zip(now, old, strict=True)
    )
