"""`levels`: a basic amount per level reached and per raise announced (source 003, variant
with bidding)."""

from __future__ import annotations

from scorer.domain.model import Line
from scorer.domain.params import Param, common_tie, pot_params
from scorer.domain.payments import direct, lost_half_from_pot, outcome, pot_pays_declarer, tie_draft
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
    lines = [Line(f"{'won' if won else 'lost'} with {p}", units=1)]
    m = 1
    if hand.contract == "hand":
        m += 1
        lines.append(Line("hand game", units=1))
    if raises:
        m += raises
        lines.append(
            Line(
                "Durch announced" if durch_bid else f"bid {target}: {raises} raise(s)", units=raises
            )
        )
    if won:
        levels = DURCH_RAISES if durch_bid else (p - 61) // 5
        if levels:
            lines.append(
                Line(
                    "Durch made" if durch_bid else f"{levels} level(s) reached (66, 71, …)",
                    units=levels,
                )
            )
    else:
        levels = 0 if durch_bid else (target - 1 - p) // 5
        if levels:
            lines.append(Line(f"{levels} more five(s) short", units=levels))
    m += levels
    amount = m * unit
    if hand.contract == "frage":
        postings = pot_pays_declarer(deal, amount) if won else lost_half_from_pot(deal, amount)
        how = "the Haferl pays" if won else "to each defender, one share from the Haferl"
    else:
        postings = direct(deal, amount, won)
        how = "each defender pays" if won else "paid to each defender"
    lines.append(Line(f"{m} × {unit} ct: {how}", cents=amount))
    return Draft(result, postings, lines)


register_system(
    System(
        id="levels",
        name="Stufen (mit Reizen)",
        description=(
            "Ein Grundbetrag für das Spiel, die Hand, jede erreichte Stufe und jede Erhöhung."
        ),
        params=(
            Param("unit_cents", 10, "der Grundbetrag (Cent)", minimum=1),
            *pot_params(100),
            common_tie("loss"),
        ),
        pay=pay,
        has_pot=lambda params: True,
        durch_bid=True,
    )
)
