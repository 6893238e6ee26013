"""Small checks on raw input shared by the API, the pages and the import."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote, urlsplit

from scorer.domain import RuleError
from scorer.domain.limits import MAX_IDEMPOTENCY_KEY
from scorer.domain.message import msg

PATH_SAFE = "/:@!$&'()*+,;=-._~"
"""What stays as it is in a path given back in a link (RFC 3986's path characters); the
rest, a backslash, a tab or a newline among them, is percent-encoded."""


def contains_nul(document: Any) -> bool:
    """Whether any text in a parsed JSON document holds a NUL (PostgreSQL refuses them).
    A loop, not recursion: JSON may nest deeper than Python's recursion limit."""
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return True
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def site_path(path: str) -> str:
    """A decoded `path` (the request's, or the referrer's) as a path on this site only:
    encoded, so that no backslash, tab or newline remains for a browser to read as `//`,
    and with one leading slash, so that no `//host` leaves the site."""
    encoded = quote(path, safe=PATH_SAFE)
    return "/" + encoded.lstrip("/")


def site_referrer(referrer: str | None, host: str) -> str | None:
    """The page of this site the request came from (path and query), or None when it came
    from elsewhere or from nowhere."""
    came_from = urlsplit(referrer or "")
    if came_from.netloc != host or not came_from.path.startswith("/"):
        return None
    query = f"?{came_from.query}" if came_from.query else ""
    return site_path(unquote(came_from.path)) + query


def whole_number(text: str | None) -> int | None:
    """A non-negative whole number typed in ASCII digits, or None ('²' is not a number)."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 12:
        return None
    return int(text)


def idempotency_key(value: str | None) -> str | None:
    """An `Idempotency-Key` header as sent (None when none was): 1..200 characters, no NUL."""
    if value is not None and (not 0 < len(value) <= MAX_IDEMPOTENCY_KEY or "\x00" in value):
        raise RuleError.one("Idempotency-Key", msg("must have 1..200 characters"))
    return value
