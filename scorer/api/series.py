"""The cup over a season in the API: an organiser makes a series (HTTP Basic); its table
is public by its key (`GET /api/v1/series/{key}/standings`). Its archive (the settings, the
log of names and every tournament's archive) is the organiser's, and imports as a new
series of whoever imports it."""

from __future__ import annotations

from typing import Any

from flask import jsonify, url_for

from scorer.api import answers, bodies
from scorer.api.archives import ARCHIVE, archive_response, uploaded_archive
from scorer.api.blueprint import bp
from scorer.api.contract import WRITES, described, read_body
from scorer.api.errors import ApiError
from scorer.api.tournaments import organiser
from scorer.domain.message import msg
from scorer.domain.series_commands import new_series, rename_player
from scorer.extensions import IMPORTS
from scorer.formats.archive_series import parse_series_archive
from scorer.services import series as cups
from scorer.services import series_archives
from scorer.store.database import db
from scorer.store.errors import NotFound
from scorer.store.models import Series


@bp.post("/series")
@described(
    "Create a series (a cup over a season of tournaments)",
    {201: ("The series", answers.NewSeries)},
    body=bodies.NewSeries,
    refusals=(*WRITES, 401),
    basic=True,
)
def create_series():
    who = organiser()
    body = read_body(bodies.NewSeries)
    command = new_series(
        body.name,
        cup_points=body.cup_points,
        best_of=body.best_of,
        final_carry=body.final_carry,
        tie_breaks=body.tie_breaks,
    )
    made = cups.create_series(who, command)
    answer = answers.NewSeries(
        id=made.id,
        key=made.key,
        standings_url=url_for("api.series_standings", key=made.key, _external=True),
    )
    return jsonify(answer.as_json()), 201


def rows_to_json(table: cups.Table) -> list[dict[str, Any]]:
    return [
        answers.SeriesRow(
            place=row.place,
            player=row.player,
            points=row.points,
            results=[
                answers.CupResult(
                    tournament=r.tournament,
                    place=r.place,
                    cup_points=r.cup_points,
                    counted=r.counted,
                )
                for r in row.results
            ],
        ).as_json()
        for row in table.rows
    ]


@bp.get("/series/<key>/standings")
@described("A series' table (public)", {200: ("Rows", [answers.SeriesRow])}, refusals=(404,))
def series_standings(key: str):
    try:
        found = cups.public_series(key)
    except NotFound:
        raise ApiError(404, "not_found", msg("no such series")) from None
    return jsonify(rows_to_json(cups.series_table(found)))


def own(series_id: int):
    found = db.session.get(Series, series_id)
    if found is None or found.organiser_id != organiser().id:
        raise ApiError(404, "not_found", msg("no such series"))
    return found


@bp.post("/series/<n:series_id>/names")
@described(
    "Rename a player in the series, or merge two spellings of one person",
    {201: ("The line of the series' log of names", answers.NameLine)},
    body=bodies.Rename,
    refusals=(*WRITES, 401, 404, 409),
    basic=True,
)
def rename(series_id: int):
    found = own(series_id)
    body = read_body(bodies.Rename)
    command = rename_player(body.from_, body.into, played=cups.played_in(found))
    line = cups.rename(found, command, by=organiser().name)
    return jsonify(answers.NameLine(**line).as_json()), 201


@bp.get("/series/<n:series_id>/names")
@described(
    "The series' log of names (renames and merges), oldest first",
    {200: ("Lines", [answers.NameLine])},
    refusals=(401, 404),
    basic=True,
)
def names(series_id: int):
    return jsonify([answers.NameLine(**line).as_json() for line in own(series_id).names])


@bp.get("/series/<n:series_id>/archive.json")
@described(
    "The series and every one of its tournaments as one file (haferl-series, version 1)",
    {200: (ARCHIVE, None)},
    refusals=(401, 404),
    basic=True,
)
def series_archive(series_id: int):
    found = own(series_id)
    return archive_response(
        series_archives.series_archive(found),
        f"cup-{found.name}",
        found.created_at.date().isoformat(),
    )


@bp.post("/series/import")
@described(
    "A series' archive made anew as the caller's series, new keys: every tournament "
    "imported and made part of it, the series table worked out again",
    {201: ("The series", answers.NewSeries)},
    body=dict,
    refusals=(*WRITES, 401, 409),
    basic=True,
)
@IMPORTS
def series_import():
    who = organiser()
    archive = parse_series_archive(uploaded_archive())
    made = series_archives.import_series(who, archive)
    answer = answers.NewSeries(
        id=made.id,
        key=made.key,
        standings_url=url_for("api.series_standings", key=made.key, _external=True),
    )
    return jsonify(answer.as_json()), 201
