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
from scorer.domain.message import Msg, msg
from scorer.domain.model import Hand
from scorer.domain.params import Param
from scorer.domain.registry import Game, System, register_game

TOTAL = 120
TARGET = 61
NO_TRICK_MAX_POINTS = 33
"""A declarer who took no trick holds at most the three cards of the stock or discard."""

CONTRACTS = {"frage": msg("Frage"), "hand": msg("Hand (Solo)"), "bettel": msg("Bettel")}

KONTRA_PARAMS = (
    Param(
        "max_doublings",
        2,
        msg("how often one may double: 2 = Kontra and Re, up to 5 with Supp, Resupp, Hirsch"),
        "int",
        maximum=5,
    ),
    Param(
        "kontra_shifts_burden",
        False,
        msg(
            "after a Kontra the defenders must reach the target; "
            "the declarer wins or loses the smallest amount"
        ),
        "bool",
    ),
)
BERLINER = Param(
    "berliner",
    False,
    msg("only the dealer may play a Frage, everyone else plays a hand game"),
    "bool",
)
HEARTS_ONLY = Param(
    "frage_hearts_only", False, msg("a Frage is played with hearts as trump"), "bool"
)


def validate(
    game: Game, system: System, hand: Hand, params: Mapping[str, Any]
) -> dict[str, list[Msg]]:
    errors: dict[str, list[Msg]] = {}
    if hand.contract == "bettel":
        if hand.trump is not None:
            errors["trump"] = [msg("Bettel has no trumps")]
    elif game.trump_required and hand.trump is None:
        errors["trump"] = [msg("choose the trump suit")]
    hearts_only = params.get("frage_hearts_only") or game.id == "scharfer-tarock"
    if hand.contract == "frage" and hearts_only and hand.trump != "herz":
        errors["trump"] = [msg("a Frage is played with hearts (Herz) as trump at this table")]
    if params.get("berliner") and hand.contract != "hand":
        # Only the dealer may play a Frage; everyone else plays a hand game.
        if hand.dealer is None:
            errors["dealer"] = [msg("needed to check the Berliner rule")]
        elif hand.dealer != hand.declarer:
            errors["contract"] = [
                msg("Berliner: only the dealer may play a Frage; everyone else plays a hand game")
            ]
    if hand.no_tricks and hand.points is not None and hand.points > NO_TRICK_MAX_POINTS:
        errors["no_tricks"] = [
            msg(
                "a declarer with no trick has at most the stock: %(points)s points",
                points=NO_TRICK_MAX_POINTS,
            )
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
        contract_words={"hand": msg("Solo")},
        heart_words={"hand": msg("Herzsolo")},
    )
    defaults.update(kwargs)
    return register_game(Game(contracts=contracts, **defaults))


_game(
    id="tarok",
    name=msg("Tarock (simple)"),
    contract_ids=("frage", "hand"),
    systems=("points-kasse", "fixed-direct", "multiples"),
    description=msg(
        "Three contracts: Frage (with picking up, any trump), Hand (Solo) and Herzsolo."
    ),
)
_game(
    id="tarok-bettel",
    name=msg("Tarock with Bettel"),
    contract_ids=("frage", "hand", "bettel"),
    systems=("points-kasse", "fixed-direct", "multiples"),
    heart_words={"frage": msg("Herz-Frage"), "hand": msg("Herzsolo")},
    description=msg(
        "Frage, Herz-Frage, Solo, Herzsolo and Bettel. A Bettel has no trump, the Ten ranks "
        "between the Unter and the Nine, and the declarer must take no trick."
    ),
)
_game(
    id="haferltarock",
    name=msg("Haferltarock"),
    contract_ids=("frage", "hand"),
    systems=("parlett-units", "levels", "danyliuk-cents"),
    bids=True,
    trump_required=False,
    contract_words={"hand": msg("Hand")},
    heart_words={},
    description=msg(
        "Bavarian Tarock with bidding: Frage (pick-up game) or hand game with bids 61, 66, …, 116."
    ),
)
_game(
    id="scharfer-tarock",
    name=msg("Scharfer Tarock"),
    contract_ids=("frage", "hand"),
    systems=("scharf-fixed",),
    players=(3,),
    params=(BERLINER, *KONTRA_PARAMS),
    description=msg("24 cards, 7 each: Frage (hearts only), Solo and Herzsolo."),
)
