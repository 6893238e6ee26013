"""Small checks on raw input shared by the API, the pages and the import (a link back into
the site is the web's: `scorer.web.links`)."""

from __future__ import annotations

from typing import Any, TypeGuard

from scorer.domain.limits import MAX_IDEMPOTENCY_KEY
from scorer.domain.message import msg
from scorer.domain.model import RuleError


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


def whole_number(text: str | None) -> int | None:
    """A non-negative whole number typed in ASCII digits, or None ('²' is not a number)."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 12:
        return None
    return int(text)


def is_whole(value: object) -> TypeGuard[int]:
    """Whether `value` is a whole number as a JSON document sends one: an int, never a bool
    (which Python counts as a number). The one such check; `whole_number_in` says it."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number_in(value: object, field: str, *, low: int, high: int) -> int:
    """`value` as sent in a JSON body: a whole number `low..high` (`is_whole`), or a
    RuleError on `field`."""
    if not is_whole(value) or not low <= value <= high:
        raise RuleError.one(
            field, msg("must be a whole number %(low)s..%(high)s", low=low, high=high)
        )
    return value


def idempotency_key(value: str | None) -> str | None:
    """An `Idempotency-Key` header as sent (None when none was): 1..200 characters, no NUL."""
    if value is not None and (not 0 < len(value) <= MAX_IDEMPOTENCY_KEY or "\x00" in value):
        raise RuleError.one("Idempotency-Key", msg("must have 1..200 characters"))
    return value
