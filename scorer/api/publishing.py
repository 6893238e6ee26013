"""Publishing through the API (HTTP Basic as the organiser): a finished tournament or a
series as a small static website (a zip, `scorer.reports.site`) and its standings as a
spreadsheet (CSV), in the reader's language (`file_language`: German unless asked)."""

from __future__ import annotations

from flask import Response

from scorer.api.blueprint import bp
from scorer.api.contract import described
from scorer.api.tournaments import AS_ORGANISER, organiser, own
from scorer.domain.message import msg
from scorer.extensions import desk
from scorer.i18n.reader import file_language
from scorer.reports import site
from scorer.services import series as cups
from scorer.services.tournaments import TournamentError
from scorer.web.downloads import attachment

SITE = "The website as a zip: index.html, the standings, a page per round, site.css"
CSV = "The standings as CSV (UTF-8 with a byte order mark)"


def download(body: bytes, content_type: str, name: str, *, extension: str) -> Response:
    """`body` as a download named by an ASCII slug of `name` ('Bär-Cup' → 'Bar-Cup')."""
    return Response(
        body,
        content_type=content_type,
        headers={"Content-Disposition": attachment(name, extension)},
    )


@bp.get("/tournaments/<n:tournament_id>/site.zip")
@described(
    "A finished tournament as a static website (no script, nothing from elsewhere)",
    {200: (SITE, None)},
    refusals=(*AS_ORGANISER, 409),
    basic=True,
)
def tournament_site(tournament_id: int):
    tournament = own(tournament_id)
    if not tournament.finished:
        raise TournamentError(msg("the tournament is not finished: publish it once it is"))
    body = site.tournament_site(tournament, tournament.organiser.name, file_language(), desk=desk())
    return download(body, "application/zip", tournament.name, extension="zip")


@bp.get("/tournaments/<n:tournament_id>/standings.csv")
@described("The standings as a spreadsheet", {200: (CSV, None)}, refusals=AS_ORGANISER, basic=True)
def tournament_csv(tournament_id: int):
    tournament = own(tournament_id)
    body = site.csv_file(site.tournament_csv_rows(tournament), file_language())
    return download(body, "text/csv; charset=utf-8", tournament.name, extension="csv")


@bp.get("/series/<n:series_id>/site.zip")
@described(
    "A series as a static website: its cup table and its finished tournaments",
    {200: (SITE, None)},
    refusals=AS_ORGANISER,
    basic=True,
)
def series_site(series_id: int):
    who = organiser()
    cup = cups.series_of(who, series_id)
    body = site.series_site(
        cup, cups.series_table(cup), who.name, lang=file_language(), desk=desk()
    )
    return download(body, "application/zip", cup.name, extension="zip")


@bp.get("/series/<n:series_id>/standings.csv")
@described(
    "A series' table as a spreadsheet", {200: (CSV, None)}, refusals=AS_ORGANISER, basic=True
)
def series_csv(series_id: int):
    cup = cups.series_of(organiser(), series_id)
    body = site.csv_file(site.series_csv_rows(cups.series_table(cup)), file_language())
    return download(body, "text/csv; charset=utf-8", cup.name, extension="csv")
