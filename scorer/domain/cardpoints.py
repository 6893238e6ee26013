"""Card points: counting a Bavarian pile (0..120), counting a Tarock pile in threes
(0..70), and the declarer's points from the defenders'."""

from __future__ import annotations

import math
from fractions import Fraction

from scorer.domain.message import msg
from scorer.domain.model import RuleError
from scorer.domain.validation import is_whole

BAVARIAN_VALUES = {"aces": 11, "tens": 10, "kings": 4, "obers": 3, "unters": 2}
"""Ace 11, Ten 10, King 4, Ober 3, Unter 2; 9-8-7-6 nothing. Four of each in the pack."""
BAVARIAN_MOST = 4

TAROCK_VALUES = {"honours_kings": 5, "queens": 4, "cavaliers": 3, "jacks": 2}
"""Kings and the three honours 5, Queens 4, Cavaliers 3, Jacks 2, every other card 1."""
TAROCK_MAX = {"honours_kings": 7, "queens": 4, "cavaliers": 4, "jacks": 4}
TAROCK_CARDS = 54


def bavarian_points(counts: dict[str, int]) -> int:
    """Points of a pile from the counts of Aces, Tens, Kings, Obers and Unters in it."""
    errors = {}
    for name in counts:
        if name not in BAVARIAN_VALUES:
            errors[name] = [msg("not a counting card")]
    for name in BAVARIAN_VALUES:
        n = counts.get(name, 0)
        if not is_whole(n) or not 0 <= n <= BAVARIAN_MOST:
            errors[name] = [msg("must be 0..%(maximum)s", maximum=BAVARIAN_MOST)]
    if errors:
        raise RuleError(errors)
    return sum(BAVARIAN_VALUES[name] * counts.get(name, 0) for name in BAVARIAN_VALUES)


def tarock_points(counts: dict[str, int], cards: int) -> int:
    """Points of a pile counted in threes: sum of card values − ⅔ per card, rounded to
    the nearest whole point (the fraction is always ⅓ or ⅔)."""
    errors = {}
    for name in counts:
        if name not in TAROCK_VALUES:
            errors[name] = [msg("not a counting card")]
    for name, top in TAROCK_MAX.items():
        n = counts.get(name, 0)
        if not is_whole(n) or not 0 <= n <= top:
            errors[name] = [msg("must be 0..%(maximum)s", maximum=top)]
    if errors:
        raise RuleError(errors)
    counted = sum(counts.get(name, 0) for name in TAROCK_VALUES)
    if not is_whole(cards) or not counted <= cards <= TAROCK_CARDS:
        raise RuleError.one(
            "cards",
            msg(
                "must be %(counted)s..%(all)s: every card won, the counted ones included",
                counted=counted,
                all=TAROCK_CARDS,
            ),
        )
    value = sum(TAROCK_VALUES[name] * counts.get(name, 0) for name in TAROCK_VALUES)
    value += cards - counted  # every other card counts 1
    exact = value - Fraction(2, 3) * cards
    return math.floor(exact + Fraction(1, 2))


def calculator(counting: str) -> dict[str, tuple[int, int]]:
    """The hand form's card-count calculator for a game counting `counting` ("bavarian", or
    in threes): per field, the value of one card and how many there are (the page gives
    them to static/js/counter.js, which adds them up as the two functions above do, on
    every key; the server's sum decides). `cards`, in threes: every card won, value 0."""
    if counting == "bavarian":
        return {name: (value, BAVARIAN_MOST) for name, value in BAVARIAN_VALUES.items()}
    fields = {name: (value, TAROCK_MAX[name]) for name, value in TAROCK_VALUES.items()}
    return fields | {"cards": (0, TAROCK_CARDS)}


def declarer_points(defender_points: int, total: int) -> int:
    """The declarer's points when the defenders' points are entered instead."""
    if not 0 <= defender_points <= total:
        raise RuleError.one("defender_points", msg("must be 0..%(maximum)s", maximum=total))
    return total - defender_points
