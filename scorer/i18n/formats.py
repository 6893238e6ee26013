"""Numbers, money and signs as a reader in each locale reads them: the one sign rule (a true
minus for a loss, + for a gain only where asked), amounts without the euro sign on the
printed sheets, points."""

from __future__ import annotations

from contextvars import ContextVar
from decimal import Decimal
from functools import lru_cache

from babel.numbers import format_currency
from babel.numbers import format_decimal as babel_format_decimal

from scorer.i18n import words
from scorer.i18n.words import gettext as _


def sign(value: int, signed: bool = True) -> str:
    """The one sign rule: a true minus (U+2212) for a loss; a plus for a gain where `signed`
    asks for it; nothing for zero."""
    return "−" if value < 0 else "+" if signed and value > 0 else ""


def euros(cents: int, signed: bool = False) -> str:
    """Money the reader's way: 1,20 € / €1.20; `signed` adds + to a gain. A loss always
    carries a true minus sign."""
    return money(int(cents or 0), signed, words.current().locale)


@lru_cache(maxsize=4096)
def money(cents: int, signed: bool, locale: str) -> str:
    """`euros` in `locale`."""
    # An evening repeats a few amounts many times: Babel formats each one once.
    text = format_currency(Decimal(abs(cents)) / 100, "EUR", locale=locale)
    return sign(cents, signed) + text.replace("\xa0", " ")


def sheet_amount(cents: int, signed: bool = True, zero: bool = False) -> str:
    """An amount in the hand table: without the euro sign (the sheet says 'Beträge in €'),
    the locale's decimal mark ('1.234,50', '1,234.50'); a dash for nothing, unless `zero`
    asks for '0,00'."""
    if cents == 0 and not zero:
        return "–"
    return sign(cents, signed) + plain_amount(
        abs(cents), SHEET_LOCALE.get() or words.current().locale
    )


SHEET_LOCALE: ContextVar[str | None] = ContextVar("sheet_locale", default=None)
"""The locale of the sheet being built, looked up once for its thousands of amounts."""


@lru_cache(maxsize=4096)
def plain_amount(cents: int, locale: str) -> str:
    # A sheet of 2,000 hands repeats a few amounts thousands of times: each is written once.
    return babel_format_decimal(Decimal(cents) / 100, format="#,##0.00", locale=locale)


def one_decimal(value: float | Decimal) -> str:
    """A number with one decimal, the reader's way: 61,5 / 61.5."""
    return babel_format_decimal(value, format="0.0", locale=words.current().locale)


def sheet_points(value: int, signed: bool = True, zero: bool = False) -> str:
    if value == 0 and not zero:
        return "–"
    return signed_number(value, signed)


def signed_number(value: int, signed: bool) -> str:
    return f"{sign(value, signed)}{abs(value)}"


def score_text(points: int) -> str:
    """A tournament score with its sign, as printed: +7, −7, 0."""
    return signed_number(int(points or 0), signed=True)


def points_text(value: int, signed: bool = False) -> str:
    return _("%(points)s P", points=signed_number(value, signed))
