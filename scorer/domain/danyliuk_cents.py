"""`danyliuk-cents`: cents per point, Frage through the Haferl, hand games at double rate
(source 000, Danyliuk)."""

from __future__ import annotations

from scorer.domain.model import Line
from scorer.domain.params import common_tie, pot_params
from scorer.domain.payments import direct, lost_half_from_pot, outcome, pot_pays_declarer, tie_draft
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
        lines = [Line(f"Frage {result} with {p}", cents=5)]
        if extra:
            lines.append(Line(f"{extra} point(s) {'above 65' if won else 'below 56'}", cents=extra))
        if won:
            lines.append(Line("the Haferl pays", cents=amount))
            return Draft("won", pot_pays_declarer(deal, amount), lines)
        lines.append(
            Line("to each defender: one from the declarer, one from the Haferl", cents=amount)
        )
        return Draft("lost", lost_half_from_pot(deal, amount), lines)
    # The hand game's bands move with the target (bids above 61).
    extra = max(0, p - (target + 4)) if won else max(0, (target - 5) - p)
    amount = 10 + 2 * extra
    lines = [Line(f"hand game {result} with {p}, target {target}", cents=10)]
    if extra:
        lines.append(
            Line(f"{extra} point(s) {'above' if won else 'below'} the band × 2", cents=2 * extra)
        )
    lines.append(Line("each defender pays" if won else "paid to each defender", cents=amount))
    return Draft(result, direct(deal, amount, won), lines)


register_system(
    System(
        id="danyliuk-cents",
        name="Cent pro Auge (Danyliuk)",
        description=(
            "Frage: 5 ct plus 1 ct je Auge über die Spanne hinaus, aus dem Haferl; "
            "Handspiel 10 ct plus 2 ct je Auge, direkt."
        ),
        params=(*pot_params(50), common_tie("loss")),
        pay=pay,
        has_pot=lambda params: True,
    )
)
