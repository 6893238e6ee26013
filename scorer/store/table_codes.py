"""A table's short code: what a second device types on the start page instead of the key.

Eight characters of Crockford's base32 (digits and letters without I, L, O and U), shown
as two groups of four ("K7M3-QXZ9"): case does not matter, and the look-alikes I and L
read as 1, O as 0. 40 random bits: with a thousand tables open at once a guess finds one
once in a billion tries, and the start page counts the misses of each address (see
`scorer.extensions.OPEN_BY_CODE`). A code opens a table only while it is open; the page it
opens carries the table's full key, which stays the permission to write.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select

from scorer.domain.message import msg
from scorer.store.database import db
from scorer.store.errors import NotFound
from scorer.store.models import TableSession

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
LOOK_ALIKES = str.maketrans({"I": "1", "L": "1", "O": "0"})
SEPARATORS = str.maketrans("", "", " -_.·")


def new_code() -> str:
    """A fresh code, as stored (no separator)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def unused_code() -> str:
    """A fresh code no stored table has (a clash is a one-in-a-billion chance; a second
    draw makes it one in a billion billion)."""
    while True:
        code = new_code()
        taken = db.session.scalar(select(TableSession.id).where(TableSession.short_code == code))
        if taken is None:
            return code


def shown(code: str) -> str:
    """The code as the table page shows it: "K7M3-QXZ9"."""
    return f"{code[:4]}-{code[4:]}"


def normalized(text: str) -> str | None:
    """What was typed, as stored; None when it cannot be a code."""
    code = text.upper().translate(SEPARATORS).translate(LOOK_ALIKES)
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def open_table_by_code(text: str) -> TableSession:
    """The open table with this code; `NotFound` for any other (a closed table's code opens
    nothing)."""
    code = normalized(text)
    table = None
    if code is not None:
        table = db.session.scalar(
            select(TableSession).where(
                TableSession.short_code == code, TableSession.closed_at.is_(None)
            )
        )
    if table is None:
        raise NotFound(msg("no open table with this code"))
    return table
