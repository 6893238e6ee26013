"""Bavarian Tarock: simple Tarock, Tarock with Bettel, Haferltarock with bidding and
Scharfer Tarock. 120 card points, the declarer needs 61 (or his bid); three play, and at a
table of four the dealer sits out.

The payment systems live in their own modules; this one owns the games and their rules of
legality (Berliner, hearts-only Frage, bids, Bettel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.domain import (  # noqa: F401  (registration of the systems)
    danyliuk_cents,
    fixed_direct,
    levels,
    multiples,
    parlett_units,
    points_kasse,
    scharf_fixed,
)
from scorer.domain.model import Hand
from scorer.domain.params import Param
from scorer.domain.registry import Game, System, register_game

TOTAL = 120
TARGET = 61
NO_TRICK_MAX_POINTS = 33
"""A declarer who took no trick holds at most the three cards of the stock or discard."""

CONTRACTS = {"frage": "Frage", "hand": "Hand (Solo)", "bettel": "Bettel"}

KONTRA_PARAMS = (
    Param(
        "max_doublings",
        2,
        "wie oft gedoppelt werden darf: 2 = Kontra und Re, bis 5 mit Supp, Resupp, Hirsch",
        "int",
        maximum=5,
    ),
    Param(
        "kontra_shifts_burden",
        False,
        "nach Kontra muss die Gegenpartei das Ziel erreichen; "
        "der Spieler gewinnt oder verliert den kleinsten Betrag",
        "bool",
    ),
)
BERLINER = Param(
    "berliner", False, "nur der Geber darf eine Frage spielen, alle anderen spielen Hand", "bool"
)
HEARTS_ONLY = Param(
    "frage_hearts_only", False, "eine Frage wird mit Herz als Trumpf gespielt", "bool"
)


def validate(game: Game, system: System, hand: Hand, params: Mapping[str, Any]):
    errors: dict[str, list[str]] = {}
    if hand.contract == "bettel":
        if hand.trump is not None:
            errors["trump"] = ["Bettel has no trumps"]
    elif game.trump_required and hand.trump is None:
        errors["trump"] = ["choose the trump suit"]
    hearts_only = params.get("frage_hearts_only") or game.id == "scharfer-tarock"
    if hand.contract == "frage" and hearts_only and hand.trump != "herz":
        errors["trump"] = ["a Frage is played with hearts (Herz) as trump at this table"]
    if params.get("berliner") and hand.contract != "hand":
        # Only the dealer may play a Frage; everyone else plays a hand game.
        if hand.dealer is None:
            errors["dealer"] = ["needed to check the Berliner rule"]
        elif hand.dealer != hand.declarer:
            errors["contract"] = [
                "Berliner: only the dealer may play a Frage; everyone else plays a hand game"
            ]
    if hand.no_tricks and hand.points is not None and hand.points > NO_TRICK_MAX_POINTS:
        errors["no_tricks"] = [
            f"a declarer with no trick has at most the stock: {NO_TRICK_MAX_POINTS} points"
        ]
    return errors


def _game(**kwargs: Any) -> Game:
    contracts = {c: CONTRACTS[c] for c in kwargs.pop("contract_ids")}
    defaults: dict[str, Any] = dict(
        players=(3, 4),
        active=3,
        total=TOTAL,
        target=TARGET,
        validate=validate,
        params=(BERLINER, HEARTS_ONLY, *KONTRA_PARAMS),
        trump_required=True,
        contract_words={"hand": "Solo"},
        heart_words={"hand": "Herzsolo"},
    )
    defaults.update(kwargs)
    return register_game(Game(contracts=contracts, **defaults))


_game(
    id="tarok",
    name="Tarock (einfach)",
    contract_ids=("frage", "hand"),
    systems=("points-kasse", "fixed-direct", "multiples"),
    description="Drei Spiele: Frage (mit Aufnehmen, beliebiger Trumpf), Hand (Solo) und Herzsolo.",
)
_game(
    id="tarok-bettel",
    name="Tarock mit Bettel",
    contract_ids=("frage", "hand", "bettel"),
    systems=("points-kasse", "fixed-direct", "multiples"),
    heart_words={"frage": "Herz-Frage", "hand": "Herzsolo"},
    description=(
        "Frage, Herz-Frage, Solo, Herzsolo und Bettel. Beim Bettel gibt es keinen Trumpf, "
        "die Zehn steht zwischen Unter und Neun, und der Spieler darf keinen Stich machen."
    ),
)
_game(
    id="haferltarock",
    name="Haferltarock",
    contract_ids=("frage", "hand"),
    systems=("parlett-units", "levels", "danyliuk-cents"),
    bids=True,
    trump_required=False,
    contract_words={"hand": "Hand"},
    heart_words={},
    description="Bayerisch Tarock mit Reizen: Frage (Aufnahmespiel) oder Handspiel mit Geboten "
    "61, 66, …, 116.",
)
_game(
    id="scharfer-tarock",
    name="Scharfer Tarock",
    contract_ids=("frage", "hand"),
    systems=("scharf-fixed",),
    players=(3,),
    params=(BERLINER, *KONTRA_PARAMS),
    description="24 Karten, je 7: Frage (nur mit Herz), Solo und Herzsolo.",
)
