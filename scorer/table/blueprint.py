"""The `table` blueprint, which its route modules register on."""

from flask import Blueprint

bp = Blueprint("table", __name__)
