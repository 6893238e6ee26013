"""Archive API: a Stammtisch's or a tournament's whole history as one JSON file
(`scorer.formats.archive`), and the import of such a file into a new group or tournament;
the import of an evening's JSON export (`scorer.api.session_files`) as a new table.

A group's archive is read and imported by whoever holds its key, as every group request;
a tournament's by its organiser (HTTP Basic), and an imported tournament belongs to the
organiser who imports it."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, g, jsonify

from scorer.api import answers
from scorer.api.blueprint import bp, group_bp
from scorer.api.contract import WRITES, described
from scorer.api.errors import ApiError, error_response
from scorer.api.groups import group_to_json
from scorer.api.schema import body_bytes
from scorer.api.sessions import session_to_json
from scorer.api.tournaments import organiser, own, tournament_to_json
from scorer.domain import RuleError
from scorer.domain.limits import MAX_UPLOAD_BYTES
from scorer.domain.message import msg
from scorer.extensions import IMPORTS
from scorer.formats.archive import (
    parse_group_archive,
)
from scorer.formats.archive_tournament import parse_tournament_archive
from scorer.formats.evening import MalformedDocument, load_document, parse_import
from scorer.i18n.catalogue import say_error
from scorer.services import archives, tables, tournament_archives
from scorer.web.downloads import attachment


def archive_response(document: dict[str, Any], name: str, day: str) -> Response:
    """The archive as a download: compact JSON (a file of years), an ASCII file name."""
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    return Response(
        body.encode("utf-8"),
        content_type="application/json",
        headers={"Content-Disposition": attachment(name, "json", day=day)},
    )


def uploaded_archive() -> Any:
    """The request's JSON document (up to MAX_ARCHIVE_BYTES: `app.ARCHIVE_UPLOADS`); 400
    when it is not JSON."""
    try:
        return load_document(body_bytes())
    except MalformedDocument as exc:
        raise ApiError(400, "malformed_json", exc.args[0]) from None


ARCHIVE = "The archive (formats.archive), as a download"


@group_bp.get("/archive.json")
@described(
    "The group's whole history as one file (format haferl-group, version 1)",
    {200: (ARCHIVE, None)},
    refusals=(404,),
)
def group_archive():
    group = g.group
    return archive_response(
        archives.group_archive(group),
        f"stammtisch-{group.name}",
        group.created_at.date().isoformat(),
    )


@bp.post("/groups/import")
@described(
    "A group's archive made anew under a new key: every evening's hands and the group's "
    "history replayed, every amount worked out again",
    {201: ("The group", answers.Group)},
    body=dict,
    refusals=(*WRITES, 409),
)
@IMPORTS
def group_import():
    archive = parse_group_archive(uploaded_archive())
    group = archives.import_group(archive)
    return jsonify(group_to_json(group)), 201


@bp.get("/tournaments/<n:tournament_id>/archive.json")
@described(
    "The tournament's rounds and tables as one file (haferl-tournament, version 1)",
    {200: (ARCHIVE, None)},
    refusals=(401, 404),
    basic=True,
)
def tournament_archive(tournament_id: int):
    tournament = own(tournament_id)
    return archive_response(
        tournament_archives.tournament_archive(tournament),
        tournament.name,
        tournament.day.isoformat(),
    )


@bp.post("/tournaments/import")
@described(
    "A tournament's archive made anew as the caller's tournament, new keys",
    {201: ("The tournament", answers.Tournament)},
    body=dict,
    refusals=(*WRITES, 401, 409),
    basic=True,
)
@IMPORTS
def tournament_import():
    who = organiser()
    archive = parse_tournament_archive(uploaded_archive())
    tournament = tournament_archives.import_tournament(who, archive)
    return jsonify(tournament_to_json(tournament)), 201


@bp.post("/sessions/import")
@described(
    "Import a JSON export as a new table",
    {201: ("The session", answers.Session)},
    body=dict,
    refusals=(*WRITES, 409),
)
@IMPORTS
def session_import():
    """An evening's file (at most MAX_UPLOAD_BYTES) replayed as a new table in the
    request's one transaction: if anything is wrong, nothing is written."""
    raw = body_bytes()
    if len(raw) > MAX_UPLOAD_BYTES:
        return error_response(
            413, "too_large", msg("at most %(count)s bytes", count=MAX_UPLOAD_BYTES)
        )
    try:
        document = load_document(raw)
        if not isinstance(document, dict):
            raise MalformedDocument(msg("the file must be a JSON object (a Haferl session export)"))
        session = tables.import_session(parse_import(document))
    except MalformedDocument as exc:
        return error_response(400, "malformed_json", say_error(exc))
    except RuleError as exc:
        return error_response(
            422, "validation", msg("the file cannot be imported"), fields=exc.fields
        )
    return jsonify(session_to_json(session)), 201
