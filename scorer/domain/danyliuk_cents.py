"""`danyliuk-cents`: cents per point, Frage through the Haferl, hand games at double rate
(source 000, Danyliuk)."""

from __future__ import annotations

from scorer.domain.message import msg, msg_n
from scorer.domain.model import Line
from scorer.domain.params import common_tie, pot_params
from scorer.domain.payments import (
    direct,
    each_defender,
    lost_half_from_pot,
    outcome,
    pot_pays_declarer,
    tie_draft,
)
from scorer.domain.registry import Deal, Draft, System, register_system


def pay(deal: Deal) -> Draft:
    params, hand = deal.params, deal.hand
    p, target = deal.points, deal.target
    result = outcome(deal, params["tie"])
    if result == "draw":
        return tie_draft()
    won = result == "won"
    if hand.contract == "frage":
        extra = max(0, p - 65) if won else max(0, 56 - p)
        amount = 5 + extra
        frage = msg("Frage won with %(points)s") if won else msg("Frage lost with %(points)s")
        lines = [Line(frage.with_args(points=p), cents=5)]
        if extra:
            beyond = (
                msg_n("%(num)s point above 65", "%(num)s points above 65", extra)
                if won
                else msg_n("%(num)s point below 56", "%(num)s points below 56", extra)
            )
            lines.append(Line(beyond, cents=extra))
        if won:
            lines.append(Line(msg("the Haferl pays"), cents=amount))
            return Draft("won", pot_pays_declarer(deal, amount), lines)
        lines.append(
            Line(msg("to each defender: one from the declarer, one from the Haferl"), cents=amount)
        )
        return Draft("lost", lost_half_from_pot(deal, amount), lines)
    # The hand game's bands move with the target (bids above 61).
    extra = max(0, p - (target + 4)) if won else max(0, (target - 5) - p)
    amount = 10 + 2 * extra
    game = (
        msg("hand game won with %(points)s, target %(target)s")
        if won
        else msg("hand game lost with %(points)s, target %(target)s")
    )
    lines = [Line(game.with_args(points=p, target=target), cents=10)]
    if extra:
        beyond = (
            msg_n("%(num)s point above the band × 2", "%(num)s points above the band × 2", extra)
            if won
            else msg_n(
                "%(num)s point below the band × 2", "%(num)s points below the band × 2", extra
            )
        )
        lines.append(Line(beyond, cents=2 * extra))
    lines.append(Line(each_defender(won), cents=amount))
    return Draft(result, direct(deal, amount, won), lines)


register_system(
    System(
        id="danyliuk-cents",
        name=msg("Cents per point (Danyliuk)"),
        pays_durch=False,  # a Durch counts its card points, nothing more
        description=msg(
            "Frage: 5 ct plus 1 ct per point beyond the band, from the Haferl; "
            "hand game 10 ct plus 2 ct per point, direct."
        ),
        params=(*pot_params(50), common_tie("loss")),
        pay=pay,
        has_pot=lambda params: True,
    )
)
