"""The JSON API (v1): the same application as the pages, for scripts. See API.md."""

from scorer.api import (  # noqa: F401 (registers the routes)
    archives,
    director,
    door,
    errors,
    groups,
    openapi,
    publishing,
    routes,
    series,
    session_files,
    sessions,
    tournaments,
)
from scorer.api.blueprint import bp

__all__ = ["bp"]
