"""Money: integer cents, exact rates, the one rounding function and the euro format."""

from __future__ import annotations

import math
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
