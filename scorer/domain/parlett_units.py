"""`parlett-units`: units per five points, Frage through the Haferl (source 002)."""

from __future__ import annotations

from scorer.domain.model import Line
from scorer.domain.params import Param, common_tie, pot_params
from scorer.domain.payments import direct, lost_half_from_pot, outcome, pot_pays_declarer, tie_draft
from scorer.domain.registry import Deal, Draft, System, register_system


def pay(deal: Deal) -> Draft:
    params, hand = deal.params, deal.hand
    unit = params["unit_cents"]
    p, target = deal.points, deal.target
    result = outcome(deal, params["tie"])
    if result == "draw":
        return tie_draft()
    won = result == "won"
    if hand.contract == "frage":
        # A raised Frage (param pickup_raises) counts from its bid instead of 61.
        if won:
            m = 1 + (p - target) // 5
            lines = [Line(f"Frage won, took {p}", units=1)]
            if m > 1:
                lines.append(Line(f"{m - 1} more five(s) over {target}", units=m - 1))
            lines.append(Line(f"the Haferl pays {m} × {unit} ct", cents=m * unit))
            return Draft("won", pot_pays_declarer(deal, m * unit), lines)
        m = 1 + (target - 1 - p) // 5
        lines = [Line(f"Frage lost, took {p}", units=1)]
        if m > 1:
            lines.append(Line(f"{m - 1} more five(s) short", units=m - 1))
        lines.append(
            Line(
                f"{m} × {unit} ct to each defender: one from the declarer, one from the Haferl",
                cents=m * unit,
            )
        )
        return Draft("lost", lost_half_from_pot(deal, m * unit), lines)
    if won:
        fives = (p - target) // 5
        m = 2 + 2 * fives
        lines = [Line(f"hand game won, bid {target}, took {p}", units=2)]
        if fives:
            lines.append(Line(f"{fives} more five(s) over the bid", units=2 * fives))
    else:
        fives = -(-(target - p) // 5)
        m = 2 * fives
        lines = [Line(f"hand game lost, bid {target}, took {p}: {fives} five(s) short", units=m)]
    lines.append(
        Line(
            f"{m} × {unit} ct " + ("from each defender" if won else "to each defender"),
            cents=m * unit,
        )
    )
    return Draft(result, direct(deal, m * unit, won), lines)


register_system(
    System(
        id="parlett-units",
        name="Einheiten (Parlett)",
        description=(
            "Frage: 1 Einheit je fünf Augen aus dem Haferl; Handspiel 2 Einheiten je fünf, direkt."
        ),
        params=(
            Param("unit_cents", 10, "Wert einer Einheit (Cent)", minimum=1),
            *pot_params(100),
            common_tie("loss"),
            Param(
                "pickup_raises",
                False,
                "auch eine Frage darf in Fünfern gereizt werden (jedes Handgebot bleibt höher)",
                "bool",
            ),
        ),
        pay=pay,
        has_pot=lambda params: True,
    )
)
