"""The `auth` blueprint, which its route modules register on."""

from flask import Blueprint

bp = Blueprint("auth", __name__, url_prefix="/veranstalter")
