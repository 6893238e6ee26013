"""The season report of a Stammtisch group: the season table, each member's running
balance as a chart, one line per evening, and the Haferl's history. As a PDF (printed
like the tournament lists) and as CSV rows (one per evening and member), both in the
language the web layer chose (`scorer.i18n.words.speaking`)."""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from typing import Any

from scorer.domain import GAMES, SYSTEMS
from scorer.i18n.formats import euros
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l
from scorer.i18n.words import speaking
from scorer.reports.chart import balance_chart_svg
from scorer.reports.desk import Desk
from scorer.reports.paper import Clock, page_footer_css
from scorer.reports.printing import printed, version_of
from scorer.reports.spreadsheet import safe_cell, spreadsheet_number
from scorer.services import groups, seasons
from scorer.services.seasons import evening_nets
from scorer.store.models import Group, TableSession

HAFERL_WORDS = {
    "pot_out": _l("an evening takes the Haferl along"),
    "pot_back": _l("back into the Haferl after the evening"),
    "season_close": _l("end of the season: the Haferl is shared out"),
    "paid": _l("collected settle-up paid"),
    "rename": _l("member renamed"),
}


def closed_evenings(group: Group, season: int) -> list[TableSession]:
    return [s for s in groups.evenings(group, season) if s.closed]


def season_series(
    members: Sequence[str], evenings: Sequence[TableSession]
) -> tuple[list[str], dict[str, list[int]]]:
    """Each member's running balance after each evening (0 before the first); members who
    did not play are left out."""
    running = seasons.running_balances(members, evenings)
    nets = [evening_nets(s) for s in evenings]
    played = [m for m in members if any(m in n for n in nets)]
    return played, {m: running[m] for m in played}


def season_chart(players: Sequence[str], series: dict[str, list[int]]) -> str:
    """The season's chart (SVG) in the reader's language: an evening per step."""
    return balance_chart_svg(
        players,
        series,
        axis=_("Evening"),
        label=_("Balance after each evening"),
        value_text=euros,
    )


def season_pdf(group: Group, season: int, lang: str, *, desk: Desk) -> bytes:
    """The season report in `lang`, printed once per version of the group and its evenings
    (`scorer.reports.printing`)."""

    def html() -> str:
        with speaking(lang):
            return _season_html(group, season, desk)

    version = version_of(season, group.name, group.members, *groups.live_version(group))
    return printed(
        desk,
        f"saison-{group.key}-{season}",
        version,
        lang=lang,
        html=html,
        stylesheet="print-lists.css",
    )


def _season_html(group: Group, season: int, desk: Desk) -> str:
    evenings = closed_evenings(group, season)
    players, series = season_series(group.members, evenings)
    chart = season_chart(players, series)
    history = [
        {
            "at": desk.clock.long_date(e.at),
            "what": str(HAFERL_WORDS.get(e.action, e.action)),
            "cents": euros(e.data["cents"]) if "cents" in e.data else "",
        }
        for e in groups.history(group)
        if e.season == season and e.action in ("pot_out", "pot_back", "season_close")
    ]
    return desk.render(
        "exports/season.html",
        group=group,
        season=season,
        game=GAMES[group.game],
        system=SYSTEMS[group.system],
        standings=seasons.standings(group, season),
        evenings=[
            {
                "date": desk.clock.long_date(s.created_at),
                "name": s.name,
                "nets": evening_nets(s),
            }
            for s in evenings
        ],
        players=players,
        chart_uri="data:image/svg+xml;base64," + base64.b64encode(chart.encode()).decode(),
        history=history,
        money=lambda cents: euros(cents, signed=True),
        printed=desk.clock.printed_now(),
        page_footer=page_footer_css(),
    )


CSV_HEADER = ("season", "date", "evening", "player", "cents", "euros")
"""The columns' ids; the download titles them in the reader's language
(`scorer.web.downloads.COLUMN_TITLES`)."""


def season_csv_rows(
    group: Group, season: int, clock: Clock, *, lang: str = "de"
) -> Iterator[Sequence[Any]]:
    """One row per evening and player of the season: what he won or lost that evening, in
    euros as a spreadsheet in `lang` reads a number ('-1,20', '-1.20')."""
    yield CSV_HEADER
    for session in closed_evenings(group, season):
        day = clock.local(session.created_at).date().isoformat()
        for player, cents in evening_nets(session).items():
            amount = spreadsheet_number(cents, lang)
            yield (season, day, session.key, safe_cell(player), cents, amount)
