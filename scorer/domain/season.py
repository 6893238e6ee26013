"""A Stammtisch season in numbers, with no Flask and no database: sharing out the Haferl
when a season ends, the season table, and a player's statistics from his hands."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def share_out(
    pot: int, players: Sequence[str], weights: Mapping[str, int] | None = None
) -> dict[str, int]:
    """`pot` cents shared among `players`: equally, or in proportion to `weights` (evenings
    attended). Cents that do not divide go one each to the largest remainders, ties in the
    order of `players`; the shares add up to `pot` exactly."""
    if pot < 0:
        raise ValueError("the Haferl cannot hold a negative amount")
    if not players:
        if pot:
            raise ValueError("nobody to share the Haferl with")
        return {}
    weight = {p: (weights or {}).get(p, 1) if weights else 1 for p in players}
    total = sum(weight.values())
    if total <= 0:
        weight, total = {p: 1 for p in players}, len(players)
    shares = {p: pot * weight[p] // total for p in players}
    left = pot - sum(shares.values())
    order = sorted(players, key=lambda p: (-(pot * weight[p] % total), players.index(p)))
    for p in order[:left]:
        shares[p] += 1
    return shares


@dataclass
class PlayerSeason:
    """One player's line of the season table."""

    player: str
    evenings: int = 0
    hands: int = 0
    declared: int = 0
    won: int = 0
    net_cents: int = 0

    def to_json(self, place: int) -> dict[str, Any]:
        return {
            "place": place,
            "player": self.player,
            "evenings": self.evenings,
            "hands": self.hands,
            "declared": self.declared,
            "won": self.won,
            "net_cents": self.net_cents,
        }


@dataclass(frozen=True)
class PlayedHand:
    """A hand as a season counts it: who played it, who declared, and what each got."""

    contract: str
    declarer: str
    players: tuple[str, ...]
    result: str
    net: Mapping[str, int]
    points: int | None = None
    doublings: int = 0


def season_table(
    evenings: Iterable[tuple[Mapping[str, int], Sequence[PlayedHand]]],
    shares: Mapping[str, int] | None = None,
) -> list[PlayerSeason]:
    """The season table from each closed evening's settle-up balances and hands, plus the
    Haferl's shares once the season is closed; ranked by money, then by name."""
    lines: dict[str, PlayerSeason] = {}

    def line(player: str) -> PlayerSeason:
        return lines.setdefault(player, PlayerSeason(player))

    for balances, hands in evenings:
        for player, cents in balances.items():
            if player == "pot":
                continue
            line(player).evenings += 1
            line(player).net_cents += cents
        for hand in hands:
            for player in hand.players:
                line(player).hands += 1
            line(hand.declarer).declared += 1
            if hand.result == "won":
                line(hand.declarer).won += 1
    for player, cents in (shares or {}).items():
        line(player).net_cents += cents
    return sorted(lines.values(), key=lambda s: (-s.net_cents, s.player.casefold()))


@dataclass
class PlayerStats:
    """What a player did over a season's hands."""

    player: str
    hands: int = 0
    declared: int = 0
    by_contract: dict[str, dict[str, int]] = field(default_factory=dict)
    """contract → {"declared", "won"}"""
    points_as_declarer: list[int] = field(default_factory=list)
    kontra_won: int = 0
    kontra_lost: int = 0
    biggest_win: int = 0
    biggest_loss: int = 0

    def to_json(self) -> dict[str, Any]:
        points = self.points_as_declarer
        return {
            "player": self.player,
            "hands": self.hands,
            "declared": self.declared,
            "win_rate_by_contract": {
                contract: {
                    **counts,
                    "rate": round(counts["won"] / counts["declared"], 3),
                }
                for contract, counts in sorted(self.by_contract.items())
            },
            "average_points_as_declarer": round(sum(points) / len(points), 1) if points else None,
            "kontra_won": self.kontra_won,
            "kontra_lost": self.kontra_lost,
            "biggest_win_cents": self.biggest_win,
            "biggest_loss_cents": self.biggest_loss,
        }


def player_stats(player: str, hands: Iterable[PlayedHand]) -> PlayerStats:
    """A player's statistics over `hands` (those he did not play are skipped)."""
    stats = PlayerStats(player)
    for hand in hands:
        if player not in hand.players:
            continue
        stats.hands += 1
        cents = hand.net.get(player, 0)
        stats.biggest_win = max(stats.biggest_win, cents)
        stats.biggest_loss = min(stats.biggest_loss, cents)
        mine = hand.declarer == player
        if hand.doublings:
            # A Kontra is won by the side that got the better of it.
            if cents > 0:
                stats.kontra_won += 1
            elif cents < 0:
                stats.kontra_lost += 1
        if not mine:
            continue
        stats.declared += 1
        counts = stats.by_contract.setdefault(hand.contract, {"declared": 0, "won": 0})
        counts["declared"] += 1
        if hand.result == "won":
            counts["won"] += 1
        if hand.points is not None:
            stats.points_as_declarer.append(hand.points)
    return stats
