"""What the table pages show about the seats: who deals, who sits out, who leads.

Plain data for the templates, read from the ledger; no database writes here.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.domain import GAMES, SYSTEMS
from scorer.domain.ledger import Ledger, LedgerState
from scorer.domain.registry import Game, System
from scorer.models import TableSession


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
    state = LedgerState.from_json(session.state)
    seated = ledger.seated(state)
    dealer = state.next_dealer
    active, sitting_out = ledger.seats(dealer, seated)
    return Seats(dealer, sitting_out, ledger.next_after(dealer, seated), list(active))


def game_and_system(session: TableSession) -> tuple[Game, System]:
    return GAMES[session.game], SYSTEMS[session.system]
