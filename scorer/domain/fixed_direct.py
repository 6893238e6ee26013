"""`fixed-direct`: fixed payments straight between the players, no pot (source 000, Sirch)."""

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
    win = params["win_cents"]
    frage_factor: Fraction = params["frage_factor"]
    if hand.contract == "bettel":
        won = hand.no_tricks
        amount = round_cents(params["bettel_factor"] * win * frage_factor)
        text = (
            msg("Bettel won: %(factor)s × a Frage's win: %(how)s")
            if won
            else msg("Bettel lost: %(factor)s × a Frage's win: %(how)s")
        )
        factor = _factor(params["bettel_factor"])
        return Draft(
            "won" if won else "lost",
            direct(deal, amount, won),
            [Line(text.with_args(factor=factor, how=each_defender(won)), cents=amount)],
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
        base, why = durch_cents, (msg("Durch") if won else msg("Schwarz (no trick)"))
    elif schneider(deal, won):
        base, why = params["schneider_cents"], msg("Schneider")
    else:
        base, why = win, msg("simple")
    heading = msg("%(result)s: %(why)s", result=won_or_lost_with(won, deal.points), why=why)
    lines = [Line(heading, cents=base)]
    amount = base
    if hand.contract == "frage":
        amount = round_cents(base * frage_factor)
        lines.append(Line(msg("Frage: × %(factor)s", factor=_factor(frage_factor)), cents=amount))
    lines.append(Line(each_defender(won), cents=amount))
    return Draft(result, direct(deal, amount, won), lines)


def _factor(value: Fraction) -> str:
    return str(value) if value.denominator != 1 else str(value.numerator)


register_system(
    System(
        id="fixed-direct",
        name=msg("Fixed amounts (Sirch)"),
        description=msg("Fixed amounts straight between the players, no Haferl."),
        params=(
            Param("win_cents", 50, msg("a simple win or loss (61–90), per defender (cents)")),
            Param(
                "schneider_cents",
                60,
                msg("Schneider (won with 91 or more, lost with 29 or less), per defender (cents)"),
            ),
            Param(
                "durch_cents",
                None,
                msg("Durch / Schwarz, per defender (empty: as Schneider)"),
            ),
            Param(
                "frage_factor",
                Fraction(1, 2),
                msg("what a Frage is worth compared with a hand game"),
                "rate",
            ),
            Param(
                "bettel_factor",
                Fraction(4),
                msg("how many simple Frage wins a Bettel is worth"),
                "rate",
                contract="bettel",
            ),
            common_tie("draw"),
        ),
        pay=pay,
    )
)
