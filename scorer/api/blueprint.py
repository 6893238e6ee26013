"""The `api` blueprint, which its route modules register on."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
