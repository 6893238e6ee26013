"""Parsing JSON request bodies into domain objects, with a message per bad field.

Only shapes and types are checked here; the rules engine checks the rules.
"""

from __future__ import annotations

from typing import Any

from flask import request

from scorer.api.errors import ApiError
from scorer.domain import Bonus, Hand, RuleError
from scorer.domain.cardpoints import declarer_points
from scorer.domain.model import POT
from scorer.domain.registry import Game
from scorer.validation import contains_nul

HAND_FIELDS = {
    "declarer",
    "contract",
    "trump",
    "bid",
    "points",
    "defender_points",
    "all_tricks",
    "no_tricks",
    "doublings",
    "bonuses",
    "dealer",
}
BONUS_FIELDS = {"id", "side", "announced", "made"}


def json_body() -> dict[str, Any]:
    """The request's JSON object; 400 when it is not well-formed JSON or not an object."""
    try:
        data = request.get_json(silent=True, force=True)
    except RecursionError:
        data = None
    if data is None:
        raise ApiError(400, "malformed_json", "the body must be well-formed JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "malformed_json", "the body must be a JSON object")
    if contains_nul(data):
        raise ApiError(400, "malformed_json", "text may not contain NUL characters")
    return data


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_players(value: Any, field: str = "players") -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleError.one(field, "must be a list of names")
    names = [v.strip() for v in value]
    if any(n.casefold() == POT for n in names):
        raise RuleError.one(field, f"'{POT}' is the name of the pot: choose another name")
    if any(not n or len(n) > 40 for n in names):
        raise RuleError.one(field, "every name must have 1..40 characters")
    if len(set(n.casefold() for n in names)) != len(names):
        raise RuleError.one(field, "names must be different")
    return names


def parse_hand(data: Any, game: Game, *, extra: set[str] = frozenset()) -> Hand:
    """A Hand from its JSON object; `extra` names keys the caller handles itself."""
    if not isinstance(data, dict):
        raise RuleError.one("hand", "must be an object")
    errors: dict[str, list[str]] = {}

    def bad(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    for key in data:
        if key not in HAND_FIELDS and key not in extra:
            bad(key, "unknown field")
    declarer = data.get("declarer")
    if not isinstance(declarer, str) or not declarer.strip():
        bad("declarer", "name the declarer")
    contract = data.get("contract")
    if not isinstance(contract, str):
        bad("contract", "must be one of: " + ", ".join(game.contracts))
    trump = data.get("trump")
    if trump is not None and not isinstance(trump, str):
        bad("trump", "must be a suit: eichel, gras, herz or schellen")
    bid = data.get("bid", 61)
    if bid is None:
        bid = 61
    if not (_int(bid) or bid == "durch"):
        bad("bid", "must be 61..116 in steps of 5, or 'durch'")
    points = data.get("points")
    defender_points = data.get("defender_points")
    if points is not None and not _int(points):
        bad("points", f"must be a whole number 0..{game.total}")
    if defender_points is not None:
        if points is not None:
            bad("defender_points", "give the declarer's points or the defenders', not both")
        elif not _int(defender_points):
            bad("defender_points", f"must be a whole number 0..{game.total}")
        else:
            try:
                points = declarer_points(defender_points, game.total)
            except RuleError as exc:
                errors.update(exc.fields)
    flags = {}
    for flag in ("all_tricks", "no_tricks"):
        flags[flag] = data.get(flag, False)
        if flags[flag] is None:
            flags[flag] = False
        if not isinstance(flags[flag], bool):
            bad(flag, "must be true or false")
    doublings = data.get("doublings", 0)
    if doublings is None:
        doublings = 0
    if not _int(doublings):
        bad("doublings", "must be a whole number 0..5")
    dealer = data.get("dealer")
    if dealer is not None and not isinstance(dealer, str):
        bad("dealer", "must be a player's name")
    bonuses = _parse_bonuses(data.get("bonuses"), bad)
    if errors:
        raise RuleError(errors)
    return Hand(
        declarer=declarer.strip(),
        contract=contract,
        trump=trump,
        bid=bid,
        points=points,
        all_tricks=flags["all_tricks"],
        no_tricks=flags["no_tricks"],
        doublings=doublings,
        bonuses=bonuses,
        dealer=dealer,
    )


def _parse_bonuses(value: Any, bad) -> tuple[Bonus, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        bad("bonuses", "must be a list")
        return ()
    bonuses = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            bad("bonuses", "each bonus is an object with an 'id'")
            continue
        unknown = set(item) - BONUS_FIELDS
        if unknown:
            bad("bonuses", "unknown bonus field(s): " + ", ".join(sorted(unknown)))
        side = item.get("side", "declarer")
        announced = item.get("announced", False)
        made = item.get("made", True)
        if side not in ("declarer", "defenders"):
            bad("bonuses", "a bonus's side is 'declarer' or 'defenders'")
            continue
        if not isinstance(announced, bool) or not isinstance(made, bool):
            bad("bonuses", "'announced' and 'made' are true or false")
            continue
        bonuses.append(Bonus(item["id"], side, announced, made))
    return tuple(bonuses)


def score_to_json(score, accounts) -> dict[str, Any]:
    return {
        "result": score.result,
        "net": score.net(accounts),
        "postings": [
            {"from": p.from_account, "to": p.to_account, "cents": p.cents} for p in score.postings
        ],
        "explanation": [line.to_json() for line in score.explanation],
    }
