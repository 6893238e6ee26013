"""Routes of the exports: the CSV and JSON files of an evening, and the import of a JSON
export through the API and through an upload page.

An import replays the file through `scorer.services.tables` (create, record each hand, void
the voided ones, close) in the request's one transaction: if anything is wrong, nothing
is written.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from typing import Any

from flask import (
    Response,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user
from flask_wtf.file import FileField, FileRequired
from werkzeug.utils import secure_filename
from werkzeug.wrappers.response import Response as BaseResponse

from scorer.api import answers
from scorer.api.contract import WRITES, described
from scorer.api.errors import error_response
from scorer.api.schema import body_bytes
from scorer.api.sessions import answer_store_errors, serve_sessions_by_key, session_to_json
from scorer.domain import GAMES, RuleError
from scorer.domain.limits import MAX_ARCHIVE_BYTES, MAX_UPLOAD_BYTES
from scorer.domain.message import msg
from scorer.domain.registry import Game
from scorer.exports.blueprint import bp, session_files
from scorer.extensions import IMPORTS, PDFS, csrf, desk
from scorer.formats.archive import (
    GROUP_FORMAT,
    TOURNAMENT_FORMAT,
    archive_format,
    parse_group_archive,
)
from scorer.formats.archive_tournament import parse_tournament_archive
from scorer.formats.evening import (
    MalformedDocument,
    load_document,
    parse_import,
)
from scorer.i18n.catalogue import say, say_error
from scorer.i18n.reader import file_language
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l
from scorer.i18n.words import speaking
from scorer.reports.pdf import score_sheet
from scorer.reports.spreadsheet import csv_rows
from scorer.services import archives, table_ledger, tables, tournament_archives
from scorer.services.tournaments import TournamentError
from scorer.store.errors import Conflict
from scorer.store.models import Group, TableSession, Tournament
from scorer.web.forms import Form


class ImportForm(Form):
    # Here rather than in a forms.py: the one form of this blueprint.
    file = FileField(_l("Choose a file"), validators=[FileRequired(_l("Please choose a file."))])


serve_sessions_by_key(session_files)
answer_store_errors(bp)


@bp.errorhandler(RuleError)
def rule_error(exc: RuleError):
    return error_response(422, "validation", msg("the file cannot be imported"), fields=exc.fields)


# --- exports ---------------------------------------------------------------------------


@session_files.get("/export.csv")
@described("The evening as CSV", {200: ("CSV", None)}, refusals=(404, 429))
def export_csv():
    """The spreadsheet in the reader's language (`file_language`): semicolons and decimal
    commas as a German spreadsheet opens it, commas and decimal points in English; the byte
    order mark tells it the file is UTF-8."""
    session = g.session
    lang = file_language()
    rows = csv_rows(session, table_ledger.hands_of(session), lang)
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


@session_files.get("/export.json")
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
    """An ASCII file name made of the table's name and date: nothing a header or a file
    system could misread ('Bär & Co' → 'haferl-Bar_Co-2024-05-01.csv')."""
    slug = secure_filename(session.name)[:40].strip("._-") or "abend"
    day = session.created_at.date().isoformat()
    return f'attachment; filename="haferl-{slug}-{day}.{extension}"'


# --- import ----------------------------------------------------------------------------


def _import(raw: bytes) -> TableSession:
    """Parse, check and replay a file; commit, or roll back and re-raise on any error."""
    document = load_document(raw)
    if not isinstance(document, dict):
        raise MalformedDocument(msg("the file must be a JSON object (a Haferl session export)"))
    return tables.import_session(parse_import(document))


@bp.post("/api/v1/sessions/import")
@described(
    "Import a JSON export as a new table",
    {201: ("The session", answers.Session)},
    body=dict,
    refusals=(*WRITES, 409),
)
@IMPORTS
def import_session():
    raw = body_bytes()
    if len(raw) > MAX_UPLOAD_BYTES:
        return error_response(
            413, "too_large", msg("at most %(count)s bytes", count=MAX_UPLOAD_BYTES)
        )
    try:
        session = _import(raw)
    except MalformedDocument as exc:
        return error_response(400, "malformed_json", say_error(exc))
    return jsonify(session_to_json(session)), 201


# A script posts a file with nothing but the JSON; the key of the new session is the
# answer, so there is no session of the caller's that a forged request could write to.
csrf.exempt(import_session)


class LogInFirst(Exception):
    """A tournament's file came to the import page from someone not logged in."""


