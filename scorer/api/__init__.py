"""The JSON API (v1): the same application as the pages, for scripts. See API.md."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from scorer.api import archives, errors, groups, openapi, routes, sessions, tournaments  # noqa: E402,F401
