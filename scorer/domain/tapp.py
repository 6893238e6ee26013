"""Tapp Tarock: 54 cards, three players, counter-clockwise; contracts Dreier, Unterer,
Oberer, Solo; the bonuses Köpfe, Trull, King's Trull, Pagat Ultimo and Valat; and its
payment system `tapp-points` (source 001)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.domain.bonuses import check_bonuses, check_valat_points, sign
from scorer.domain.model import Bonus, Hand, Line
from scorer.domain.params import Param
from scorer.domain.payments import direct
from scorer.domain.registry import Deal, Draft, Game, System, register_game, register_system

CONTRACT_VALUES = {"dreier": 3, "unterer": 4, "oberer": 5, "solo": 8}
CONTRACT_NAMES = {"dreier": "Dreier", "unterer": "Unterer", "oberer": "Oberer", "solo": "Solo"}
BONUS_NAMES = {
    "koepfe": "Köpfe",
    "trull": "Tarock-Trull",
    "koenigstrull": "Königstrull",
    "pagat_ultimo": "Pagat Ultimo",
    "valat": "Valat",
}
SILENT = {"koepfe": 1, "trull": 3, "koenigstrull": 3, "pagat_ultimo": 4, "valat": 12}
ANNOUNCED = {"pagat_ultimo": 8, "valat": 24}
TOTAL, TARGET = 70, 36


def bonus_value(bonus: Bonus, contract: str) -> int:
    value = (ANNOUNCED if bonus.announced else SILENT)[bonus.id]
    if bonus.id == "pagat_ultimo" and contract == "solo":
        value *= 2
    return value


def bonus_points(bonus: Bonus, contract: str) -> tuple[int, str]:
    """Signed game points (declarer's view) and the explanation for one bonus."""
    name = BONUS_NAMES[bonus.id] + (" announced" if bonus.announced else "")
    value = bonus_value(bonus, contract)
    if bonus.made:
        return sign(bonus.side) * value, f"{name}, made by the {bonus.side}"
    if bonus.announced:
        # An announced bonus that fails counts against the announcer.
        return -sign(bonus.side) * value, f"{name}, failed"
    return 0, f"{name}, not made"


def pay(deal: Deal) -> Draft:
    hand, contract = deal.hand, deal.hand.contract
    won = deal.points >= TARGET
    valat = next((b for b in hand.bonuses if b.id == "valat" and (b.made or b.announced)), None)
    if valat is not None:
        # Valat replaces the contract and every other bonus.
        n, text = bonus_points(valat, contract)
        lines = [Line(f"{text}: replaces the contract and every other bonus", units=n)]
        result = "won" if n > 0 else "lost"
    else:
        value = CONTRACT_VALUES[contract]
        n = value if won else -value
        lines = [
            Line(
                f"{CONTRACT_NAMES[contract]} {'won' if won else 'lost'} with "
                f"{deal.points} of {TOTAL}",
                units=n,
            )
        ]
        for bonus in hand.bonuses:
            points, text = bonus_points(bonus, contract)
            n += points
            lines.append(Line(text, units=points))
        result = "won" if won else "lost"
    cents = abs(n) * deal.params["point_cents"]
    lines.append(
        Line(
            f"{n:+d} points × {deal.params['point_cents']} ct: "
            + ("each defender pays" if n > 0 else "paid to each defender" if n < 0 else "nothing"),
            cents=cents,
        )
    )
    return Draft(result, direct(deal, cents, n > 0), lines)


def validate(game: Game, system: System, hand: Hand, params: Mapping[str, Any]):
    errors: dict[str, list[str]] = {}
    messages = check_bonuses(hand.bonuses, SILENT, "in Tapp Tarock")
    announced = [b for b in hand.bonuses if b.announced]
    for bonus in announced:
        if bonus.id not in ANNOUNCED:
            messages.append(f"'{bonus.id}' cannot be announced")
        if bonus.side != "declarer":
            messages.append("only the declarer announces")
    if len(announced) > 1:
        messages.append("the declarer announces one of Pagat Ultimo or Valat, not both")
    messages += check_valat_points(hand, TOTAL)
    if messages:
        errors["bonuses"] = messages
    return errors


register_system(
    System(
        id="tapp-points",
        name="Tapp-Punkte",
        description="Spielpunkte: Dreier 3, Unterer 4, Oberer 5, Solo 8, dazu Prämien; "
        "jeder Gegenspieler zahlt die Punkte.",
        params=(Param("point_cents", 10, "Wert eines Punktes (Cent)", minimum=1),),
        pay=pay,
    )
)

register_game(
    Game(
        id="tapp-tarock",
        name="Tapp-Tarock",
        players=(3,),
        active=3,
        contracts=CONTRACT_NAMES,
        total=TOTAL,
        target=TARGET,
        systems=("tapp-points",),
        validate=validate,
        clockwise=False,
        doublings=False,
        description=(
            "54 Karten, drei Spieler, gegen den Uhrzeigersinn. Der Spieler braucht 36 von 70."
        ),
        bonus_ids=lambda system_id, params: tuple(SILENT),
        bonus_names=BONUS_NAMES,
        announceable=tuple(ANNOUNCED),
        trumps=False,
        counting="tarock",
        flags=(),
    )
)
