"""What the table pages show, computed once per request: seats, balances, hand rows.

Plain data for the templates; no database writes here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorer.domain import GAMES, SYSTEMS
from scorer.domain.registry import Game, System
from scorer.models import HandRecord, TableSession

CONTRACT_WORDS = {"frage": "Frage", "hand": "Hand", "bettel": "Bettel"}


@dataclass(frozen=True)
class Seats:
    """Who deals the next hand, who sits out, who leads (forehand), who may declare."""

    dealer: str
    sitting_out: str | None
    forehand: str
    active: list[str]


def seats(session: TableSession, game: Game) -> Seats:
    players = session.players
    dealer = session.state["next_dealer"]
    seat = players.index(dealer)
    sitting_out = dealer if len(players) > game.active else None
    active = [p for p in players if p != sitting_out]
    # The player dealt to first leads: left of the dealer clockwise, right counter-clockwise.
    step = 1 if game.clockwise else -1
    forehand = players[(seat + step) % len(players)]
    if forehand == sitting_out:
        forehand = players[(seat + 2 * step) % len(players)]
    return Seats(dealer, sitting_out, forehand, active)


def contract_label(game: Game, facts: dict[str, Any]) -> str:
    """'Herzsolo', 'Frage', 'Hand 76', 'Dreier' … as players say it."""
    contract = facts["contract"]
    if game.id in ("tapp-tarock", "strohmandeln"):
        return game.contracts[contract]
    if contract == "hand":
        word = (
            "Herzsolo"
            if facts.get("trump") == "herz" and not game.bids
            else ("Solo" if not game.bids else "Hand")
        )
    elif contract == "frage":
        word = (
            "Herz-Frage" if facts.get("trump") == "herz" and game.id == "tarok-bettel" else "Frage"
        )
    else:
        word = CONTRACT_WORDS.get(contract, contract)
    bid = facts.get("bid", 61)
    if bid == "durch":
        word += " Durch"
    elif isinstance(bid, int) and bid > 61:
        word += f" {bid}"
    return word


def game_and_system(session: TableSession) -> tuple[Game, System]:
    return GAMES[session.game], SYSTEMS[session.system]


def declarer_amount(record: HandRecord) -> int:
    return (record.net or {}).get(record.facts["declarer"], 0)
