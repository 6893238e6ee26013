"""Names people type: players, tables, tournaments, organisers.

One rule for all of them: Unicode NFC, runs of white space made one space, trimmed, and
no control, format or separator characters. Format characters include the bidi overrides
(U+202A–U+202E, U+2066–U+2069) that can turn "Anton zahlt Berta" around on the screen
and the zero-width characters that make two names look alike; such a name is refused
with a message rather than quietly changed, so what is stored is what was meant.

Two names are one name when a reader could take one for the other (`same_name`): equal but
for case ("anton", "Anton"), or alike letter for letter once compatibility forms are
folded (NFKC: fullwidth "Ａnton") and each letter is replaced by a representative of the
letters Unicode lists as confusable with it (Unicode TR 39's confusables, from the
confusable-homoglyphs package: Greek "Αnton", Cyrillic "Аnton"). On a sheet they could not
be told apart, so wherever names must differ, such a pair is refused, naming both.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache

from confusable_homoglyphs import confusables

from scorer.domain.message import Msg, msg
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


def same_name(one: str, other: str) -> bool:
    """Whether a reader could take `one` for `other` (see the module's docstring)."""
    return any(a == b for a, b in zip(_keys(one), _keys(other), strict=True))


def look_alike(names: Iterable[str]) -> tuple[str, str] | None:
    """The first two of `names` that are one name (`same_name`), or None."""
    seen: dict[tuple[int, str], str] = {}
    for name in names:
        keys = list(enumerate(_keys(name)))
        for key in keys:
            if key in seen:
                return seen[key], name
        seen.update((key, name) for key in keys)
    return None


def alike_message(one: str, other: str) -> Msg:
    if one == other:
        return msg("'%(name)s' is named twice", name=one)
    return msg(
        "'%(name)s' and '%(other)s' look alike: choose names that can be told apart",
        name=one,
        other=other,
    )


def _keys(name: str) -> tuple[str, str, str]:
    """What two names that are one name share at least one of: the name case folded, and
    its skeleton as written and case folded."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return folded, _skeleton(name), _skeleton(folded)


def _skeleton(name: str) -> str:
    prototypes = _prototypes()
    text = unicodedata.normalize("NFKC", name)
    return "".join(prototypes.get(letter, letter) for letter in text)


@cache
def _prototypes() -> dict[str, str]:
    """Each letter that Unicode lists as confusable with another, mapped to one letter of
    its set (the lowest): the sets joined wherever one letter is confusable with two."""
    parent: dict[str, str] = {}

    def root(letter: str) -> str:
        while parent.get(letter, letter) != letter:
            letter = parent[letter]
        return letter

    for letter, alikes in confusables.confusables_data.items():
        for alike in alikes:
            if len(letter) == 1 and len(alike["c"]) == 1:
                a, b = root(letter), root(alike["c"])
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {letter: root(letter) for letter in parent}
