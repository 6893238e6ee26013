"""The migrations build the schema of the models: `flask db upgrade` on an empty database
creates every table, and Alembic's autogenerate comparison finds nothing to add; a
migration that counts from stored data counts what a fresh fold gives.

Always on a fresh SQLite file of its own (the `app` fixture runs `db.create_all()`); when
SCORER_TEST_DATABASE_URL names a PostgreSQL test database, also on that database, emptied
first and emptied again afterwards."""

from __future__ import annotations

import random

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from scorer.services import tournaments as ops
from scorer.store.database import db
from scorer.store.models import HandRecord, TableSession, Tournament
from tests.support.migrations import POSTGRES_URL, empty, fresh_app, same_json_default
from tests.support.tournaments import created, draw, organiser, play_round


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(not POSTGRES_URL, reason="SCORER_TEST_DATABASE_URL not set"),
        ),
    ]
)
def migrated(request, tmp_path):
    """An app whose empty database was brought to head by `flask db upgrade`."""
    url = POSTGRES_URL if request.param == "postgresql" else None
    app = fresh_app(tmp_path, "migrated.sqlite3", url)
    if url:
        empty(app)
    with app.app_context():
        assert inspect(db.engine).get_table_names() == []
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output + repr(result.exception)
    yield app
    if url:
        empty(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_upgrade_creates_every_table_of_the_models(migrated):
    with migrated.app_context():
        tables = set(inspect(db.engine).get_table_names())
    assert set(db.metadata.tables) <= tables
    assert tables - set(db.metadata.tables) == {"alembic_version"}


def test_the_migrated_schema_matches_the_models(migrated):
    with migrated.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(
            connection,
            opts={"compare_type": True, "compare_server_default": same_json_default},
        )
        diff = compare_metadata(context, db.metadata)
    assert diff == []


def test_the_migrated_schema_has_the_models_indexes_and_unique_constraints(migrated):
    with migrated.app_context():
        inspector = inspect(db.engine)
        for table in db.metadata.sorted_tables:
            columns = {c["name"] for c in inspector.get_columns(table.name)}
            assert columns == set(table.columns.keys()), table.name
            indexes = {tuple(i["column_names"]) for i in inspector.get_indexes(table.name)}
            for index in table.indexes:
                assert tuple(c.name for c in index.columns) in indexes, (table.name, index.name)
        uniques = {tuple(u["column_names"]) for u in inspector.get_unique_constraints("hand")}
        assert ("session_id", "number") in uniques
        assert ("session_id", "idempotency_key") in uniques


def test_upgrade_with_flask_migrate_and_downgrade_to_base(tmp_path):
    app = fresh_app(tmp_path, "down.sqlite3")
    with app.app_context():
        flask_migrate.upgrade()
        assert set(db.metadata.tables) <= set(inspect(db.engine).get_table_names())
        flask_migrate.downgrade(revision="base")
        assert inspect(db.engine).get_table_names() == ["alembic_version"]
        flask_migrate.upgrade()
        assert set(db.metadata.tables) <= set(inspect(db.engine).get_table_names())
        db.session.remove()
        db.engine.dispose()


def test_the_migrated_database_serves_the_api(migrated):
    client = migrated.test_client()
    response = client.post(
        "/api/v1/sessions",
        json={
            "game": "haferltarock",
            "system": "parlett-units",
            "players": ["Anton", "Berta", "Charlotte"],
            "first_dealer": "Anton",
        },
    )
    assert response.status_code == 201
    key = response.get_json()["key"]
    hand = {"declarer": "Anton", "contract": "frage", "points": 70}
    assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
    assert client.get(f"/api/v1/sessions/{key}").get_json()["balances"]["Anton"] == -80


def test_the_declarer_tally_is_counted_from_the_stored_hands(migrated):
    """a1b2c3d4e5f6 counts each table's tally from the hands already stored: a tournament
    played at head, its column dropped (downgrade) and counted again (upgrade), gives the
    same tallies and standings, equal to a fresh fold."""
    client = migrated.test_client()
    auth = organiser(migrated)
    tournament = created(client, auth, ["A", "B", "C", "D", "E", "F", "G"], rounds=1, deals=1)
    play_round(client, draw(client, auth, tournament["id"]), random.Random(5))
    key = tournament["id"]
    with migrated.app_context():
        before = {s.id: s.declarer_tally for s in db.session.scalars(db.select(TableSession))}
        standings = ops.tournament_standings(db.session.get(Tournament, key))
        db.session.remove()
    assert any(tally.get("won") for tally in before.values())
    runner = migrated.test_cli_runner()
    for args in (["db", "downgrade", "9e4f5a6b7c8d"], ["db", "upgrade"]):
        result = runner.invoke(args=args)
        assert result.exit_code == 0, result.output + repr(result.exception)
    with migrated.app_context():
        after = {s.id: s.declarer_tally for s in db.session.scalars(db.select(TableSession))}
        stored = db.session.get(Tournament, key)
        assert after == before
        assert ops.tournament_standings(stored) == standings == ops.fresh_standings(stored)
        db.session.remove()


def test_lines_stored_as_english_text_become_messages_once(migrated):
    """35d74af2d862 restates the explanation lines a release before 2026-12 stored as plain
    English: every live hand of such a table gets the messages a fresh fold gives (said in
    German after it), a struck hand and the other tables are left as they are, and a table
    the rules refuse to fold again keeps its lines."""
    client = migrated.test_client()
    players = ["Anton", "Berta", "Christl"]
    body = {"game": "haferltarock", "system": "parlett-units", "players": players}
    keys = [client.post("/api/v1/sessions", json=body).get_json()["key"] for _ in range(3)]
    hands = [
        {"declarer": "Anton", "contract": "hand", "bid": 76, "points": 83},
        {"declarer": "Berta", "contract": "frage", "points": 50},
        {"declarer": "Christl", "contract": "frage", "points": 70},
    ]
    for key in keys:
        for hand in hands:
            assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
    version = client.get(f"/api/v1/sessions/{keys[0]}/hands/2").get_json()["version"]
    assert client.delete(f"/api/v1/sessions/{keys[0]}/hands/2?version={version}").status_code == 204
    old_text = [{"text": "hand game won, bid 76, took 83", "units": 2}]
    with migrated.app_context():
        ids = {s.key: s.id for s in db.session.scalars(db.select(TableSession))}
        fresh = {
            r.number: r.explanation
            for r in db.session.scalars(
                db.select(HandRecord).where(HandRecord.session_id == ids[keys[0]])
            )
        }
        plain = db.session.scalars(
            db.select(HandRecord).where(HandRecord.session_id.in_([ids[keys[0]], ids[keys[2]]]))
        )
        for record in plain:
            record.explanation = old_text
        # keys[2]: a rule refuses its hands now (an unknown contract): its lines stay
        record = db.session.scalar(
            db.select(HandRecord).where(
                HandRecord.session_id == ids[keys[2]], HandRecord.number == 3
            )
        )
        record.facts = {**record.facts, "contract": "no-such-contract"}
        db.session.commit()
        untouched = {
            r.id: r.explanation
            for r in db.session.scalars(
                db.select(HandRecord).where(HandRecord.session_id == ids[keys[1]])
            )
        }
        db.session.remove()
    runner = migrated.test_cli_runner()
    for args in (["db", "downgrade", "a1b2c3d4e5f6"], ["db", "upgrade"]):
        result = runner.invoke(args=args)
        assert result.exit_code == 0, result.output + repr(result.exception)
    with migrated.app_context():
        by_table = {}
        for record in db.session.scalars(db.select(HandRecord).order_by(HandRecord.number)):
            by_table.setdefault(record.session_id, {})[record.number] = record
        first = by_table[ids[keys[0]]]
        assert {n: r.explanation for n, r in first.items() if not r.voided} == {
            n: fresh[n] for n in (1, 3)
        }
        assert first[2].voided and first[2].explanation == old_text
        assert all(r.explanation == old_text for r in by_table[ids[keys[2]]].values())
        assert {r.id: r.explanation for r in by_table[ids[keys[1]]].values()} == untouched
        db.session.remove()
    german = client.get(f"/api/v1/sessions/{keys[0]}", headers={"Accept-Language": "de"})
    assert german.get_json()["hands"][0]["explanation"][0]["text"].startswith("Handspiel")
