"""Exports and imports of a table's evening: the PDF score sheet, CSV and JSON files."""

from flask import Blueprint

bp = Blueprint("exports", __name__)

from scorer.exports import routes  # noqa: E402,F401
