"""`points-kasse`: cents per point over or under 60, paid through a Kasse (source 000,
simple Tarok)."""

from __future__ import annotations

from fractions import Fraction

from scorer.domain.model import POT, Line, Posting
from scorer.domain.money import ROUNDINGS, Rounding, round_cents
from scorer.domain.params import Param, common_tie, pot_params
from scorer.domain.payments import outcome, posting, pot_pays_declarer, tie_draft
from scorer.domain.registry import Deal, Draft, System, register_system


def pay(deal: Deal) -> Draft:
    params = deal.params
    rounding = params["rounding"]
    hand = deal.hand
    if hand.contract == "bettel":
        amount = params["bettel_cents"]
        if hand.no_tricks:
            return Draft(
                "won",
                pot_pays_declarer(deal, amount),
                [Line("Bettel won: the Kasse pays", cents=amount)],
            )
        return Draft(
            "lost",
            _loss(deal, amount, rounding),
            [Line("Bettel lost: the declarer pays", cents=amount), *_loss_lines(amount, rounding)],
        )

    rate: Fraction = params["rate_hand" if hand.contract == "hand" else "rate_frage"]
    result = outcome(deal, params["tie"])
    if result == "draw":
        return tie_draft()
    if result == "won":
        over = deal.points - 60
        exact = over * rate * (2 if hand.all_tricks else 1)
        amount = round_cents(exact, rounding)
        lines = [Line(f"won with {deal.points}: {over} points over 60 × {_rate(rate)}", cents=None)]
        if hand.all_tricks:
            lines.append(Line("Durch: doubled"))
        lines.append(Line(f"{_exact(exact)} rounded ({rounding}): the Kasse pays", cents=amount))
        return Draft("won", pot_pays_declarer(deal, amount), lines)
    # 60–60 counts as one point short where the table plays `tie = loss`.
    short = max(60 - deal.points, 1)
    exact = short * rate
    amount = round_cents(exact, rounding)
    lines = [
        Line(f"lost with {deal.points}: {short} points short × {_rate(rate)}"),
        Line(f"{_exact(exact)} rounded ({rounding}): the declarer pays", cents=amount),
        *_loss_lines(amount, rounding),
    ]
    return Draft("lost", _loss(deal, amount, rounding), lines)


def _loss(deal: Deal, amount: int, rounding: Rounding) -> list[Posting]:
    """The declarer pays `amount`; each defender receives half of it, rounded; the Kasse
    pays what is missing, or keeps what is left over."""
    half = round_cents(Fraction(amount, 2), rounding)
    first, second = deal.defenders
    to_first = min(half, amount)
    to_second = min(half, amount - to_first)
    return (
        posting(deal.declarer, first, to_first)
        + posting(deal.declarer, second, to_second)
        + posting(deal.declarer, POT, amount - to_first - to_second)
        + posting(POT, first, half - to_first)
        + posting(POT, second, half - to_second)
    )


def _loss_lines(amount: int, rounding: Rounding) -> list[Line]:
    half = round_cents(Fraction(amount, 2), rounding)
    lines = [Line("each defender receives half, rounded", cents=half)]
    if 2 * half > amount:
        lines.append(Line("the Kasse pays the difference", cents=2 * half - amount))
    elif 2 * half < amount:
        lines.append(Line("the rest goes into the Kasse", cents=amount - 2 * half))
    return lines


def _rate(rate: Fraction) -> str:
    return f"{rate.numerator}/{rate.denominator} ct" if rate.denominator != 1 else f"{rate} ct"


def _exact(amount: Fraction) -> str:
    return f"{float(amount):g} ct"


register_system(
    System(
        id="points-kasse",
        name="Punkte und Kasse",
        description="Cent je Auge über oder unter 60; Gewinne zahlt die Kasse.",
        params=(
            *pot_params(100),
            Param("rate_frage", Fraction(1, 2), "Cent je Auge bei der Frage", "rate"),
            Param("rate_hand", Fraction(1), "Cent je Auge beim Handspiel (Solo)", "rate"),
            Param(
                "rounding",
                "up5",
                "wie Beträge gerundet werden: auf 5 Cent auf, auf 5 Cent oder gar nicht",
                "choice",
                choices=ROUNDINGS,
            ),
            Param("bettel_cents", 20, "Wert eines Bettels (Cent)"),
            common_tie("draw"),
        ),
        pay=pay,
        has_pot=lambda params: True,
    )
)
