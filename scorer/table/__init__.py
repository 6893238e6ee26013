"""The table pages: start, new table, the table itself, its hands and the settle-up."""

from scorer.table import evening_pages, hand_pages, routes  # noqa: F401 (registers the routes)
from scorer.table.blueprint import bp

__all__ = ["bp"]
