"""The JSON API (v1): the same application as the pages, for scripts. See API.md."""

from scorer.api import archives, errors, groups, openapi, routes, sessions, tournaments  # noqa: F401 (registers the routes)
from scorer.api.blueprint import bp

__all__ = ["bp"]
