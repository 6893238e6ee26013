"""Organiser accounts: sign-up (only while nobody has one), log in, log out (the command
that creates one is `scorer.cli`)."""

from scorer.auth import routes  # noqa: F401 (registers the routes)
from scorer.auth.blueprint import bp

__all__ = ["bp"]
