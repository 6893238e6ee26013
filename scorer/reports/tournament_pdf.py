"""Printed tournament papers: the table assignments of a round, blank score sheets for
each table (for when a tablet dies) and the standings with a column per round, each in
the language the web layer chose (`scorer.i18n.words.speaking`), each printed once
per version of what it shows (`scorer.reports.printing`): the standings per version of the standings
(`tournaments.live_version`), a round's papers per seating."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

import segno

from scorer.domain import GAMES, SYSTEMS
from scorer.domain.params import fingerprint
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l
from scorer.i18n.words import speaking
from scorer.reports.desk import Desk
from scorer.reports.paper import (
    page_footer_css,
    rules_lines,
)
from scorer.reports.printing import printed, version_of
from scorer.services import cash, director
from scorer.services.tournaments import (
    live_version,
    round_seats,
    tables_in_order,
    tournament_standings,
)
from scorer.store.models import TableSession, Tournament, TournamentRound, TournamentTable

BLANK_LINES = 4
"""Spare lines on a blank sheet beyond the planned hands (for a replayed deal)."""


def natural(name: str) -> list[object]:
    """Sort key that puts 'Spieler 2' before 'Spieler 10'."""
    return [int(part) if part.isdigit() else part.casefold() for part in re.split(r"(\d+)", name)]


def _render(
    desk: Desk,
    name: str,
    version: str,
    *,
    template: str,
    lang: str,
    context: Callable[[], dict[str, Any]],
) -> bytes:
    """Paper `name` at `version`: a list rendered in `lang`, laid out as a PDF once per
    version and language. `context` is read only when this version is printed: a paper
    printed before costs the request its version and the file."""

    def html() -> str:
        with speaking(lang):
            return desk.render(
                template,
                printed=desk.clock.printed_now(),
                page_footer=page_footer_css(),
                long_date=desk.clock.long_date,
                **context(),
            )

    return printed(desk, name, version, lang=lang, html=html, stylesheet="print-lists.css")


Scores = list[tuple[str, int]]
"""Each player of a table with the points he scored there."""


def round_tables(tournament: Tournament) -> list[tuple[int, list[tuple[int, Scores]]]]:
    """Each round's tables with what each player scored there: the final results' detail."""
    rows = tables_in_order(
        tournament,
        TournamentRound.number,
        TournamentTable.number,
        TableSession.players,
        TableSession.state,
    )
    rounds: dict[int, list[tuple[int, Scores]]] = {}
    for round_number, table_number, players, state in rows:
        balances = state.get("balances", {})
        scores = [(name, int(balances.get(name, 0))) for name in players]
        rounds.setdefault(round_number, []).append((table_number, scores))
    return list(rounds.items())


TIE_BREAK_NAMES = {
    "wins": _l("more games won as declarer"),
    "best_round": _l("the better best round"),
    "fewest_losses": _l("fewer games lost as declarer"),
    "last_round": _l("the better last round"),
    "draw": _l("the drawn order"),
}


def tie_break_text(tournament: Tournament) -> str:
    """How equal totals are decided, in the reader's words."""
    names = [str(TIE_BREAK_NAMES[name]) for name in tournament.tie_breaks]
    if not names:
        return _("On equal points, players share the place.")
    return _("On equal points: %(order)s.", order=_(", then ").join(names))


def rules_of(tournament: Tournament) -> dict[str, Any]:
    """The tournament's rules block (`exports/_rules.html`): every parameter and the mark,
    and how equal totals are decided."""
    game, system = GAMES[tournament.game], SYSTEMS[tournament.system]
    return {
        "rules": rules_lines(game, system, tournament.params, points=True, has_pot=False),
        "fingerprint": fingerprint(tournament.game, tournament.system, tournament.params),
        "tie_break_text": tie_break_text(tournament),
    }


def _round_version(round_: TournamentRound) -> str:
    """What a round's papers show: the tournament, the round, who sits where (a swap of
    seats is a new version) and who has a bye. Not the hands: the tables' versions would
    print the same papers again after every hand. One read for all the round's tables,
    so that a paper printed before costs no read per table."""
    tournament = round_.tournament
    seats = round_seats(round_)
    return version_of(
        tournament.name,
        tournament.day,
        tournament.game,
        tournament.system,
        round_.number,
        round_.byes,
        seats,
    )


