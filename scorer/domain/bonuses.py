"""Bonus checks shared by the 54-card games (Tapp Tarock, Strohmandeln)."""

from __future__ import annotations

from collections.abc import Iterable

from scorer.domain.model import Bonus, Hand

SIDES = ("declarer", "defenders")


def check_bonuses(bonuses: Iterable[Bonus], allowed: Iterable[str], where: str) -> list[str]:
    """Messages for unknown, unplayed or doubly entered bonuses; empty when all is well."""
    allowed = tuple(allowed)
    messages: list[str] = []
    seen: set[tuple[str, str]] = set()
    for bonus in bonuses:
        if bonus.id not in allowed:
            messages.append(
                f"'{bonus.id}' is not played {where}; choose from: {', '.join(allowed) or 'none'}"
            )
        if bonus.side not in SIDES:
            messages.append("a bonus's side is 'declarer' or 'defenders'")
        if (bonus.id, bonus.side) in seen:
            messages.append(f"'{bonus.id}' is entered twice for the same side")
        seen.add((bonus.id, bonus.side))
    return messages


def sign(side: str) -> int:
    """+1 for what counts for the declarer's side, −1 for the defenders'."""
    return 1 if side == "declarer" else -1


def check_valat_points(hand: Hand, total: int) -> list[str]:
    """Messages for a made Valat that disagrees with the card points: every trick to the
    declarer means all `total` points, every trick to the defenders none."""
    messages = []
    for bonus in hand.bonuses:
        if bonus.id == "valat" and bonus.made:
            needed = total if bonus.side == "declarer" else 0
            if hand.points is not None and hand.points != needed:
                messages.append(
                    f"a Valat made by the {bonus.side} means the declarer has {needed} points"
                )
    return messages
