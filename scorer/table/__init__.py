"""The table pages: start, new table, the table itself, its hands and the settle-up."""

from flask import Blueprint

bp = Blueprint("table", __name__)

from scorer.table import routes  # noqa: E402,F401
