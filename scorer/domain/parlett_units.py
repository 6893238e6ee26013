"""`parlett-units`: units per five points, Frage through the Haferl (source 002)."""

from __future__ import annotations

from scorer.domain.message import msg, msg_n
from scorer.domain.model import Line
from scorer.domain.params import Param, common_tie, pot_params
from scorer.domain.payments import (
    direct,
    lost_half_from_pot,
    more_fives_short,
    outcome,
    pot_pays_declarer,
    tie_draft,
)
from scorer.domain.registry import Deal, Draft, System, register_system


def pay(deal: Deal) -> Draft:
    result = outcome(deal, deal.params["tie"])
    if result == "draw":
        return tie_draft()
    if deal.hand.contract == "frage":
        return _frage(deal, won=result == "won")
    return _hand_game(deal, won=result == "won")


def _frage(deal: Deal, *, won: bool) -> Draft:
    """A Frage: one unit, and one more for each five over (or under) the target; the
    Haferl pays a won one, and half of a lost one."""
    unit, p, target = deal.params["unit_cents"], deal.points, deal.target
    # A raised Frage (param pickup_raises) counts from its bid instead of 61.
    if won:
        m = 1 + (p - target) // 5
        lines = [Line(msg("Frage won, took %(points)s", points=p), units=1)]
        if m > 1:
            over = msg_n(
                "%(num)s more five over %(target)s",
                "%(num)s more fives over %(target)s",
                m - 1,
                target=target,
            )
            lines.append(Line(over, units=m - 1))
        pays = msg("the Haferl pays %(units)s × %(unit)s ct", units=m, unit=unit)
        lines.append(Line(pays, cents=m * unit))
        return Draft("won", pot_pays_declarer(deal, m * unit), lines)
    m = 1 + (target - 1 - p) // 5
    lines = [Line(msg("Frage lost, took %(points)s", points=p), units=1)]
    if m > 1:
        lines.append(Line(more_fives_short(m - 1), units=m - 1))
    lines.append(
        Line(
            msg(
                "%(units)s × %(unit)s ct to each defender: one from the declarer, "
                "one from the Haferl",
                units=m,
                unit=unit,
            ),
            cents=m * unit,
        )
    )
    return Draft("lost", lost_half_from_pot(deal, m * unit), lines)


def _hand_game(deal: Deal, *, won: bool) -> Draft:
    """A hand game with its bid: two units for each five over it (and two for the game),
    or two for each five short; paid between the declarer and each defender."""
    unit, p, target = deal.params["unit_cents"], deal.points, deal.target
    if won:
        fives = (p - target) // 5
        m = 2 + 2 * fives
        lines = [
            Line(msg("hand game won, bid %(bid)s, took %(points)s", bid=target, points=p), units=2)
        ]
        if fives:
            over = msg_n("%(num)s more five over the bid", "%(num)s more fives over the bid", fives)
            lines.append(Line(over, units=2 * fives))
    else:
        fives = -(-(target - p) // 5)
        m = 2 * fives
        lost = msg_n(
            "hand game lost, bid %(bid)s, took %(points)s: %(num)s five short",
            "hand game lost, bid %(bid)s, took %(points)s: %(num)s fives short",
            fives,
            bid=target,
            points=p,
        )
        lines = [Line(lost, units=m)]
    each = (
        msg("%(units)s × %(unit)s ct from each defender")
        if won
        else msg("%(units)s × %(unit)s ct to each defender")
    )
    lines.append(Line(each.with_args(units=m, unit=unit), cents=m * unit))
    return Draft("won" if won else "lost", direct(deal, m * unit, won), lines)


register_system(
    System(
        id="parlett-units",
        name=msg("Units (Parlett)"),
        pays_durch=False,  # a Durch counts its card points, nothing more
        description=msg(
            "Frage: 1 unit per five points from the Haferl; hand game 2 units per five, direct."
        ),
        params=(
            Param("unit_cents", 10, msg("the value of a unit (cents)"), minimum=1),
            *pot_params(100),
            common_tie("loss"),
            Param(
                "pickup_raises",
                False,
                msg("a Frage may be bid in fives too (every hand bid stays higher)"),
                "bool",
            ),
        ),
        pay=pay,
        has_pot=lambda params: True,
    )
)
