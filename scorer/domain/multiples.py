"""`multiples`: fixed multiples of a unit per contract (source 003, variant without
bidding); paid from the pocket or through a pot."""

from __future__ import annotations

from scorer.domain.model import Line
from scorer.domain.params import Param, common_tie, pot_params
from scorer.domain.payments import (
    direct,
    lost_half_from_pot,
    outcome,
    pot_pays_declarer,
    schneider,
    tie_draft,
)
from scorer.domain.registry import Deal, Draft, System, register_system


def base_multiplier(contract: str, trump: str | None) -> tuple[int, str]:
    if contract == "bettel":
        return 4, "Bettel"
    if contract == "hand":
        return (3, "Herzsolo") if trump == "herz" else (2, "Solo")
    return 1, ("Herz-Frage" if trump == "herz" else "Frage")


def pay(deal: Deal) -> Draft:
    params, hand = deal.params, deal.hand
    unit = params["unit_cents"]
    m, name = base_multiplier(hand.contract, hand.trump)
    lines = [Line(name, units=m)]
    if hand.contract == "bettel":
        won = hand.no_tricks
        result = "won" if won else "lost"
    else:
        result = outcome(deal, params["tie"])
        if result == "draw":
            return tie_draft()
        won = result == "won"
        if schneider(deal, won):
            m += 1
            lines.append(Line("Schneider", units=1))
        if hand.all_tricks if won else hand.no_tricks:
            m += 1
            lines.append(Line("Schwarz", units=1))
    amount = m * unit
    lines.insert(
        0,
        Line(
            f"{name} {result} with "
            + (
                "no trick"
                if hand.contract == "bettel" and won
                else "a trick"
                if hand.contract == "bettel"
                else f"{deal.points}"
            )
        ),
    )
    if params["payout"] == "pot":
        postings = pot_pays_declarer(deal, amount) if won else lost_half_from_pot(deal, amount)
        lines.append(
            Line(
                f"{m} × {unit} ct: "
                + ("the pot pays" if won else "to each defender, one share from the pot"),
                cents=amount,
            )
        )
    else:
        postings = direct(deal, amount, won)
        lines.append(
            Line(
                f"{m} × {unit} ct: " + ("each defender pays" if won else "paid to each defender"),
                cents=amount,
            )
        )
    return Draft(result, postings, lines)


register_system(
    System(
        id="multiples",
        name="Vielfache (ohne Reizen)",
        description="Frage 1, Solo 2, Herzsolo 3, Bettel 4 Einheiten; +1 Schneider, +1 Schwarz.",
        params=(
            Param("unit_cents", 10, "Wert einer Einheit (Cent)", minimum=1),
            Param(
                "payout",
                "pocket",
                "wer Gewinne zahlt: die Spieler untereinander oder das Haferl",
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
