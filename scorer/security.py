"""What every response and every API request goes through: security headers, the session
cookie's flags, the proxy the server trusts, and the API's refusal of anything but JSON.

A small `after_request` rather than Flask-Talisman: five fixed headers need no extension,
and the policy is read here in one place.

- **Content-Security-Policy**: scripts, styles, fonts and images from this site only (no
  inline script or style: the templates have none), nothing framed, forms post here.
- **Cache-Control: no-store** on everything but `/static/`: pages and answers carry table
  keys and money.
- **Proxy**: `PROXY_HOPS` (0 by default) says how many reverse proxies stand in front;
  only then are `X-Forwarded-For`/`-Proto`/`-Host` believed (werkzeug's ProxyFix), so a
  client cannot pick the address its rate limits are counted on.
- **API**: a request body must be `application/json` (415), and tournament writes, the
  only API calls with an account behind them, must say so even without a body: a
  cross-site form cannot send that type, so a page the organiser visits cannot write.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import UnsupportedMediaType
from werkzeug.middleware.proxy_fix import ProxyFix

from scorer.domain.message import msg

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

WRITES = ("POST", "PUT", "PATCH", "DELETE")


DEFAULTS: dict[str, Any] = {
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "REMEMBER_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_HTTPONLY": True,
    "PROXY_HOPS": 0,
}


class SessionCookies(SecureCookieSessionInterface):
    """The session cookie is `Secure` whenever the request came over HTTPS (directly or,
    with `PROXY_HOPS`, through the proxy), without a setting to forget."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


def init_app(app: Flask) -> None:
    """`DEFAULTS` are defaults of `create_app` (settings may still change them)."""
    app.session_interface = SessionCookies()
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops
        )
    app.before_request(refuse_non_json_api_bodies)
    app.after_request(add_headers)


def refuse_non_json_api_bodies() -> None:
    if not request.path.startswith("/api/") or request.method not in WRITES:
        return
    has_body = bool(request.content_length) or "chunked" in (
        request.headers.get("Transfer-Encoding", "").lower()
    )
    tournament_write = request.path.startswith("/api/v1/tournaments") and request.method != "DELETE"
    if (has_body or tournament_write) and request.mimetype != "application/json":
        # A Msg as the description (werkzeug types it as text): error_text says it.
        raise UnsupportedMediaType(msg("send the body as application/json"))  # type: ignore[arg-type]


def add_headers(response):
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if not request.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-store"
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response
