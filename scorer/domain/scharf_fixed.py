"""`scharf-fixed`: Scharfer Tarock's fixed amounts (source 000)."""

from __future__ import annotations

from fractions import Fraction

from scorer.domain.message import msg
from scorer.domain.model import Line
from scorer.domain.money import round_cents
from scorer.domain.params import Param, common_tie
from scorer.domain.payments import (
    direct,
    each_defender,
    outcome,
    schneider,
    tie_draft,
    won_or_lost_with,
)
from scorer.domain.registry import Deal, Draft, System, register_system


def pay(deal: Deal) -> Draft:
    params, hand = deal.params, deal.hand
    result = outcome(deal, params["tie"])
    if result == "draw":
        return tie_draft()
    won = result == "won"
    value = params["solo_cents"]
    lines = [Line(won_or_lost_with(won, deal.points), cents=value)]
    if schneider(deal, won):
        value += params["schneider_cents"]
        lines.append(Line(msg("Schneider"), cents=params["schneider_cents"]))
    # The stock always counts for the declarer: he is Schwarz only with no trick and 0 points.
    schwarz = (
        (hand.all_tricks and deal.points == 120) if won else (hand.no_tricks and deal.points == 0)
    )
    if schwarz:
        value += params["schwarz_cents"]
        lines.append(Line(msg("Schwarz"), cents=params["schwarz_cents"]))
    amount = value
    if hand.contract == "frage" and won:
        amount = round_cents(Fraction(value, 2))
        lines.append(Line(msg("a Frage won counts half"), cents=amount))
    lines.append(Line(each_defender(won), cents=amount))
    return Draft(result, direct(deal, amount, won), lines)


register_system(
    System(
        id="scharf-fixed",
        name=msg("Scharfer Tarock"),
        description=msg(
            "Solo, Schneider and Schwarz each a fixed amount; a Frage won counts half."
        ),
        params=(
            Param("solo_cents", 10, msg("the game, per defender (cents)")),
            Param("schneider_cents", 10, msg("added for Schneider (cents)")),
            Param("schwarz_cents", 10, msg("added for Schwarz (cents)")),
            Param(
                "bankroll_cents",
                1000,
                msg("what everyone starts the evening with (shown beside the balance)"),
            ),
            common_tie("loss"),
        ),
        pay=pay,
    )
)
