"""An evening's files, `/api/v1/sessions/<key>/export.*`: the spreadsheet (CSV), the JSON
export (which `POST /api/v1/sessions/import` reads back, `scorer.api.archives`) and the
score sheet (PDF), each in the reader's language. The table's key is turned into the table
by the API's table blueprint, as for every route under it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from flask import Response, g

from scorer.api.blueprint import table_bp
from scorer.api.contract import described
from scorer.domain import GAMES
from scorer.domain.registry import Game
from scorer.extensions import PDFS, desk
from scorer.i18n.catalogue import say
from scorer.i18n.reader import file_language
from scorer.i18n.words import lazy_gettext as _l
from scorer.reports.pdf import score_sheet
from scorer.reports.spreadsheet import csv_rows
from scorer.services import archives, table_reads
from scorer.store.models import TableSession
from scorer.web.downloads import attachment, csv_response


@table_bp.get("/export.csv")
@described("The evening as CSV", {200: ("CSV", None)}, refusals=(404, 429))
def export_csv():
    """The spreadsheet in the reader's language (`file_language`): semicolons and decimal
    commas as a German spreadsheet opens it, commas and decimal points in English; the byte
    order mark tells it the file is UTF-8."""
    session = g.session
    lang = file_language()
    rows = csv_rows(session, table_reads.hands_of(session), lang)
    return csv_response(said_cells(rows, GAMES[session.game]), _attachment(session, "csv"), lang)


RESULTS = {"won": _l("won"), "lost": _l("lost"), "draw": _l("draw")}


def said_cells(rows: Iterator[Sequence[Any]], game: Game) -> Iterator[Sequence[Any]]:
    """The contract and the result of each row in the reader's words (the rows hold ids);
    the header row passes as it is."""
    header = next(rows)
    yield header
    contract, result = header.index("contract"), header.index("result")
    for row in rows:
        row = list(row)
        if row[contract] in game.contracts:
            row[contract] = say(game.contracts[row[contract]])
        row[result] = str(RESULTS.get(row[result], row[result]))
        yield row


@table_bp.get("/export.json")
@described("The evening as JSON", {200: ("JSON", None)}, refusals=(404, 429))
def export_json():
    session = g.session
    document = archives.evening_export(session)
    body = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    return Response(
        body.encode("utf-8"),
        content_type="application/json",
        headers={"Content-Disposition": _attachment(session, "json")},
    )


def _attachment(session: TableSession, extension: str) -> str:
    """A file named by the table's name and date (`web.downloads.attachment`)."""
    return attachment(
        session.name, extension, day=session.created_at.date().isoformat(), fallback="abend"
    )


@table_bp.get("/export.pdf")
@described("The evening as PDF", {200: ("PDF", None)}, refusals=(404, 429))
@PDFS
def export_pdf():
    """The score sheet in the reader's language: shown in the browser's PDF viewer,
    printable from there."""
    session = g.session
    return Response(
        score_sheet(session, file_language(), desk()),
        mimetype="application/pdf",
        headers={
            "Content-Disposition": _attachment(session, "pdf").replace("attachment", "inline")
        },
    )
