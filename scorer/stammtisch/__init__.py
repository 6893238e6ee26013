"""The pages of a Stammtisch group: the group itself, a new evening in one tap, a member's
statistics, the season report."""

from flask import Blueprint

bp = Blueprint("stammtisch", __name__)

from scorer.stammtisch import routes  # noqa: E402,F401