def _import_any(raw: bytes) -> TableSession | Group | Tournament:
    """An evening's file, or a group's or tournament's archive (`scorer.formats.archive`), made
    anew and committed, or nothing at all. A tournament becomes the logged-in organiser's."""
    document = load_document(raw)
    kind = archive_format(document)
    if kind == GROUP_FORMAT:
        group = parse_group_archive(document)
        return archives.import_group(group)
    if kind == TOURNAMENT_FORMAT:
        if not current_user.is_authenticated:
            raise LogInFirst()
        tournament = parse_tournament_archive(document)
        return tournament_archives.import_tournament(current_user, tournament)
    return tables.import_session(parse_import(document))


@bp.route("/import", methods=["GET", "POST"])
@IMPORTS
def import_page():
    """One page for every Haferl file: an evening, a Stammtisch's or a tournament's."""
    form = ImportForm()
    if form.validate_on_submit():
        raw = form.file.data.stream.read(MAX_ARCHIVE_BYTES + 1)
        try:
            if len(raw) > MAX_ARCHIVE_BYTES:
                raise RuleError.one("file", msg("too large"))
            made = _import_any(raw)
        except MalformedDocument:
            form.file.errors.append(NOT_HAFERL)
        except LogInFirst:
            form.file.errors.append(
                _("A tournament is imported by its organiser: please log in first.")
            )
        except RuleError as exc:
            form.file.errors.extend(import_errors(exc))
        except (Conflict, TournamentError) as exc:
            form.file.errors.append(say_error(exc))
        else:
            return imported(made)
    status = 422 if request.method == "POST" else 200
    return render_template("exports/import.html", form=form), status


def imported(made: TableSession | Group | Tournament) -> BaseResponse:
    """Where an import takes the person who uploaded the file: what it made."""
    if isinstance(made, Group):
        flash(
            _(
                "Stammtisch “%(name)s” imported with every evening: a new group with its own link.",
                name=made.name,
            ),
            "info",
        )
        return redirect(url_for("stammtisch.group", group_key=made.key))
    if isinstance(made, Tournament):
        flash(
            _("Tournament “%(name)s” imported: it is one of your tournaments now.", name=made.name),
            "info",
        )
        return redirect(url_for("tournaments.show", tournament_id=made.id))
    flash(_("Evening “%(name)s” imported: a new table with its own link.", name=made.name), "info")
    return redirect(url_for("table.table", key=made.key))


NOT_HAFERL = _l("This file is not a Haferl file.")
MAX_DETAILS = 5


def import_errors(exc: RuleError) -> list[str]:
    """The import's field messages for the upload page: a headline in the reader's
    language, then the first few details (the rules engine's messages said in the reader's
    language; the file checks of `scorer.formats.evening` are the API's English)."""
    if "document" in exc.fields or "format" in exc.fields:
        return [str(NOT_HAFERL)]
    if "file" in exc.fields:
        megabytes = MAX_UPLOAD_BYTES // (1024 * 1024)
        return [_("The file is too large: at most %(megabytes)s MB.", megabytes=megabytes)]
    if "version" in exc.fields:
        said = [say(message) for message in exc.fields["version"]]
        return [_("This Haferl file comes from another version and cannot be read."), *said]
    details = [
        f"{field}: {say(message)}" for field, messages in exc.fields.items() for message in messages
    ]
    return [_("This file cannot be imported."), *details[:MAX_DETAILS]]


# --- PDFs ------------------------------------------------------------------------------


@session_files.get("/export.pdf")
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
