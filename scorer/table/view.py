"""What the table pages show about the seats: who deals, who sits out, who leads.

Plain data for the templates, read from the ledger (and a tournament table's place), and
the table's names in each language; no database writes here.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.domain import GAMES, SYSTEMS
from scorer.domain.ledger import Ledger, LedgerState
from scorer.domain.message import Msg, msg
from scorer.domain.money import Cents
from scorer.domain.registry import Game, System
from scorer.i18n.catalogue import say
from scorer.i18n.reader import in_each_language
from scorer.i18n.words import gettext, ngettext
from scorer.services import table_reads
from scorer.store.models import TableSession


@dataclass(frozen=True)
class Seats:
    """Who deals the next hand, who sits out, who leads (forehand), who may declare."""

    dealer: str
    sitting_out: str | None
    forehand: str
    active: list[str]


def seats(session: TableSession, ledger: Ledger) -> Seats:
    """The seats of the next hand. Players are listed in the order the deal passes (for a
    counter-clockwise game such as Tapp Tarock, counter-clockwise), so the first player
    dealt to, who leads, is the next in the list after the dealer; at four the dealer sits
    out and the next after him still leads."""
    return upcoming_seats(session, ledger, 1)[0]


def upcoming_seats(session: TableSession, ledger: Ledger, count: int) -> list[Seats]:
    """The seats of the next `count` hands while nobody comes or goes: what a page that
    cannot reach the server shows for the hands it keeps to send."""
    state = LedgerState.from_json(session.state)
    seated = ledger.seated(state)
    dealer, upcoming = state.next_dealer, []
    for _ in range(count):
        active, sitting_out = ledger.seats(dealer, seated)
        upcoming.append(Seats(dealer, sitting_out, ledger.next_after(dealer, seated), list(active)))
        dealer = ledger.next_after(dealer, seated)
    return upcoming


def seat_changes(session: TableSession, ledger: Ledger) -> dict[int, list[Msg]]:
    """The hand list's lines for players who come and go, by the hand they come before:
    who sits down and what stake he pays as he does, who comes back, who gets up."""
    said: dict[int, list[Msg]] = {}
    for at, new, back, gone in ledger.seat_changes():
        lines = said.setdefault(at, [])
        stake = ledger.newcomer_stake(table_reads.state_before(session, at)) if new else 0
        for name in new:
            if stake:
                line = msg(
                    "%(name)s sits down and pays %(amount)s into the Haferl",
                    name=name,
                    amount=Cents(stake),
                )
            elif stake is None:
                line = msg("%(name)s sits down and pays the stake with everyone", name=name)
            elif ledger.has_pot:
                line = msg("%(name)s sits down: no stake in a round of a carried Haferl", name=name)
            else:
                line = msg("%(name)s sits down", name=name)
            lines.append(line)
        lines += [msg("%(name)s is back", name=name) for name in back]
        lines += [msg("%(name)s gets up; the balance stays", name=name) for name in gone]
    return said


def game_and_system(session: TableSession) -> tuple[Game, System]:
    return GAMES[session.game], SYSTEMS[session.system]


def remembered(session: TableSession, game: Game) -> dict[str, dict[str, str]]:
    """How this device's start page lists the table, in each language (it is kept on the
    device and shown in whichever language the start page is read in)."""

    def words() -> dict[str, str]:
        parts = [
            say(game.name),
            ", ".join(session.players),
            ngettext("%(num)d hand", "%(num)d hands", session.live_hands),
        ]
        if session.closed:
            parts.append(gettext("finished"))
        return {"name": say(table_reads.table_name(session)), "summary": " · ".join(parts)}

    return in_each_language(words)
