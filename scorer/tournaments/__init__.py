"""Tournament pages: the organiser's tournaments, rounds, draws, tables and standings."""

from scorer.tournaments import director_pages, door_pages, routes, series_pages  # noqa: F401 (registers the routes)
from scorer.tournaments.blueprint import bp

__all__ = ["bp"]
