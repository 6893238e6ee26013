"""The table pages: start, new table, the table itself, its hands and the settle-up."""

from scorer.table import (  # noqa: F401 (registers the routes)
    evening_pages,
    hand_pages,
    page_token,
    routes,
)
from scorer.table.blueprint import bp

__all__ = ["bp"]
