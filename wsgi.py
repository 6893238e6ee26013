"""The WSGI entry point: `gunicorn wsgi:app` or `flask --app wsgi run`.

A new, empty database is migrated on start; an existing one is left to `flask db upgrade`.
"""

from flask_migrate import upgrade
from sqlalchemy import inspect

from scorer import create_app
from scorer.store.database import db

app = create_app()

with app.app_context():
    if not inspect(db.engine).has_table("alembic_version"):
        upgrade()
