"""`fixed-direct`: fixed payments straight between the players, no pot (source 000, Sirch)."""

from __future__ import annotations

from fractions import Fraction

from scorer.domain.model import Line
from scorer.domain.money import round_cents
from scorer.domain.params import Param, common_tie
from scorer.domain.payments import direct, outcome, schneider, tie_draft
from scorer.domain.registry import Deal, Draft, System, register_system


def pay(deal: Deal) -> Draft:
    params, hand = deal.params, deal.hand
    win = params["win_cents"]
    frage_factor: Fraction = params["frage_factor"]
    if hand.contract == "bettel":
        won = hand.no_tricks
        amount = round_cents(params["bettel_factor"] * win * frage_factor)
        text = f"Bettel {'won' if won else 'lost'}: {params['bettel_factor']} × a Frage's win"
        return Draft(
            "won" if won else "lost",
            direct(deal, amount, won),
            [
                Line(
                    text + (": each defender pays" if won else ": paid to each defender"),
                    cents=amount,
                )
            ],
        )
    result = outcome(deal, params["tie"])
    if result == "draw":
        return tie_draft()
    won = result == "won"
    durch = hand.all_tricks if won else hand.no_tricks
    durch_cents = params["durch_cents"]
    if durch_cents is None:
        durch_cents = params["schneider_cents"]
    if durch:
        base, why = durch_cents, ("Durch" if won else "Schwarz (no trick)")
    elif schneider(deal, won):
        base, why = params["schneider_cents"], "Schneider"
    else:
        base, why = win, "simple"
    lines = [Line(f"{'won' if won else 'lost'} with {deal.points}: {why}", cents=base)]
    amount = base
    if hand.contract == "frage":
        amount = round_cents(base * frage_factor)
        lines.append(Line(f"Frage: × {_factor(frage_factor)}", cents=amount))
    lines.append(Line("each defender pays" if won else "paid to each defender", cents=amount))
    return Draft(result, direct(deal, amount, won), lines)


def _factor(value: Fraction) -> str:
    return str(value) if value.denominator != 1 else str(value.numerator)


register_system(
    System(
        id="fixed-direct",
        name="Feste Beträge (Sirch)",
        description="Feste Beträge direkt zwischen den Spielern, ohne Haferl.",
        params=(
            Param("win_cents", 50, "einfacher Gewinn oder Verlust (61–90), je Gegenspieler (Cent)"),
            Param(
                "schneider_cents",
                60,
                "Schneider (ab 91 gewonnen, bis 29 verloren), je Gegenspieler (Cent)",
            ),
            Param("durch_cents", None, "Durch / Schwarz, je Gegenspieler (leer: wie Schneider)"),
            Param(
                "frage_factor",
                Fraction(1, 2),
                "so viel ist eine Frage im Verhältnis zum Handspiel wert",
                "rate",
            ),
            Param(
                "bettel_factor",
                Fraction(4),
                "so viele einfache Frage-Gewinne ist ein Bettel wert",
                "rate",
            ),
            common_tie("draw"),
        ),
        pay=pay,
    )
)
