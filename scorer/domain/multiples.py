"""`multiples`: fixed multiples of a unit per contract (source 003, variant without
bidding); paid from the pocket or through a pot."""

from __future__ import annotations

from scorer.domain.message import Msg, msg
from scorer.domain.model import Line, Result
from scorer.domain.params import Param, common_tie, pot_params
from scorer.domain.payments import (
    direct,
    each_defender,
    lost_half_from_pot,
    outcome,
    pot_pays_declarer,
    schneider,
    tie_draft,
    times_unit,
)
from scorer.domain.registry import Deal, Draft, System, register_system


def base_multiplier(contract: str, trump: str | None) -> tuple[int, Msg]:
    if contract == "bettel":
        return 4, msg("Bettel")
    if contract == "hand":
        return (3, msg("Herzsolo")) if trump == "herz" else (2, msg("Solo"))
    return 1, (msg("Herz-Frage") if trump == "herz" else msg("Frage"))


def pay(deal: Deal) -> Draft:
    params, hand = deal.params, deal.hand
    unit = params["unit_cents"]
    m, name = base_multiplier(hand.contract, hand.trump)
    lines = [Line(name, units=m)]
    if hand.contract == "bettel":
        won = hand.no_tricks
        result: Result = "won" if won else "lost"
    else:
        result = outcome(deal, params["tie"])
        if result == "draw":
            return tie_draft()
        won = result == "won"
        if schneider(deal, won):
            m += 1
            lines.append(Line(msg("Schneider"), units=1))
        if hand.all_tricks if won else hand.no_tricks:
            m += 1
            lines.append(Line(msg("Schwarz"), units=1))
    amount = m * unit
    if hand.contract == "bettel":
        heading = (
            msg("%(contract)s won with no trick") if won else msg("%(contract)s lost with a trick")
        ).with_args(contract=name)
    else:
        heading = (
            msg("%(contract)s won with %(points)s")
            if won
            else msg("%(contract)s lost with %(points)s")
        ).with_args(contract=name, points=deal.points)
    lines.insert(0, Line(heading))
    if params["payout"] == "pot":
        postings = pot_pays_declarer(deal, amount) if won else lost_half_from_pot(deal, amount)
        how = msg("the Haferl pays") if won else msg("to each defender, one share from the Haferl")
    else:
        postings = direct(deal, amount, won)
        how = each_defender(won)
    lines.append(Line(times_unit(m, unit, how), cents=amount))
    return Draft(result, postings, lines)


register_system(
    System(
        id="multiples",
        name=msg("Multiples (no bidding)"),
        description=msg("Frage 1, Solo 2, Herzsolo 3, Bettel 4 units; +1 Schneider, +1 Schwarz."),
        params=(
            Param("unit_cents", 10, msg("the value of a unit (cents)"), minimum=1),
            Param(
                "payout",
                "pocket",
                msg("who pays wins: the players among themselves or the Haferl"),
                "choice",
                choices=("pocket", "pot"),
            ),
            *pot_params(100),
            common_tie("loss"),
        ),
        pay=pay,
        has_pot=lambda params: params["payout"] == "pot",
    )
)
