"""Tapp Tarock: 54 cards, three players, counter-clockwise; contracts Dreier, Unterer,
Oberer, Solo; the bonuses Köpfe, Trull, King's Trull, Pagat Ultimo and Valat; and its
payment system `tapp-points` (source 001)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.domain.bonuses import (
    bonus_line,
    check_all_tricks,
    check_bonuses,
    check_valat_points,
    made_valat,
    sign,
)
from scorer.domain.message import Msg, msg
from scorer.domain.model import Bonus, Hand, Line, Result
from scorer.domain.params import Param
from scorer.domain.payments import direct, each_defender, points_times
from scorer.domain.registry import Deal, Draft, Game, System, register_game, register_system

CONTRACT_VALUES = {"dreier": 3, "unterer": 4, "oberer": 5, "solo": 8}
CONTRACT_NAMES = {
    "dreier": msg("Dreier"),
    "unterer": msg("Unterer"),
    "oberer": msg("Oberer"),
    "solo": msg("Solo"),
}
BONUS_NAMES = {
    "koepfe": msg("Köpfe (heads)"),
    "trull": msg("Tarock-Trull"),
    "koenigstrull": msg("Königstrull"),
    "pagat_ultimo": msg("Pagat Ultimo"),
    "valat": msg("Valat"),
}
SILENT = {"koepfe": 1, "trull": 3, "koenigstrull": 3, "pagat_ultimo": 4, "valat": 12}
ANNOUNCED = {"pagat_ultimo": 8, "valat": 24}
TOTAL, TARGET = 70, 36


def bonus_value(bonus: Bonus, contract: str) -> int:
    value = (ANNOUNCED if bonus.announced else SILENT)[bonus.id]
    if bonus.id == "pagat_ultimo" and contract == "solo":
        value *= 2
    return value


def bonus_points(bonus: Bonus, contract: str) -> tuple[int, Msg]:
    """Signed game points (declarer's view) and the explanation for one bonus."""
    value = bonus_value(bonus, contract)
    text = bonus_line(BONUS_NAMES[bonus.id], bonus)
    if bonus.made:
        return sign(bonus.side) * value, text
    if bonus.announced:
        # An announced bonus that fails counts against the announcer.
        return -sign(bonus.side) * value, text
    return 0, text


def pay(deal: Deal) -> Draft:
    hand, contract = deal.hand, deal.hand.contract
    won = deal.points >= TARGET
    valat = next((b for b in hand.bonuses if b.id == "valat" and (b.made or b.announced)), None)
    valat = valat or made_valat(hand)  # every trick entered as `all_tricks`
    if valat is not None:
        # Valat replaces the contract and every other bonus.
        n, text = bonus_points(valat, contract)
        lines = [
            Line(msg("%(bonus)s: replaces the contract and every other bonus", bonus=text), units=n)
        ]
        result: Result = "won" if n > 0 else "lost"
    else:
        value = CONTRACT_VALUES[contract]
        n = value if won else -value
        heading = (
            msg("%(contract)s won with %(points)s of %(total)s")
            if won
            else msg("%(contract)s lost with %(points)s of %(total)s")
        )
        lines = [
            Line(
                heading.with_args(
                    contract=CONTRACT_NAMES[contract], points=deal.points, total=TOTAL
                ),
                units=n,
            )
        ]
        for bonus in hand.bonuses:
            points, text = bonus_points(bonus, contract)
            n += points
            lines.append(Line(text, units=points))
        result = "won" if won else "lost"
    cents = abs(n) * deal.params["point_cents"]
    how = each_defender(n > 0) if n else msg("nothing")
    lines.append(Line(points_times(n, deal.params["point_cents"], how), cents=cents))
    return Draft(result, direct(deal, cents, n > 0), lines)


def validate(
    game: Game, system: System, hand: Hand, params: Mapping[str, Any]
) -> dict[str, list[Msg]]:
    errors: dict[str, list[Msg]] = {}
    messages = check_bonuses(hand.bonuses, SILENT, game.name)
    announced = [b for b in hand.bonuses if b.announced]
    for bonus in announced:
        if bonus.id not in ANNOUNCED:
            messages.append(msg("'%(bonus)s' cannot be announced", bonus=bonus.id))
        if bonus.side != "declarer":
            messages.append(msg("only the declarer announces"))
    if len(announced) > 1:
        messages.append(msg("the declarer announces one of Pagat Ultimo or Valat, not both"))
    messages += check_valat_points(hand, TOTAL)
    if messages:
        errors["bonuses"] = messages
    if all_tricks := check_all_tricks(hand):
        errors["all_tricks"] = all_tricks
    return errors


register_system(
    System(
        id="tapp-points",
        name=msg("Tapp points"),
        description=msg(
            "Game points: Dreier 3, Unterer 4, Oberer 5, Solo 8, plus bonuses; "
            "each defender pays the points."
        ),
        params=(Param("point_cents", 10, msg("the value of a point (cents)"), minimum=1),),
        pay=pay,
    )
)

register_game(
    Game(
        id="tapp-tarock",
        name=msg("Tapp-Tarock"),
        players=(3,),
        active=3,
        contracts=CONTRACT_NAMES,
        total=TOTAL,
        target=TARGET,
        systems=("tapp-points",),
        validate=validate,
        clockwise=False,
        doublings=False,
        description=msg("54 cards, three players, counter-clockwise. The declarer needs 36 of 70."),
        bonus_ids=lambda system_id, params: tuple(SILENT),
        bonus_names=BONUS_NAMES,
        announceable=tuple(ANNOUNCED),
        announcers=("declarer",),
        trumps=False,
        counting="tarock",
        flags=("all_tricks",),  # the declarer's Valat (RULES §1), as a Valat bonus is
    )
)
