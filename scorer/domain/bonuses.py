"""Bonus checks shared by the 54-card games (Tapp Tarock, Strohmandeln)."""

from __future__ import annotations

from collections.abc import Iterable

from scorer.domain.message import Msg, msg
from scorer.domain.model import Bonus, Hand

SIDES = ("declarer", "defenders")


def made_valat(hand: Hand) -> Bonus | None:
    """The Valat the hand made: a Valat bonus, or every trick entered as `all_tricks`
    (RULES §1), which is the declarer's unannounced Valat."""
    valat = next((b for b in hand.bonuses if b.id == "valat" and b.made), None)
    if valat is None and hand.all_tricks:
        valat = Bonus("valat", "declarer", announced=False, made=True)
    return valat


def check_all_tricks(hand: Hand) -> list[Msg]:
    """Every trick entered as `all_tricks` and a Valat bonus entered beside it must agree:
    the declarer made the Valat."""
    given = next((b for b in hand.bonuses if b.id == "valat"), None)
    if hand.all_tricks and given is not None and (given.side != "declarer" or not given.made):
        return [msg("every trick to the declarer is the declarer's Valat")]
    return []


def check_bonuses(bonuses: Iterable[Bonus], allowed: Iterable[str], game: Msg) -> list[Msg]:
    """Messages for unknown, unplayed or doubly entered bonuses; empty when all is well."""
    allowed = tuple(allowed)
    messages: list[Msg] = []
    seen: set[tuple[str, str]] = set()
    for bonus in bonuses:
        if bonus.id not in allowed:
            messages.append(
                msg(
                    "'%(bonus)s' is not played in %(game)s; choose from: %(choices)s",
                    bonus=bonus.id,
                    game=game,
                    choices=", ".join(allowed),
                )
            )
        if bonus.side not in SIDES:
            messages.append(msg("a bonus's side is 'declarer' or 'defenders'"))
        if (bonus.id, bonus.side) in seen:
            messages.append(msg("'%(bonus)s' is entered twice for the same side", bonus=bonus.id))
        seen.add((bonus.id, bonus.side))
    return messages


def bonus_line(name: Msg, bonus: Bonus) -> Msg:
    """How a bonus is explained: "Pagat Ultimo announced, made by the declarer", "Köpfe,
    not made", "Valat announced, failed"."""
    if bonus.announced:
        name = msg("%(bonus)s announced", bonus=name)
    if bonus.made:
        if bonus.side == "declarer":
            return msg("%(bonus)s, made by the declarer", bonus=name)
        return msg("%(bonus)s, made by the defenders", bonus=name)
    if bonus.announced:
        return msg("%(bonus)s, failed", bonus=name)
    return msg("%(bonus)s, not made", bonus=name)


def sign(side: str) -> int:
    """+1 for what counts for the declarer's side, −1 for the defenders'."""
    return 1 if side == "declarer" else -1


def check_valat_points(hand: Hand, total: int) -> list[Msg]:
    """Messages for a made Valat that disagrees with the card points: every trick to the
    declarer means all `total` points, every trick to the defenders none."""
    messages = []
    for bonus in hand.bonuses:
        if bonus.id == "valat" and bonus.made:
            needed = total if bonus.side == "declarer" else 0
            if hand.points is not None and hand.points != needed:
                text = (
                    msg("a Valat made by the declarer means the declarer has %(points)s points")
                    if bonus.side == "declarer"
                    else msg(
                        "a Valat made by the defenders means the declarer has %(points)s points"
                    )
                )
                messages.append(text.with_args(points=needed))
    return messages
