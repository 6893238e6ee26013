"""Building blocks the payment systems share: who pays whom, and the outcome words."""

from __future__ import annotations

from scorer.domain.message import Msg, msg, msg_n
from scorer.domain.model import POT, Line, Posting, Result
from scorer.domain.registry import Deal, Draft


def posting(from_account: str, to_account: str, cents: int) -> list[Posting]:
    """One posting, or none for a zero amount (postings always carry cents > 0)."""
    if cents < 0:
        raise ValueError("a posting carries a positive amount")
    return [Posting(from_account, to_account, cents)] if cents else []


def each_defender_pays(deal: Deal, cents: int) -> list[Posting]:
    return [p for d in deal.defenders for p in posting(d, deal.declarer, cents)]


def declarer_pays_each(deal: Deal, cents: int) -> list[Posting]:
    return [p for d in deal.defenders for p in posting(deal.declarer, d, cents)]


def direct(deal: Deal, cents: int, won: bool) -> list[Posting]:
    """Paid between the players, no pot: each defender pays (won) or is paid (lost)."""
    return each_defender_pays(deal, cents) if won else declarer_pays_each(deal, cents)


def pot_pays_declarer(deal: Deal, cents: int) -> list[Posting]:
    return posting(POT, deal.declarer, cents)


def lost_half_from_pot(deal: Deal, cents: int) -> list[Posting]:
    """ "One defender is paid by the declarer, the other takes the same from the pot."

    The balances are the same whichever defender is which: each defender +c, declarer −c,
    pot −c.
    """
    first, second = deal.defenders
    return posting(deal.declarer, first, cents) + posting(POT, second, cents)


def outcome(deal: Deal, tie: str = "loss") -> Result:
    """Won, lost or draw for a points contract; 60–60 (target 61 of 120) follows `tie`."""
    points, target = deal.points, deal.target
    if deal.hand.bid == "durch":
        return "won" if deal.hand.all_tricks else "lost"
    if points >= target:
        return "won"
    if tie == "draw" and 2 * points == deal.game.total and target == deal.game.total // 2 + 1:
        return "draw"
    return "lost"


def schneider(deal: Deal, won: bool) -> bool:
    """Schneider: the declarer took ≥ 91 (won) or ≤ 29 (lost) of 120."""
    return deal.points >= 91 if won else deal.points <= 29


def tie_draft() -> Draft:
    """60–60 played as a draw: nothing is paid."""
    return Draft("draw", [], [Line(msg("60 to 60: a draw, nothing is paid"))])


def each_defender(won: bool) -> Msg:
    """Who pays in a direct payment: each defender pays (won) or is paid (lost)."""
    return msg("each defender pays") if won else msg("paid to each defender")


def more_fives_short(count: int) -> Msg:
    return msg_n("%(num)s more five short", "%(num)s more fives short", count)


def won_or_lost_with(won: bool, points: int) -> Msg:
    return (msg("won with %(points)s") if won else msg("lost with %(points)s")).with_args(
        points=points
    )


def points_times(n: int, point_cents: int, how: Msg) -> Msg:
    """ "+5 points × 10 ct: each defender pays": game points (signed) at so many cents."""
    return msg_n(
        "%(points)s point × %(unit)s ct: %(how)s",
        "%(points)s points × %(unit)s ct: %(how)s",
        abs(n),
        points=f"{n:+d}",
        unit=point_cents,
        how=how,
    )


def times_unit(m: int, unit: int, how: Msg) -> Msg:
    """ "3 × 10 ct: each defender pays"."""
    return msg("%(units)s × %(unit)s ct: %(how)s", units=m, unit=unit, how=how)
