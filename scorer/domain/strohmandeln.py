"""Strohmandeln: Tarock for two with two dummy hands (54 cards, 36 of 70 to win), and its
three payment tables `beck`, `furr` and `mayr-sedlaczek` (source 004).

35–35 is a draw: only bonuses are paid and the next hand counts double (the ledger keeps
that count, up to the cap `max_draw_factor`). A bird (Pagat, Uhu, Kakadu, Quapil) played to
its trick and lost scores for the opponent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scorer.domain.bonuses import (
    check_all_tricks,
    check_bonuses,
    check_valat_points,
    made_valat,
    sign,
)
from scorer.domain.message import Msg, msg
from scorer.domain.model import Hand, Line, Result
from scorer.domain.params import Param
from scorer.domain.payments import direct, points_times, won_or_lost_with
from scorer.domain.registry import Deal, Draft, Game, System, register_game, register_system

TOTAL, TARGET = 70, 36
BIRDS = ("pagat_ultimo", "uhu", "kakadu", "quapil")
ANNOUNCEABLE = ("rostopschin",)
"""Rostopschin is announced (by either side); the other bonuses are made or not."""
BONUS_NAMES = {
    "trull": msg("Trull"),
    "koenigstrull": msg("Königstrull"),
    "pagat_ultimo": msg("Pagat Ultimo"),
    "uhu": msg("Uhu"),
    "kakadu": msg("Kakadu"),
    "quapil": msg("Quapil"),
    "rostopschin": msg("Rostopschin"),
    "valat": msg("Valat"),
    "mondfang": msg("Mondfang"),
}


DRAW_FACTORS = (1, 2, 4, 8, 16, 32, 64)
MAX_DRAW_FACTOR = Param(
    "max_draw_factor",
    8,
    msg(
        "the most a hand counts after draws in a row: 1, 2, 4, 8, 16, 32 or 64 (8: ×8 after "
        "three draws, any further draw doubles no more; 1: never doubled)"
    ),
    "int",
    minimum=1,
    maximum=DRAW_FACTORS[-1],
    allowed=DRAW_FACTORS,
)
"""The cap on the doubling after a draw. RULES.md §3.9: "35–35 is a **draw**: only bonuses
are paid and the **next hand counts double** (a second draw in a row doubles again)". The
rules set no end to it, so a run of draws would double forever (after 40 draws a 20-cent
win pays €219,902,325,555.20; the 64th overflows a database integer). **[decision]** The
factor doubles with each draw in a row up to `max_draw_factor` and stays there while the
draws go on; the default 8 is reached after three draws in a row. A draw doubles, so a cap
is a power of two: 1 means a draw never doubles."""


@dataclass(frozen=True)
class Table:
    """One author's table of values; `None` for a big win means the table has none."""

    system_id: str
    name: str
    passed: int
    win: int
    loss: int
    big_win: int | None
    big_loss: int | None
    bonuses: Mapping[str, int]
    trull_note: Msg

    def bonus_ids(self, params: Mapping[str, Any]) -> tuple[str, ...]:
        """The bonuses this table scores with the session's switches."""
        return tuple(
            b
            for b in self.bonuses
            if (params.get("mondfang") if b == "mondfang" else params.get(f"bonus_{b}", True))
        )

    def contract_points(self, deal: Deal) -> tuple[int, Result, Msg]:
        """Signed game points for the contract, the result and the explanation."""
        p, params = deal.points, deal.params
        passed = deal.hand.contract == "passed"
        draw = 2 * p == TOTAL
        if draw and not params["draw_is_loss"]:
            return 0, "draw", msg("35 to 35: a draw, only bonuses are paid")
        if passed:
            if p >= TARGET:
                return self.passed, "won", msg("both passed, %(points)s of 70 wins", points=p)
            return -self.passed, "lost", msg("both passed, %(points)s of 70 loses", points=p)
        if p >= TARGET:
            if self.big_win is not None and p >= 45:
                return self.big_win, "won", msg("big win with %(points)s (45 or more)", points=p)
            return self.win, "won", won_or_lost_with(True, p)
        if self.big_loss is not None and TOTAL - p >= 44:
            why = msg("the defender's big win: %(points)s (44 or more)", points=TOTAL - p)
            return -self.big_loss, "lost", why
        why = msg("35 to 35 counts as lost") if draw else won_or_lost_with(False, p)
        return -self.loss, "lost", why


TABLES = {
    table.system_id: table
    for table in (
        Table(
            "beck",
            "Beck",
            passed=1,
            win=2,
            loss=3,
            big_win=None,
            big_loss=None,
            bonuses={"trull": 1, "koenigstrull": 1, "pagat_ultimo": 1, "mondfang": 1},
            trull_note=msg("Trull and Königstrull count when they are held in the hand."),
        ),
        Table(
            "furr",
            "Furr",
            passed=2,
            win=3,
            loss=4,
            big_win=4,
            big_loss=5,
            bonuses={
                "trull": 1,
                "koenigstrull": 1,
                "pagat_ultimo": 1,
                "uhu": 1,
                "kakadu": 1,
                "quapil": 1,
                "rostopschin": 1,
                "valat": 12,
                "mondfang": 1,
            },
            trull_note=msg("Trull and Königstrull count when they are won in tricks."),
        ),
        Table(
            "mayr-sedlaczek",
            "Mayr & Sedlaczek",
            passed=2,
            win=3,
            loss=4,
            big_win=None,
            big_loss=None,
            bonuses={
                "trull": 1,
                "koenigstrull": 1,
                "pagat_ultimo": 1,
                "uhu": 1,
                "kakadu": 1,
                "quapil": 1,
                "valat": 12,
                "mondfang": 1,
            },
            trull_note=msg("Trull and Königstrull count when they are won in tricks."),
        ),
    )
}


