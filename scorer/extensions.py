"""The Flask extensions, unbound; `create_app` binds them. And the app's `desk`."""

from typing import cast

from flask import current_app
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_wtf import CSRFProtect

from scorer.reports.desk import Desk

migrate = Migrate()
csrf = CSRFProtect()
login_manager = LoginManager()
compress = Compress()
"""Pages, JSON, scripts and styles go out compressed to a browser that accepts it (gzip or
deflate over plain http): a pub's Wi-Fi carries a tenth of the bytes."""
limiter = Limiter(key_func=get_remote_address, default_limits=[])
"""Its storage is the setting RATELIMIT_STORAGE_URI: memory by default (one process),
Redis or Memcached where several processes must share the counts."""


NEW_TABLES = limiter.shared_limit(
    "20 per minute; 200 per hour",
    scope="new-tables",
    methods=["POST"],
    exempt_when=lambda: rate_limits_off(),
)
"""New tables per address, from the page and the API together: a club evening opens a
handful; a script that opens thousands is refused (429)."""
IMPORTS = limiter.shared_limit(
    "10 per minute; 60 per hour",
    scope="imports",
    methods=["POST"],
    exempt_when=lambda: rate_limits_off(),
)
OPEN_BY_CODE = limiter.shared_limit(
    "10 per minute; 60 per hour",
    scope="open-by-code",
    methods=["POST"],
    deduct_when=lambda response: response.status_code == 422,
    exempt_when=lambda: rate_limits_off(),
)
"""Codes typed on the start page that open no table, per address: a player who mistypes
tries again; a script that guesses short codes is refused (429) long before it finds one."""
PDFS = limiter.shared_limit(
    "20 per minute; 200 per hour", scope="pdfs", exempt_when=lambda: rate_limits_off()
)
"""PDFs per address, every kind together (score sheets, season reports, tournament
papers): a fresh one takes seconds of the printer."""


def rate_limits_off() -> bool:
    """Per app: `RATE_LIMITS = False` (tests) exempts its requests. Flask-Limiter's own
    switch lives on the shared Limiter object, so a second app would flip it for all."""
    return not current_app.config.get("RATE_LIMITS", True)


def desk() -> Desk:
    """Where this app makes its papers (templates, static files, the PDF cache)."""
    return cast(Desk, current_app.extensions["desk"])
