"""Tournament pages: the organiser's tournaments, rounds, draws, tables and standings."""

from flask import Blueprint

bp = Blueprint("tournaments", __name__)

from scorer.tournaments import routes  # noqa: E402,F401
