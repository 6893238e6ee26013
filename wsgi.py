"""The WSGI entry point: `gunicorn wsgi:app` (what `make run` serves) or `flask --app wsgi
run`. It builds the app and nothing more: the database is migrated by `make run`
(`scorer.serve`, before gunicorn starts its workers) or by `flask --app wsgi db upgrade`,
never while a worker imports this.
"""

from scorer import create_app

app = create_app()