def assignments_pdf(round_: TournamentRound, lang: str, desk: Desk) -> bytes:
    tournament = round_.tournament

    def context() -> dict[str, Any]:
        by_name = seats_by_name(round_)
        return {
            "tournament": tournament,
            "round_": round_,
            "game": GAMES[tournament.game],
            "by_name": by_name,
            **rules_of(tournament),
        }

    return _render(
        desk,
        f"turnier-{tournament.key}-runde-{round_.number}-tische",
        _round_version(round_),
        template="exports/tournament_assignments.html",
        lang=lang,
        context=context,
    )


def seats_by_name(round_: TournamentRound) -> list[tuple[str, int]]:
    """Every player of the round with the number of his table, in the order of the names."""
    return sorted(
        ((name, t.number) for t in round_.tables for name in t.session.players),
        key=lambda seat: (natural(seat[0]), seat[0]),
    )


def cards_pdf(
    round_: TournamentRound, lang: str, desk: Desk, *, table_url: Callable[[str], str]
) -> bytes:
    """One A6 card per table: its number, its players in seating order, the QR code of its
    table page (`table_url` of its key), and the rules' mark."""
    tournament = round_.tournament

    def context() -> dict[str, Any]:
        cards = [(t, qr_data_uri(table_url(t.session.key))) for t in round_.tables]
        return {"tournament": tournament, "round_": round_, "cards": cards, **rules_of(tournament)}

    return _render(
        desk,
        f"turnier-{tournament.key}-runde-{round_.number}-karten",
        _round_version(round_),
        template="exports/tournament_cards.html",
        lang=lang,
        context=context,
    )


def qr_data_uri(url: str) -> str:
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


def blank_sheets_pdf(round_: TournamentRound, lang: str, desk: Desk) -> bytes:
    tournament = round_.tournament

    def context() -> dict[str, Any]:
        tables = [
            {
                "number": t.number,
                "players": t.session.players,
                # A tournament's table always has its planned hands (`hands_for`).
                "lines": range(1, cast(int, t.session.hands_planned) + 1 + BLANK_LINES),
                "planned": t.session.hands_planned,
                # Who deals hand n: the deal passes in seat order from the first dealer.
                "dealers": [
                    t.session.players[(n - 1) % len(t.session.players)]
                    for n in range(1, cast(int, t.session.hands_planned) + 1 + BLANK_LINES)
                ],
            }
            for t in round_.tables
        ]
        return {
            "tournament": tournament,
            "round_": round_,
            "game": GAMES[tournament.game],
            "system": SYSTEMS[tournament.system],
            "tables": tables,
            **rules_of(tournament),
        }

    return _render(
        desk,
        f"turnier-{tournament.key}-runde-{round_.number}-zettel",
        _round_version(round_),
        template="exports/tournament_blank_sheets.html",
        lang=lang,
        context=context,
    )


def standings_pdf(tournament: Tournament, lang: str, desk: Desk) -> bytes:
    # Everything the paper shows that can change is in `live_version` (players, rounds,
    # hands); the rest is fixed when the tournament is made.
    version = version_of(
        tournament.name,
        tournament.day,
        tournament.game,
        tournament.system,
        tournament.rounds,
        *live_version(tournament),
    )

    def context() -> dict[str, Any]:
        return {
            "tournament": tournament,
            "game": GAMES[tournament.game],
            "system": SYSTEMS[tournament.system],
            "standings": tournament_standings(tournament),
            "reasons": director.reasons(tournament),
            "rounds_played": len(tournament.round_list),
            "round_tables": round_tables(tournament) if tournament.finished else [],
            **rules_of(tournament),
        }

    return _render(
        desk,
        f"turnier-{tournament.key}-tabelle",
        version,
        template="exports/tournament_standings.html",
        lang=lang,
        context=context,
    )


def cash_pdf(tournament: Tournament, lang: str, desk: Desk) -> bytes:
    """The treasurer's sheet: the fees received by whom, the gifts to the charity pot,
    the prizes paid to whom (a line to sign for each), the remainder, the signatures; the
    sums add up to what was received (`scorer.services.cash`)."""
    version = version_of(
        tournament.name,
        tournament.day,
        tournament.entry_fee_cents,
        repr(tournament.prize_plan),
        *live_version(tournament),
    )

    def context() -> dict[str, Any]:
        return {"tournament": tournament, "till": cash.till(tournament)}

    return _render(
        desk,
        f"turnier-{tournament.key}-kasse",
        version,
        template="exports/tournament_cash.html",
        lang=lang,
        context=context,
    )
