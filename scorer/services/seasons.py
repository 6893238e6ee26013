"""A group's seasons as read from its evenings: the standings, a member's statistics, the
running balances, each evening's nets, and how the Haferl was shared out at the closed
seasons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from scorer.domain import Hand
from scorer.domain.message import msg
from scorer.domain.model import POT
from scorer.domain.season import PlayedHand, PlayerStats, player_stats, season_table
from scorer.services import table_reads
from scorer.services.groups import evenings, history
from scorer.store.database import db
from scorer.store.errors import NotFound
from scorer.store.models import Group, GroupEvent, TableSession


def closed_seasons(group: Group) -> list[dict[str, Any]]:
    """Each closed season, in order: its number, the Haferl it ended with and how that was
    shared out (the Haferl's history across seasons)."""
    return [
        {"season": e.season, "pot_cents": e.data["pot"], "shares": dict(e.data["shares"])}
        for e in history(group)
        if e.action == "season_close"
    ]


def season_shares(group: Group, season: int) -> dict[str, int]:
    event = db.session.scalar(
        select(GroupEvent).where(
            GroupEvent.group_id == group.id,
            GroupEvent.season == season,
            GroupEvent.action == "season_close",
        )
    )
    return dict(event.data["shares"]) if event is not None else {}


def played_hands(session: TableSession) -> list[PlayedHand]:
    ledger = table_reads.ledger_for(session)
    hands = []
    for record in table_reads.hands_of(session):
        seated = ledger.seated_at(record.number)
        hand = Hand.from_json(record.facts)
        hands.append(
            PlayedHand(
                contract=hand.contract,
                declarer=hand.declarer,
                players=tuple(p for p in seated if p != record.sitting_out),
                result=record.result or "",
                net=dict(record.net or {}),
                points=hand.points,
                doublings=hand.doublings,
            )
        )
    return hands


def standings(group: Group, season: int) -> list[dict[str, Any]]:
    closed = [s for s in evenings(group, season) if s.closed]
    table = season_table(
        ((evening_nets(s), played_hands(s)) for s in closed), season_shares(group, season)
    )
    return [line.to_json(place) for place, line in enumerate(table, 1)]


def stats(group: Group, player: str, season: int) -> tuple[PlayerStats, list[int]]:
    """A player's statistics over the season's closed evenings, and his running balance
    after each of them (0 before the first)."""
    if player not in group.members:
        raise NotFound(msg("no member called %(name)s", name=player))
    closed = [s for s in evenings(group, season) if s.closed]
    hands = [h for s in closed for h in played_hands(s)]
    return player_stats(player, hands), running_balances([player], closed)[player]


def running_balances(
    members: Sequence[str], sessions: Sequence[TableSession]
) -> dict[str, list[int]]:
    """Each member's balance after each of `sessions` (0 before the first)."""
    nets = [evening_nets(s) for s in sessions]
    running = {}
    for member in members:
        balance, line = 0, [0]
        for net in nets:
            balance += net.get(member, 0)
            line.append(balance)
        running[member] = line
    return running


def evening_nets(session: TableSession) -> dict[str, int]:
    """Each player's settle-up of the evening, without the Haferl's part."""
    return {p: c for p, c in table_reads.settlement(session).balances.items() if p != POT}
