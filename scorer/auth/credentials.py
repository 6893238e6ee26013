"""Checking an organiser's e-mail and password, for the login form and for HTTP Basic.

- **Failures are counted per account and per address** (10 a minute, 50 an hour, each),
  in Flask-Limiter's storage: the process's memory under `make run` (one process), Redis
  or Memcached when `RATELIMIT_STORAGE_URI` names one for several processes. Once either
  count is full, even the right password is refused until the window passes: guessing
  gets nowhere, and one attacker's address does not lock out the others.
- **Unknown addresses take as long as known ones**: a dummy hash is checked instead.
"""

from __future__ import annotations

from flask import current_app, request
from flask_limiter.util import get_remote_address
from limits import parse_many
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from scorer.extensions import db, limiter
from scorer.models import Organiser

FAILURE_LIMITS = parse_many("10/minute;50/hour")
_DUMMY_HASH = generate_password_hash("no account has this password")


class TooManyFailures(Exception):
    """Too many wrong passwords for this account or from this address: wait."""


def check(email: str, password: str) -> Organiser | None:
    """The organiser with this e-mail and password, or None. Raises TooManyFailures
    (before looking at the password) when the account or the address has failed too
    often; a wrong password counts as one more failure for both."""
    email = (email or "").strip().lower()
    buckets = _buckets(email)
    counting = current_app.config.get("RATE_LIMITS", True)
    if counting and any(
        not limiter.limiter.test(limit, *bucket) for limit in FAILURE_LIMITS for bucket in buckets
    ):
        raise TooManyFailures
    organiser = db.session.scalar(select(Organiser).where(Organiser.email == email))
    if organiser is None:
        check_password_hash(_DUMMY_HASH, password or "")
    elif organiser.check_password(password or ""):
        return organiser
    if counting:
        for limit in FAILURE_LIMITS:
            for bucket in buckets:
                limiter.limiter.hit(limit, *bucket)
    return None


def from_basic_auth() -> Organiser | None:
    """The organiser named by the request's HTTP Basic credentials, or None."""
    auth = request.authorization
    if auth is None or auth.type != "basic" or not auth.username or not auth.password:
        return None
    return check(auth.username, auth.password)


def _buckets(email: str) -> list[tuple[str, str]]:
    return [("login-failures-account", email[:200]), ("login-failures-address", _address())]


def _address() -> str:
    return get_remote_address() or "unknown"
