"""Checking an organiser's e-mail and password, for the login form and for HTTP Basic.

- **Wrong passwords are counted per address and per (account, address)** (10 a minute,
  50 an hour, each), in Flask-Limiter's storage: the process's memory under `make run`
  (one process), Redis or Memcached when `RATELIMIT_STORAGE_URI` names one for several
  processes. Once either count is full, even the right password is refused from that
  address until the window passes: guessing from one address gets nowhere.
- **An account under attack from many addresses is braked, never locked**: once it has
  had `ACCOUNT_BRAKE` wrong passwords in an hour from anywhere, an address that has failed
  for it in that hour gets no further try until the hour passes. An address that has not
  failed (the organiser at her own laptop) is always let through with the right password:
  somebody else's guessing cannot lock her out of her tournament.
- **Every refusal says when to come back** (`TooManyFailures.retry_after`: seconds until
  the fullest count's window ends), for the `Retry-After` header.
- **Unknown addresses take as long as known ones**: a dummy hash is checked instead.
"""

from __future__ import annotations

import math
import time
from functools import cache

from flask import current_app, request
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse, parse_many
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from scorer.extensions import limiter
from scorer.store.database import db
from scorer.store.models import Organiser

FAILURE_LIMITS = parse_many("10/minute;50/hour")
"""Wrong passwords per address, and per (account, address)."""
ACCOUNT_BRAKE = parse("30/hour")
"""Wrong passwords for one account from anywhere before its brake holds."""
FAILED_BEFORE = parse("1/hour")
"""An address has failed for the account in the last hour when this count is full."""


@cache
def _nobodys_hash(method: str) -> str:
    """A hash by `method` that no password matches: an e-mail address without an account
    costs the check a real one costs, so the time does not tell which addresses have one."""
    return generate_password_hash("no account has this password", method=method)


class TooManyFailures(Exception):
    """Too many wrong passwords from this address (for this account or any): wait
    `retry_after` seconds."""

    def __init__(self, retry_after: int):
        super().__init__(retry_after)
        self.retry_after = retry_after


def check(email: str, password: str) -> Organiser | None:
    """The organiser with this e-mail and password, or None. Raises TooManyFailures
    (before looking at the password) while this address may not try (see the module's
    docstring); a wrong password counts as one more failure everywhere."""
    email = (email or "").strip().lower()[:200]
    counting = current_app.config.get("RATE_LIMITS", True)
    if counting:
        _refuse_while_full(email)
    organiser = db.session.scalar(select(Organiser).where(Organiser.email == email))
    if organiser is None:
        check_password_hash(_nobodys_hash(current_app.config["PASSWORD_HASH"]), password or "")
    elif organiser.check_password(password or ""):
        return organiser
    if counting:
        for limit, bucket in _counts(email):
            limiter.limiter.hit(limit, *bucket)
    return None


def _refuse_while_full(email: str) -> None:
    address, pair, account = _address_bucket(), _pair_bucket(email), _account_bucket(email)
    waits = [
        _seconds_left(limit, bucket)
        for limit in FAILURE_LIMITS
        for bucket in (address, pair)
        if _is_full(limit, bucket)
    ]
    if _is_full(ACCOUNT_BRAKE, account) and _is_full(FAILED_BEFORE, pair):
        # The brake holds until either count's window ends.
        waits.append(min(_seconds_left(ACCOUNT_BRAKE, account), _seconds_left(FAILED_BEFORE, pair)))
    if waits:
        raise TooManyFailures(max(waits))


def _counts(email: str) -> list[tuple[RateLimitItem, tuple[str, str]]]:
    """Every count a wrong password adds one to."""
    address, pair = _address_bucket(), _pair_bucket(email)
    return [
        *((limit, address) for limit in FAILURE_LIMITS),
        *((limit, pair) for limit in FAILURE_LIMITS),
        (ACCOUNT_BRAKE, _account_bucket(email)),
        (FAILED_BEFORE, pair),
    ]


def _is_full(limit: RateLimitItem, bucket: tuple[str, str]) -> bool:
    return not limiter.limiter.test(limit, *bucket)


def _seconds_left(limit: RateLimitItem, bucket: tuple[str, str]) -> int:
    reset_at = limiter.limiter.get_window_stats(limit, *bucket).reset_time
    return max(1, math.ceil(reset_at - time.time()))


def _address_bucket() -> tuple[str, str]:
    return ("login-failures-address", _address())


def _pair_bucket(email: str) -> tuple[str, str]:
    return ("login-failures-account-address", f"{email}|{_address()}")


def _account_bucket(email: str) -> tuple[str, str]:
    return ("login-failures-account", email)


def from_basic_auth() -> Organiser | None:
    """The organiser named by the request's HTTP Basic credentials, or None."""
    auth = request.authorization
    if auth is None or auth.type != "basic" or not auth.username or not auth.password:
        return None
    return check(auth.username, auth.password)


def _address() -> str:
    return get_remote_address() or "unknown"
