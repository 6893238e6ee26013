"""A finished tournament or a series published as a small static website, and its
standings as a spreadsheet (CSV), without Flask.

The website is a zip: `index.html`, the standings (`tabelle.html`), one page per round of
a tournament (`runde-N.html`) or per finished tournament of a series (`turnier-N.html`),
and one style sheet (`site.css`). No script and nothing from elsewhere: every link names a
file in the zip, so the pages open from a folder, a USB stick or any web space. Each page
names the club (the organiser) and a tournament's pages carry its rules block and mark
(`exports/_rules.html`). The pages are said in the language `scorer.i18n.words.speaking`
chose; the CSV's column titles and separator too (as `scorer.web.downloads.csv_response`
writes an evening's).
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

from scorer.domain import GAMES, SYSTEMS
from scorer.i18n.words import gettext as _
from scorer.i18n.words import speaking
from scorer.reports.desk import Desk
from scorer.reports.spreadsheet import safe_cell
from scorer.reports.tournament_pdf import round_tables, rules_of
from scorer.services import director
from scorer.services.series import Table
from scorer.services.tournaments import tournament_standings
from scorer.store.models import Series, Tournament

STYLE = "site.css"
"""The one style sheet of a site, beside its pages."""

SEPARATORS = {"de": ";", "en": ","}
"""A German spreadsheet splits a line at semicolons (the comma is its decimal mark)."""

ZIP_MOMENT = (1980, 1, 1, 0, 0, 0)
"""The time stamp of a zip's files when nothing better is known (the zip format's first)."""


def round_page(number: int) -> str:
    return f"runde-{number}.html"


def tournament_page(number: int) -> str:
    return f"turnier-{number}.html"


def tournament_site(tournament: Tournament, club: str, lang: str, *, desk: Desk) -> bytes:
    """A finished tournament's website: its overview with the rules, its final standings
    and one page per round with each table's players and points."""
    rounds = round_tables(tournament)
    with speaking(lang):
        links = [("index.html", _("Overview")), ("tabelle.html", _("Standings"))]
        links += [(round_page(n), _("Round %(number)s", number=n)) for n, _tables in rounds]
        common = {
            "club": club,
            "tournament": tournament,
            "long_date": desk.clock.long_date,
            "game": GAMES[tournament.game],
            "system": SYSTEMS[tournament.system],
            "links": links,
            **rules_of(tournament),
        }
        pages = {
            "index.html": desk.render("site/tournament.html", here="index.html", **common),
            "tabelle.html": desk.render(
                "site/standings.html",
                here="tabelle.html",
                standings=tournament_standings(tournament),
                reasons=director.reasons(tournament),
                rounds_played=len(rounds),
                **common,
            ),
        }
        for number, tables in rounds:
            pages[round_page(number)] = desk.render(
                "site/round.html", here=round_page(number), number=number, tables=tables, **common
            )
        pages[STYLE] = desk.render("site/site.css")
    return zipped(pages, tournament.finished_at)


def series_site(series: Series, table: Table, club: str, *, lang: str, desk: Desk) -> bytes:
    """A series' website: its overview, its cup table and one page per finished
    tournament (the final too once it is finished) with that tournament's standings and
    rules."""
    played = [*table.tournaments, *([table.final] if table.final is not None else [])]
    with speaking(lang):
        links = [("index.html", _("Overview")), ("tabelle.html", _("Cup table"))]
        links += [(tournament_page(n), t.name) for n, t in enumerate(played, start=1)]
        common = {
            "club": club,
            "series": series,
            "table": table,
            "played": played,
            "long_date": desk.clock.long_date,
            "links": links,
        }
        pages = {
            "index.html": desk.render("site/series.html", here="index.html", **common),
            "tabelle.html": desk.render("site/series_table.html", here="tabelle.html", **common),
        }
        for number, tournament in enumerate(played, start=1):
            pages[tournament_page(number)] = desk.render(
                "site/series_tournament.html",
                here=tournament_page(number),
                tournament=tournament,
                game=GAMES[tournament.game],
                system=SYSTEMS[tournament.system],
                standings=tournament_standings(tournament),
                **rules_of(tournament),
                **common,
            )
        pages[STYLE] = desk.render("site/site.css")
    moments = [t.finished_at for t in played if t.finished_at is not None]
    return zipped(pages, max(moments) if moments else None)


def zipped(files: dict[str, str], moment: datetime | None) -> bytes:
    """`files` (name: text) as a zip, each file stamped with `moment` (the same site is
    the same bytes)."""
    stamp = moment.timetuple()[:6] if moment is not None else ZIP_MOMENT
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=stamp), text.encode("utf-8"))
    return buffer.getvalue()


# --- the standings as CSV ---------------------------------------------------------------


def tournament_csv_rows(tournament: Tournament) -> Iterator[Sequence[Any]]:
    """The column titles (in the current language), then one row per player: place,
    name, the points of each round, the adjustment, the total."""
    yield (
        _("Place"),
        _("Player"),
        *(_("R%(number)s", number=n) for n in range(1, tournament.rounds + 1)),
        _("Adj."),
        _("Points"),
    )
    for s in tournament_standings(tournament):
        yield (s.place, safe_cell(s.player), *s.per_round, s.adjustment, s.total)


def series_csv_rows(table: Table) -> Iterator[Sequence[Any]]:
    """The column titles, then one row per player: place, name, the cup points of each
    tournament of the season (empty where he did not play), the series' points."""
    yield (_("Place"), _("Player"), *(safe_cell(t.name) for t in table.tournaments), _("Points"))
    for row in table.rows:
        by_number = {r.number: r.cup_points for r in row.results}
        cups = (by_number.get(n, "") for n in range(1, len(table.tournaments) + 1))
        yield (row.place, safe_cell(row.player), *cups, row.points)


def csv_file(rows: Iterable[Sequence[Any]], lang: str) -> bytes:
    """Rows as a spreadsheet in `lang` opens them: semicolons in German, commas in
    English, UTF-8 with a byte order mark; the rows are made (and said) in `lang`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=SEPARATORS.get(lang, ";"), lineterminator="\r\n")
    with speaking(lang):
        writer.writerows(rows)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")
