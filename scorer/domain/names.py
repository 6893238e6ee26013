"""Names people type: players, tables, tournaments, organisers.

One rule for all of them: Unicode NFC, runs of white space made one space, trimmed, and
no control, format or separator characters. Format characters include the bidi overrides
(U+202A–U+202E, U+2066–U+2069) that can turn "Anton zahlt Berta" around on the screen
and the zero-width characters that make two names look alike; such a name is refused
with a message rather than quietly changed, so what is stored is what was meant.
"""

from __future__ import annotations

import unicodedata

from scorer.domain.message import msg
from scorer.domain.model import RuleError

HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a name may not contain (control, format, surrogate, private use,
unassigned, line and paragraph separators)."""


def clean_name(value: object, field: str, limit: int) -> str:
    """`value` as a stored name, or a RuleError for `field`."""
    if not isinstance(value, str):
        raise RuleError.one(field, msg("must be text"))
    text = unicodedata.normalize("NFC", value)
    if any(unicodedata.category(c) in HIDDEN for c in text if c not in "\t\n\r"):
        raise RuleError.one(field, msg("may not contain control or invisible characters"))
    text = " ".join(text.split())
    if not 1 <= len(text) <= limit:
        raise RuleError.one(field, msg("must have 1..%(limit)s characters", limit=limit))
    return text