def bonus_points(
    table: Table, bonus_id: str, side: str, *, made: bool, announced: bool
) -> tuple[int, Msg]:
    name = BONUS_NAMES[bonus_id]
    value = table.bonuses[bonus_id]
    declarer = side == "declarer"
    if made:
        text = msg("%(bonus)s for the declarer") if declarer else msg("%(bonus)s for the defenders")
        return sign(side) * value, text.with_args(bonus=name)
    if bonus_id in BIRDS:
        text = (
            msg("%(bonus)s of the declarer lost: scores for the opponent")
            if declarer
            else msg("%(bonus)s of the defenders lost: scores for the opponent")
        )
        return -sign(side) * value, text.with_args(bonus=name)
    if announced:
        text = msg("%(bonus)s announced and failed: scores for the opponent", bonus=name)
        return -sign(side) * value, text
    return 0, msg("%(bonus)s not made", bonus=name)


def _payer(table: Table) -> Callable[[Deal], Draft]:
    def pay_table(deal: Deal) -> Draft:
        hand = deal.hand
        valat = made_valat(hand)
        if valat is not None:
            n, text = bonus_points(table, "valat", valat.side, made=True, announced=valat.announced)
            result: Result = "won" if n > 0 else "lost"
            lines = [Line(msg("%(bonus)s: replaces everything else", bonus=text), units=n)]
        else:
            n, result, text = table.contract_points(deal)
            lines = [Line(text, units=n)]
            for bonus in hand.bonuses:
                points, why = bonus_points(
                    table, bonus.id, bonus.side, made=bonus.made, announced=bonus.announced
                )
                n += points
                lines.append(Line(why, units=points))
        point_cents = deal.params["point_cents"]
        cents = abs(n) * point_cents
        how = msg("the loser pays the winner") if n else msg("nothing to pay")
        lines.append(Line(points_times(n, point_cents, how), cents=cents))
        return Draft(result, direct(deal, cents, n > 0), lines)

    return pay_table


def validate(
    game: Game, system: System, hand: Hand, params: Mapping[str, Any]
) -> dict[str, list[Msg]]:
    table = TABLES[system.id]
    errors: dict[str, list[Msg]] = {}
    if hand.no_tricks:
        errors["no_tricks"] = [msg("enter the defenders' Valat as the Valat bonus")]
    if hand.all_tricks and "valat" not in table.bonuses:
        errors["all_tricks"] = [msg("%(table)s's table has no Valat", table=table.name)]
    elif all_tricks := check_all_tricks(hand):
        errors["all_tricks"] = all_tricks
    messages = check_bonuses(hand.bonuses, table.bonus_ids(params), system.name)
    messages += [
        msg("'%(bonus)s' is not announced in Strohmandeln", bonus=b.id)
        for b in hand.bonuses
        if b.announced and b.id not in ANNOUNCEABLE
    ]
    messages += check_valat_points(hand, TOTAL)
    if messages:
        errors["bonuses"] = messages
    return errors


for _table in TABLES.values():
    register_system(
        System(
            id=_table.system_id,
            name=msg("Strohmandeln after %(author)s", author=_table.name),
            description=msg(
                "Values after %(author)s; %(trull)s", author=_table.name, trull=_table.trull_note
            ),
            params=(
                Param("point_cents", 10, msg("the value of a point (cents)"), minimum=1),
                Param(
                    "draw_is_loss",
                    False,
                    msg("35 to 35 counts as lost for the declarer instead of a draw"),
                    "bool",
                ),
                Param(
                    "draw_doubles_next",
                    True,
                    msg("after a draw the next hand counts double (twice in a row: fourfold)"),
                    "bool",
                ),
                MAX_DRAW_FACTOR,
                Param(
                    "mondfang", False, msg("Mondfang (the Sküs catches the Mond) counts 1"), "bool"
                ),
                *(
                    Param(
                        f"bonus_{b}",
                        True,
                        msg("%(bonus)s is counted", bonus=BONUS_NAMES[b]),
                        "bool",
                    )
                    for b in _table.bonuses
                    if b != "mondfang"
                ),
            ),
            pay=_payer(_table),
        )
    )

register_game(
    Game(
        id="strohmandeln",
        name=msg("Strohmandeln"),
        players=(2,),
        active=2,
        contracts={"game": msg("Game (picked up)"), "passed": msg("Both passed")},
        total=TOTAL,
        target=TARGET,
        systems=tuple(TABLES),
        validate=validate,
        doublings=False,
        description=msg(
            "Tarock for two with two dummies; 36 of 70 wins, 35 to 35 is a draw and the next "
            "hand counts double."
        ),
        bonus_ids=lambda system_id, params: TABLES[system_id].bonus_ids(params),
        bonus_names=BONUS_NAMES,
        announceable=ANNOUNCEABLE,
        birds=BIRDS,
        trumps=False,
        counting="tarock",
        flags=("all_tricks",),
    )
)
