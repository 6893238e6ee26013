"""The season report of a Stammtisch group: the season table, each member's running
balance as a chart, one line per evening, and the Haferl's history. As a PDF (printed
like the tournament lists) and as CSV rows (one per evening and member)."""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from typing import Any

from flask import render_template

from scorer import groups
from scorer.domain import GAMES, SYSTEMS
from scorer.domain.money import format_euros
from scorer.exports.chart import balance_chart_svg
from scorer.exports.data import safe_cell
from scorer.exports.pdf import html_to_pdf, local_time, printed_now
from scorer.groups import evening_nets
from scorer.models import Group, TableSession

HAFERL_WORDS = {
    "pot_out": "ein Abend nimmt das Haferl mit",
    "pot_back": "zurück ins Haferl nach dem Abend",
    "season_close": "Saisonende: das Haferl wird verteilt",
    "paid": "gesammelte Abrechnung bezahlt",
    "rename": "Mitglied umbenannt",
}


def closed_evenings(group: Group, season: int) -> list[TableSession]:
    return [s for s in groups.evenings(group, season) if s.closed]


def season_series(
    members: Sequence[str], evenings: Sequence[TableSession]
) -> tuple[list[str], dict[str, list[int]]]:
    """Each member's running balance after each evening (0 before the first); members who
    did not play are left out."""
    running = groups.running_balances(members, evenings)
    nets = [evening_nets(s) for s in evenings]
    played = [m for m in members if any(m in n for n in nets)]
    return played, {m: running[m] for m in played}


def season_pdf(group: Group, season: int) -> bytes:
    evenings = closed_evenings(group, season)
    players, series = season_series(group.members, evenings)
    chart = balance_chart_svg(players, series, axis="Abend")
    history = [
        {
            "at": local_time(e.at).strftime("%d.%m.%Y"),
            "what": HAFERL_WORDS.get(e.action, e.action),
            "cents": format_euros(e.data["cents"]) if "cents" in e.data else "",
        }
        for e in groups.history(group)
        if e.season == season and e.action in ("pot_out", "pot_back", "season_close")
    ]
    html = render_template(
        "exports/season.html",
        group=group,
        season=season,
        game=GAMES[group.game],
        system=SYSTEMS[group.system],
        standings=groups.standings(group, season),
        evenings=[
            {
                "date": local_time(s.created_at).strftime("%d.%m.%Y"),
                "name": s.name,
                "nets": evening_nets(s),
            }
            for s in evenings
        ],
        players=players,
        chart_uri="data:image/svg+xml;base64," + base64.b64encode(chart.encode()).decode(),
        history=history,
        money=lambda cents: format_euros(cents, signed=True),
        printed=printed_now(),
    )
    return html_to_pdf(html, "print-lists.css")


CSV_HEADER = ("season", "date", "evening", "player", "cents", "euros")


def season_csv_rows(group: Group, season: int) -> Iterator[Sequence[Any]]:
    """One row per evening and player of the season: what he won or lost that evening."""
    yield CSV_HEADER
    for session in closed_evenings(group, season):
        day = local_time(session.created_at).date().isoformat()
        for player, cents in evening_nets(session).items():
            euros = format_euros(cents, signed=True).removesuffix(" €")
            yield (season, day, session.key, safe_cell(player), cents, euros)
