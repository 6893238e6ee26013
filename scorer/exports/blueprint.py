"""The `exports` blueprint, which its route modules register on, and the one nested in it
for an evening's files under the API's address, `/api/v1/sessions/<key>/export.*`
(`exports.session_files.*`): only these turn the key into the table."""

from flask import Blueprint

bp = Blueprint("exports", __name__)
session_files = Blueprint("session_files", __name__, url_prefix="/api/v1/sessions/<key>")
bp.register_blueprint(session_files)
