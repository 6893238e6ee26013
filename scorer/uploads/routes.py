"""The upload page, `/import`: one page for every Haferl file (an evening's JSON export, a
Stammtisch's or a tournament's archive), each made anew in the request's one transaction:
if anything is wrong, nothing is written. (A script posts the same files to the API:
`scorer.api.archives`.)
"""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf.file import FileField, FileRequired
from werkzeug.wrappers.response import Response as BaseResponse

from scorer.domain import RuleError
from scorer.domain.limits import MAX_ARCHIVE_BYTES, MAX_UPLOAD_BYTES
from scorer.domain.message import msg
from scorer.extensions import IMPORTS
from scorer.formats.archive import (
    GROUP_FORMAT,
    TOURNAMENT_FORMAT,
    archive_format,
    parse_group_archive,
)
from scorer.formats.archive_tournament import parse_tournament_archive
from scorer.formats.evening import MalformedDocument, load_document, parse_import
from scorer.i18n.catalogue import say, say_error
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l
from scorer.services import archives, tables, tournament_archives
from scorer.services.tournaments import TournamentError
from scorer.store.errors import Conflict
from scorer.store.models import Group, TableSession, Tournament
from scorer.uploads.blueprint import bp
from scorer.web.forms import Form


class ImportForm(Form):
    # Here rather than in a forms.py: the one form of this blueprint.
    file = FileField(_l("Choose a file"), validators=[FileRequired(_l("Please choose a file."))])


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
    return render_template("uploads/import.html", form=form), status


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
