"""An evening as a spreadsheet (CSV): one row per hand and player, text cells that a
spreadsheet will not run as formulas, and numbers in the form the reader's spreadsheet
reads."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from babel.numbers import get_decimal_symbol

from scorer.domain import GAMES
from scorer.i18n.catalogue import say
from scorer.i18n.words import speaking
from scorer.services.table_reads import ledger_for

if TYPE_CHECKING:
    from scorer.store.models import HandRecord, TableSession

CSV_HAND_COLUMNS = (
    "number",
    "round",
    "dealer",
    "declarer",
    "contract",
    "trump",
    "bid",
    "extras",
    "points",
    "result",
    "player",
)
"""The columns' ids, in the first row `csv_rows` yields; the download writes each
column's title in the reader's language there (`scorer.web.downloads.COLUMN_TITLES`) and the
numbers in the rows for a spreadsheet in that language. A script reads the JSON export."""
CSV_HEADER = (*CSV_HAND_COLUMNS, "cents", "euros", "pot_after_cents")
CSV_POINTS_HEADER = (*CSV_HAND_COLUMNS, "score")
"""A tournament table scores in points, not money: its sheet has the points only."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_rows(
    session: TableSession, records: Iterable[HandRecord], lang: str = "de"
) -> Iterator[Sequence[Any]]:
    """The header, then one row per live hand and player (voided hands are not in the
    ledger, so not in the sheet). Text cells are escaped against formula injection; the
    numbers are written by us and stay numbers for a spreadsheet in `lang`."""
    points_only = session.scoring == "points"
    ledger = ledger_for(session)
    has_pot = not points_only and ledger.has_pot
    seated_at = ledger.seated_at
    yield CSV_POINTS_HEADER if points_only else CSV_HEADER
    for record in records:
        if record.voided:
            continue
        facts = record.facts
        net = record.net or {}
        points = facts.get("points")
        with speaking(lang):  # Durch, no trick, the Kontra, each bonus: as the list says
            extras = " · ".join(say(extra) for extra in GAMES[session.game].extras(facts))
        for player in seated_at(record.number):
            amount = net.get(player, 0)
            row = (
                record.number,
                record.round if record.round is not None else "",
                safe_cell(record.dealer),
                safe_cell(facts.get("declarer")),
                safe_cell(facts.get("contract")),
                safe_cell(facts.get("trump")),
                safe_cell(facts.get("bid", 61)),
                safe_cell(extras),
                points if points is not None else "",
                safe_cell(record.result),
                safe_cell(player),
            )
            if points_only:
                yield (*row, amount)
            else:
                pot = record.pot_after if has_pot and record.pot_after is not None else ""
                yield (*row, amount, spreadsheet_number(amount, lang), pot)


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet will not run as a formula: a leading =, +, -, @, tab or
    carriage return gets a single quote before it. Numbers and empty cells pass."""
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def spreadsheet_number(cents: int, lang: str = "de") -> str:
    """The language's decimal mark, ASCII minus, no thousands separator and no € sign: the
    form a spreadsheet in that language reads as a number ('-1234,50', '-1234.50')."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole}{_decimal_mark(lang)}{rest:02d}"


@cache
def _decimal_mark(lang: str) -> str:
    return get_decimal_symbol(lang)
