"""The worked examples of RULES.md (tests/data/rules-vectors.json) through the rules
engine, independent of the API's parser."""

from __future__ import annotations

from typing import Any

from scorer.domain import GAMES, Bonus, Hand, score_hand


def hand_from_json(data: dict[str, Any], total: int) -> Hand:
    """The request's `hand` object as a domain Hand (independent of the API's parser)."""
    points = data.get("points")
    if data.get("defender_points") is not None:
        points = total - data["defender_points"]
    return Hand(
        declarer=data["declarer"],
        contract=data["contract"],
        trump=data.get("trump"),
        bid=data.get("bid", 61),
        points=points,
        all_tricks=data.get("all_tricks", False),
        no_tricks=data.get("no_tricks", False),
        doublings=data.get("doublings", 0),
        bonuses=tuple(Bonus(**b) for b in data.get("bonuses", [])),
        dealer=data.get("dealer"),
    )


def score_vector(request: dict[str, Any]):
    """What the rules engine makes of a worked example's request."""
    return score_hand(
        request["game"],
        request["system"],
        request.get("params") or {},
        players=request["players"],
        hand=hand_from_json(request["hand"], GAMES[request["game"]].total),
        pot_cents=request.get("pot_cents"),
    )
