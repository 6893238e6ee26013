"""`points-kasse`: cents per point over or under 60, paid through a Kasse (source 000,
simple Tarok)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from scorer.domain.message import Msg, msg
from scorer.domain.model import POT, Line, Posting
from scorer.domain.money import ROUNDINGS, Rounding, round_cents
from scorer.domain.params import CHOICE_LABELS, Param, common_tie, pot_params
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
                [Line(msg("Bettel won: the Kasse pays"), cents=amount)],
            )
        return Draft(
            "lost",
            _loss(deal, amount, rounding),
            [
                Line(msg("Bettel lost: the declarer pays"), cents=amount),
                *_loss_lines(amount, rounding),
            ],
        )

    rate: Fraction = params["rate_hand" if hand.contract == "hand" else "rate_frage"]
    result = outcome(deal, params["tie"])
    if result == "draw":
        return tie_draft()
    if result == "won":
        over = deal.points - 60
        exact = over * rate * (2 if hand.all_tricks else 1)
        amount = round_cents(exact, rounding)
        over_60 = msg(
            "won with %(points)s: %(over)s points over 60 × %(rate)s",
            points=deal.points,
            over=over,
            rate=_rate(rate),
        )
        lines = [Line(over_60)]
        if hand.all_tricks:
            lines.append(Line(msg("Durch: doubled")))
        lines.append(Line(_rounded(exact, rounding, msg("the Kasse pays")), cents=amount))
        return Draft("won", pot_pays_declarer(deal, amount), lines)
    # 60–60 counts as one point short where the table plays `tie = loss`.
    short = max(60 - deal.points, 1)
    exact = short * rate
    amount = round_cents(exact, rounding)
    lines = [
        Line(
            msg(
                "lost with %(points)s: %(short)s points short × %(rate)s",
                points=deal.points,
                short=short,
                rate=_rate(rate),
            )
        ),
        Line(_rounded(exact, rounding, msg("the declarer pays")), cents=amount),
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
    lines = [Line(msg("each defender receives half, rounded"), cents=half)]
    if 2 * half > amount:
        lines.append(Line(msg("the Kasse pays the difference"), cents=2 * half - amount))
    elif 2 * half < amount:
        lines.append(Line(msg("the rest goes into the Kasse"), cents=amount - 2 * half))
    return lines


def _rate(rate: Fraction) -> str:
    return f"{rate.numerator}/{rate.denominator} ct" if rate.denominator != 1 else f"{rate} ct"


def _rounded(exact: Fraction, rounding: Rounding, how: Msg) -> Msg:
    """ "2,5 ct, round up to 5 cents: the Kasse pays"."""
    return msg(
        "%(exact)s ct, %(rounding)s: %(how)s",
        exact=Decimal(f"{float(exact):g}"),
        rounding=CHOICE_LABELS[rounding],
        how=how,
    )


register_system(
    System(
        id="points-kasse",
        name=msg("Points and Kasse"),
        pot_name=msg("Kasse"),
        description=msg("Cents per point over or under 60; the Kasse pays the wins."),
        params=(
            *pot_params(100),
            Param("rate_frage", Fraction(1, 2), msg("cents per point in a Frage"), "rate"),
            Param("rate_hand", Fraction(1), msg("cents per point in a hand game (Solo)"), "rate"),
            Param(
                "rounding",
                "up5",
                msg("how amounts are rounded: up to 5 cents, to 5 cents or not at all"),
                "choice",
                choices=ROUNDINGS,
            ),
            Param("bettel_cents", 20, msg("the value of a Bettel (cents)"), contract="bettel"),
            common_tie("draw"),
        ),
        pay=pay,
        has_pot=lambda params: True,
    )
)
