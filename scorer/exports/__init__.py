"""Exports and imports of a table's evening: the PDF score sheet, CSV and JSON files."""

from scorer.exports import routes  # noqa: F401 (registers the routes)
from scorer.exports.blueprint import bp

__all__ = ["bp"]
