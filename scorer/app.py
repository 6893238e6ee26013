"""The application factory of Haferl: `create_app` reads defaults, then
`instance/config.py` if present, then `SCORER_*` environment variables, then the test
mapping, and binds the extensions and blueprints.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from flask import Flask, abort, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.routing import BaseConverter

from scorer import cli, security
from scorer.domain.limits import MAX_ARCHIVE_BYTES, MAX_UPLOAD_BYTES
from scorer.extensions import compress, csrf, limiter, login_manager, migrate
from scorer.i18n import reader as i18n_reader
from scorer.i18n.words import gettext
from scorer.reports.desk import PDF_CACHE_BYTES, Desk
from scorer.reports.paper import TIMEZONE, Clock
from scorer.services.accounts import PASSWORD_HASH
from scorer.store import connections
from scorer.store.database import db
from scorer.store.locks import release_at_the_end, release_writer

PROJECT_ROOT = Path(__file__).resolve().parent.parent
ARCHIVE_UPLOADS = {"api.group_import", "api.tournament_import", "uploads.import_page"}
"""Where an archive is uploaded: these take bodies up to MAX_ARCHIVE_BYTES."""
POOL_SIZE = 18
"""PostgreSQL connections a server process keeps open: one for each of its threads (8 for
reads, `scorer.serve.THREADS`, and 8 for writes, `scorer.worker.WRITE_THREADS`) and two to
spare."""


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=str(PROJECT_ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=None,  # served under the version of its contents (`web.assets`)
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    _configure(app, test_config)

    @app.teardown_appcontext
    def end_write(exc: BaseException | None) -> None:
        """A request that took its turn to write gives it back, however it ended
        (registered before Flask-SQLAlchemy's, so it runs after the session is closed)."""
        release_writer()

    # Flask's default provider (typed as the base class, which has no sort_keys).
    cast(DefaultJSONProvider, app.json).sort_keys = False
    app.url_map.converters["n"] = NumberConverter
    db.init_app(app)
    with app.app_context():
        connections.prepare(db.engine)
        release_at_the_end(db.engine)
    migrate.init_app(app, db, directory=str(PROJECT_ROOT / "migrations"), render_as_batch=True)
    # The reader's language first: the refusals of the hooks after it are in it.
    i18n_reader.init_app(app)
    csrf.init_app(app)
    login_manager.init_app(app)
    limiter.init_app(app)
    compress.init_app(app)
    security.init_app(app)
    app.extensions["desk"] = Desk(
        templates=PROJECT_ROOT / "templates",
        static=PROJECT_ROOT / "static",
        cache=Path(app.config["PDF_CACHE"]),
        clock=Clock(app.config.get("TIMEZONE", TIMEZONE)),
        cache_bytes=int(app.config.get("PDF_CACHE_BYTES", PDF_CACHE_BYTES)),
    )

    from scorer import (
        api,
        web,  # noqa: F401  (models: for migrations)
    )

    _guard_bodies(app)
    app.register_blueprint(api.bp)
    web.init_app(app, static=PROJECT_ROOT / "static")
    cli.register(app)  # `flask scorer create-organiser`, `backup` and `restore`
    return app


def _configure(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """The defaults, then instance/config.py, then SCORER_* from the environment, then the
    tests' own; a secret key of the instance's where none is given."""
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{Path(app.instance_path) / 'haferl.sqlite3'}",
        SQLALCHEMY_ENGINE_OPTIONS={},
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        PDF_CACHE=str(Path(app.instance_path) / "pdf-cache"),
        PASSWORD_HASH=PASSWORD_HASH,
        RATELIMIT_STORAGE_URI="memory://",
        # Every 429 of Flask-Limiter's says when to come back (Retry-After), and a limited
        # answer how much is left (X-RateLimit-*).
        RATELIMIT_HEADERS_ENABLED=True,
        COMPRESS_MIMETYPES=[
            "text/html",
            "text/css",
            "application/json",
            "application/javascript",
            "text/javascript",
            "image/svg+xml",
        ],
        **security.DEFAULTS,
    )
    app.config.from_pyfile("config.py", silent=True)
    database_url = os.environ.get("SCORER_DATABASE_URL")
    if database_url:
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    app.config.from_prefixed_env("SCORER")
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = _driver_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # A connection for each of a server process's threads stays open: with the pool's
        # default of five, every request beyond the fifth at once opened and closed one.
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            "pool_size": POOL_SIZE,
            **app.config["SQLALCHEMY_ENGINE_OPTIONS"],
        }
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))


def _guard_bodies(app: Flask) -> None:
    """An archive's own body limit, and no NUL character near the database."""

    @app.url_value_preprocessor
    def allow_archive_uploads(endpoint: str | None, values: dict | None) -> None:
        """An archive of years may be larger than any other body: its imports get their
        own limit, set before anything (the checks below) reads the body."""
        if endpoint in ARCHIVE_UPLOADS:
            request.max_content_length = MAX_ARCHIVE_BYTES

    @app.before_request
    def refuse_nul_characters():
        """No text with NUL characters gets near the database (PostgreSQL refuses them)."""
        values = [request.path, *request.args.values(), *request.form.values()]
        if any("\x00" in value for value in values):
            abort(400, gettext("Text may not contain a NUL character."))


def _driver_url(url: str) -> str:
    """PostgreSQL URLs use psycopg 3 (the driver the project installs)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _instance_secret(instance: Path) -> str:
    """A secret key generated on first run and kept in the instance folder (never committed)."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


class NumberConverter(BaseConverter):
    """`<n:number>`: a whole number that fits the database's integer columns. Longer digit
    strings match no route (404) instead of overflowing the database."""

    regex = r"\d{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(int(value))
