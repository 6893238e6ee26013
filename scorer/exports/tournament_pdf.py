"""Printed tournament papers: the table assignments of a round, blank score sheets for
each table (for when a tablet dies) and the standings with a column per round."""

from __future__ import annotations

import re

from flask import render_template

from scorer.domain import GAMES, SYSTEMS
from scorer.exports.pdf import html_to_pdf, printed_now
from scorer.models import Tournament, TournamentRound
from scorer.tournament_operations import tournament_standings

BLANK_LINES = 4
"""Spare lines on a blank sheet beyond the planned hands (for a replayed deal)."""


def natural(name: str) -> list[object]:
    """Sort key that puts 'Spieler 2' before 'Spieler 10'."""
    return [int(part) if part.isdigit() else part.casefold() for part in re.split(r"(\d+)", name)]


def assignments_pdf(round_: TournamentRound) -> bytes:
    tournament = round_.tournament
    by_name = sorted(
        ((name, t.number) for t in round_.tables for name in t.session.players),
        key=lambda seat: (natural(seat[0]), seat[0]),
    )
    html = render_template(
        "exports/tournament_assignments.html",
        tournament=tournament,
        round_=round_,
        game=GAMES[tournament.game],
        by_name=by_name,
        printed=printed_now(),
    )
    return html_to_pdf(html, "print-lists.css")


def blank_sheets_pdf(round_: TournamentRound) -> bytes:
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
    html = render_template(
        "exports/tournament_blank_sheets.html",
        tournament=tournament,
        round_=round_,
        game=game,
        system=SYSTEMS[tournament.system],
        tables=tables,
        printed=printed_now(),
    )
    return html_to_pdf(html, "print-lists.css")


def standings_pdf(tournament: Tournament) -> bytes:
    html = render_template(
        "exports/tournament_standings.html",
        tournament=tournament,
        game=GAMES[tournament.game],
        system=SYSTEMS[tournament.system],
        standings=tournament_standings(tournament),
        printed=printed_now(),
        rounds_played=len(tournament.round_list),
    )
    return html_to_pdf(html, "print-lists.css")
