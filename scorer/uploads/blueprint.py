"""The `uploads` blueprint, which its route module registers on."""

from flask import Blueprint

bp = Blueprint("uploads", __name__)
