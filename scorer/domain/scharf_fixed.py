"""`scharf-fixed`: Scharfer Tarock's fixed amounts (source 000)."""

from __future__ import annotations

from fractions import Fraction

from scorer.domain.model import Line
from scorer.domain.money import round_cents
from scorer.domain.params import Param, common_tie
from scorer.domain.payments import direct, outcome, schneider, tie_draft
from scorer.domain.registry import Deal, Draft, System, register_system


def pay(deal: Deal) -> Draft:
    params, hand = deal.params, deal.hand
    result = outcome(deal, params["tie"])
    if result == "draw":
        return tie_draft()
    won = result == "won"
    value = params["solo_cents"]
    lines = [Line(f"{'won' if won else 'lost'} with {deal.points}", cents=value)]
    if schneider(deal, won):
        value += params["schneider_cents"]
        lines.append(Line("Schneider", cents=params["schneider_cents"]))
    # The stock always counts for the declarer: he is Schwarz only with no trick and 0 points.
    schwarz = (
        (hand.all_tricks and deal.points == 120) if won else (hand.no_tricks and deal.points == 0)
    )
    if schwarz:
        value += params["schwarz_cents"]
        lines.append(Line("Schwarz", cents=params["schwarz_cents"]))
    amount = value
    if hand.contract == "frage" and won:
        amount = round_cents(Fraction(value, 2))
        lines.append(Line("a Frage won counts half", cents=amount))
    lines.append(Line("each defender pays" if won else "paid to each defender", cents=amount))
    return Draft(result, direct(deal, amount, won), lines)


register_system(
    System(
        id="scharf-fixed",
        name="Scharfer Tarock",
        description=(
            "Solo, Schneider und Schwarz je ein fester Betrag; eine gewonnene Frage zählt halb."
        ),
        params=(
            Param("solo_cents", 10, "das Spiel, je Gegenspieler (Cent)"),
            Param("schneider_cents", 10, "dazu bei Schneider (Cent)"),
            Param("schwarz_cents", 10, "dazu bei Schwarz (Cent)"),
            Param(
                "bankroll_cents",
                1000,
                "womit jeder den Abend beginnt (wird neben dem Stand gezeigt)",
            ),
            common_tie("loss"),
        ),
        pay=pay,
    )
)
