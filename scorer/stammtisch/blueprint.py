"""The `stammtisch` blueprint, which its route modules register on."""

from flask import Blueprint

bp = Blueprint("stammtisch", __name__)
