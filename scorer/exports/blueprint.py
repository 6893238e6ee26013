"""The `exports` blueprint, which its route modules register on."""

from flask import Blueprint

bp = Blueprint("exports", __name__)
