"""Files as a download: the file name a download is given (`attachment`), and a
spreadsheet in the reader's language (`csv_response`, with its column titles and
separator), as an evening's CSV and a season's are given."""

from __future__ import annotations

import csv
import io

from flask import Response
from werkzeug.utils import secure_filename

from scorer.i18n.words import lazy_gettext as _l
from scorer.i18n.words import speaking


def attachment(
    name: str, extension: str, *, day: str | None = None, fallback: str = "haferl"
) -> str:
    """The Content-Disposition of a download named by an ASCII slug of `name` (and its
    `day`): nothing a header or a file system could misread ('Bär & Co' →
    'haferl-Bar_Co-2024-05-01.csv'); `fallback` where nothing of the name is left."""
    slug = secure_filename(name)[:40].strip("._-") or fallback
    dated = f"-{day}" if day else ""
    return f'attachment; filename="haferl-{slug}{dated}.{extension}"'


SEPARATORS = {"de": ";", "en": ","}
"""A German spreadsheet splits a line at semicolons (the comma is its decimal mark)."""

COLUMN_TITLES = {
    "number": _l("No."),
    "round": _l("Round"),
    "dealer": _l("Dealer"),
    "declarer": _l("Declarer"),
    "contract": _l("Contract"),
    "trump": _l("Trump"),
    "bid": _l("Bid"),
    "extras": _l("Extras"),
    "points": _l("Card points"),
    "result": _l("Result"),
    "player": _l("Name"),
    "cents": _l("Cents"),
    "euros": _l("Euros"),
    "pot_after_cents": _l("Haferl after (cents)"),
    "score": _l("Points"),
    "season": _l("Season"),
    "date": _l("Date"),
    "evening": _l("Evening"),
}
"""The column names of the spreadsheets in the reader's language (the rows' first line
holds the columns' ids, `data.CSV_HEADER` and `season.CSV_HEADER`)."""


def csv_response(rows, disposition: str, lang: str = "de") -> Response:
    """Rows as a spreadsheet in `lang` opens them: semicolons in German, commas in English
    (the rows write their numbers for it), UTF-8 with a byte order mark. Anything said
    while the rows are written is said in `lang`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=SEPARATORS.get(lang, ";"), lineterminator="\r\n")
    rows = iter(rows)
    with speaking(lang):
        writer.writerow([str(COLUMN_TITLES.get(column, column)) for column in next(rows)])
        writer.writerows(rows)
    return Response(
        ("\ufeff" + buffer.getvalue()).encode("utf-8"),
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": disposition},
    )
