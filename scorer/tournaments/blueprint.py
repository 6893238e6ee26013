"""The `tournaments` blueprint, which its route modules register on."""

from flask import Blueprint

bp = Blueprint("tournaments", __name__)
