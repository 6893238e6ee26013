"""`levels`: a basic amount per level reached and per raise announced (source 003, variant
with bidding)."""

from __future__ import annotations

from scorer.domain.message import msg, msg_n
from scorer.domain.model import Line
from scorer.domain.params import Param, common_tie, pot_params
from scorer.domain.payments import (
    direct,
    each_defender,
    lost_half_from_pot,
    more_fives_short,
    outcome,
    pot_pays_declarer,
    tie_draft,
    times_unit,
    won_or_lost_with,
)
from scorer.domain.registry import Deal, Draft, System, register_system

DURCH_RAISES = 12


def pay(deal: Deal) -> Draft:
    params, hand = deal.params, deal.hand
    unit = params["unit_cents"]
    p, target = deal.points, deal.target
    durch_bid = hand.bid == "durch"
    result = outcome(deal, params["tie"])
    if result == "draw":
        return tie_draft()
    won = result == "won"
    raises = DURCH_RAISES if durch_bid else (target - 61) // 5
    lines = [Line(won_or_lost_with(won, p), units=1)]
    m = 1
    if hand.contract == "hand":
        m += 1
        lines.append(Line(msg("hand game"), units=1))
    if raises:
        m += raises
        lines.append(
            Line(
                msg("Durch announced")
                if durch_bid
                else msg_n(
                    "bid %(bid)s: %(num)s raise", "bid %(bid)s: %(num)s raises", raises, bid=target
                ),
                units=raises,
            )
        )
    if won:
        levels = DURCH_RAISES if durch_bid else (p - 61) // 5
        if levels:
            lines.append(
                Line(
                    msg("Durch made")
                    if durch_bid
                    else msg_n(
                        "%(num)s level reached (66, 71, …)",
                        "%(num)s levels reached (66, 71, …)",
                        levels,
                    ),
                    units=levels,
                )
            )
    else:
        levels = 0 if durch_bid else (target - 1 - p) // 5
        if levels:
            lines.append(Line(more_fives_short(levels), units=levels))
    m += levels
    amount = m * unit
    if hand.contract == "frage":
        postings = pot_pays_declarer(deal, amount) if won else lost_half_from_pot(deal, amount)
        how = msg("the Haferl pays") if won else msg("to each defender, one share from the Haferl")
    else:
        postings = direct(deal, amount, won)
        how = each_defender(won)
    lines.append(Line(times_unit(m, unit, how), cents=amount))
    return Draft(result, postings, lines)


register_system(
    System(
        id="levels",
        name=msg("Levels (with bidding)"),
        pays_durch=False,  # a Durch counts its card points, nothing more
        description=msg(
            "A basic amount for the game, the hand, each level reached and each raise."
        ),
        params=(
            Param("unit_cents", 10, msg("the basic amount (cents)"), minimum=1),
            *pot_params(100),
            common_tie("loss"),
        ),
        pay=pay,
        has_pot=lambda params: True,
        durch_bid=True,
    )
)
