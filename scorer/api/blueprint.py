"""The `api` blueprint, which its route modules register on, and the two nested in it for
the routes of one table, `/api/v1/sessions/<key>/…` (`api.table.*`), and of one group,
`/api/v1/groups/<group_key>/…` (`api.group.*`): only these turn the key into the table
(`scorer.api.sessions.serve_sessions_by_key`) or the group (`scorer.api.groups`)."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
table_bp = Blueprint("table", __name__, url_prefix="/sessions/<key>")
group_bp = Blueprint("group", __name__, url_prefix="/groups/<group_key>")
bp.register_blueprint(table_bp)
bp.register_blueprint(group_bp)
