"""Money: integer cents, exact rates, the one rounding function and the euro format."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Literal

Rounding = Literal["up5", "nearest5", "none"]
ROUNDINGS: tuple[Rounding, ...] = ("up5", "nearest5", "none")


def round_cents(amount: Fraction | int, rounding: Rounding = "none") -> int:
    """Round an exact, non-negative amount of cents once, to the step the table plays with.

    `up5`: up to the next multiple of 5; `nearest5`: nearest multiple of 5, halves up;
    `none`: to the nearest whole cent, halves up.
    """
    amount = Fraction(amount)
    if amount < 0:
        raise ValueError("round_cents takes non-negative amounts")
    if rounding == "up5":
        return 5 * math.ceil(amount / 5)
    if rounding == "nearest5":
        return 5 * math.floor(amount / 5 + Fraction(1, 2))
    return math.floor(amount + Fraction(1, 2))


class Cents(int):
    """An amount of money to be shown: the reader's locale writes it in euros."""


EUROS = re.compile(r"(\d{1,7})(?:[.,](\d{1,2}))?")
"""An amount as a person types it: whole euros, or euros and cents after a comma or point."""


def cents_from_euros(text: str) -> int | None:
    """'15', '15,5', '15.50' or '15 €' as integer cents (1500, 1550, 1550); None for
    anything else (a third decimal, a sign, letters)."""
    match = EUROS.fullmatch(text.replace("€", "").strip())
    if match is None:
        return None
    euros, cents = match.group(1), (match.group(2) or "").ljust(2, "0")
    return int(euros) * 100 + int(cents)
