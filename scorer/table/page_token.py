"""What a table page open all evening needs to keep writing: a fresh form token.

A Stammtisch takes an hour's break; the token a page was served with expires after
`WTF_CSRF_TIME_LIMIT` (an hour by default; `SCORER_WTF_CSRF_TIME_LIMIT` sets it). The page
asks here for a fresh one while it is in sight (every third of the lifetime, and when it
comes back into sight or online), and once more, silently, when a write is refused for its
token. The token is Flask-WTF's own, tied to the browser's session as every other: a
fresh one gives nothing a page of this browser did not have already.
"""

from __future__ import annotations

from flask import current_app, jsonify
from flask_wtf.csrf import generate_csrf

from scorer.table.blueprint import bp

SHORTEST_RENEWAL_S = 1
"""The page asks at most this often (a lifetime of a few seconds, in the tests)."""


def renew_in_s() -> int:
    """When a page asks for a fresh token: after a third of a token's lifetime."""
    lifetime = current_app.config.get("WTF_CSRF_TIME_LIMIT") or 3600
    return max(int(lifetime) // 3, SHORTEST_RENEWAL_S)


@bp.get("/t/<key>/formular-token")
def page_token():
    """`{"csrf_token": …, "renew_in_s": …}`: the token for the page's forms and when to ask
    again. Never cached: each answer is signed now."""
    response = jsonify(csrf_token=generate_csrf(), renew_in_s=renew_in_s())
    response.headers["Cache-Control"] = "no-store"
    return response
