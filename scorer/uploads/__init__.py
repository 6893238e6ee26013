"""The upload page for any Haferl file (an evening, a Stammtisch, a tournament)."""

from scorer.uploads import routes  # noqa: F401 (registers the routes)
from scorer.uploads.blueprint import bp

__all__ = ["bp"]
