"""Printed tournament papers: the table assignments of a round, blank score sheets for
each table (for when a tablet dies) and the standings with a column per round, each in
the reader's language (`scorer.exports.pdf.in_language`)."""

from __future__ import annotations

import re

from flask import render_template

from scorer.domain import GAMES, SYSTEMS
from scorer.exports.pdf import html_to_pdf, in_language, long_date, page_footer_css, printed_now
from scorer.models import Tournament, TournamentRound
from scorer.tournament_operations import tournament_standings

BLANK_LINES = 4
"""Spare lines on a blank sheet beyond the planned hands (for a replayed deal)."""


def natural(name: str) -> list[object]:
    """Sort key that puts 'Spieler 2' before 'Spieler 10'."""
    return [int(part) if part.isdigit() else part.casefold() for part in re.split(r"(\d+)", name)]


def _render(template: str, lang: str | None, **context) -> bytes:
    """A list rendered in `lang` (default: the reader's), then laid out as a PDF."""
    with in_language(lang):
        html = render_template(
            template,
            printed=printed_now(),
            page_footer=page_footer_css(),
            long_date=long_date,
            **context,
        )
    return html_to_pdf(html, "print-lists.css")


def assignments_pdf(round_: TournamentRound, lang: str | None = None) -> bytes:
    tournament = round_.tournament
    by_name = sorted(
        ((name, t.number) for t in round_.tables for name in t.session.players),
        key=lambda seat: (natural(seat[0]), seat[0]),
    )
    return _render(
        "exports/tournament_assignments.html",
        lang,
        tournament=tournament,
        round_=round_,
        game=GAMES[tournament.game],
        by_name=by_name,
    )


def blank_sheets_pdf(round_: TournamentRound, lang: str | None = None) -> bytes:
    tournament = round_.tournament
    game = GAMES[tournament.game]
    tables = [
        {
            "number": t.number,
            "players": t.session.players,
            "lines": range(1, t.session.hands_planned + 1 + BLANK_LINES),
            "planned": t.session.hands_planned,
            # Who deals hand n: the deal passes in seat order from the first dealer.
            "dealers": [
                t.session.players[(n - 1) % len(t.session.players)]
                for n in range(1, t.session.hands_planned + 1 + BLANK_LINES)
            ],
        }
        for t in round_.tables
    ]
    return _render(
        "exports/tournament_blank_sheets.html",
        lang,
        tournament=tournament,
        round_=round_,
        game=game,
        system=SYSTEMS[tournament.system],
        tables=tables,
    )


def standings_pdf(tournament: Tournament, lang: str | None = None) -> bytes:
    return _render(
        "exports/tournament_standings.html",
        lang,
        tournament=tournament,
        game=GAMES[tournament.game],
        system=SYSTEMS[tournament.system],
        standings=tournament_standings(tournament),
        rounds_played=len(tournament.round_list),
    )
