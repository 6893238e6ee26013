"""The pages of a Stammtisch group: the group itself, a new evening in one tap, a member's
statistics, the season report."""

from scorer.stammtisch import routes  # noqa: F401 (registers the routes)
from scorer.stammtisch.blueprint import bp

__all__ = ["bp"]
