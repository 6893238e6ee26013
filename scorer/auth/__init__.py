"""Organiser accounts: sign-up (only while nobody has one), log in, log out, and the
`flask scorer create-organiser` command."""

from flask import Blueprint

bp = Blueprint("auth", __name__, url_prefix="/veranstalter", cli_group="scorer")

from scorer.auth import routes  # noqa: E402,F401
