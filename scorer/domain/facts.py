"""Players and hands from JSON-shaped data (an API request, an imported file), with a
message per bad field.

Only shapes, types and sizes are checked here; the rules engine checks the rules when the
hand is scored.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, cast

from scorer.domain.cardpoints import declarer_points
from scorer.domain.limits import MAX_BONUSES, MAX_ID, MAX_PLAYER_NAME, MAX_SEATS
from scorer.domain.message import Msg, msg, one_of
from scorer.domain.model import POT, Bonus, Hand, RuleError, pot_name_taken
from scorer.domain.names import alike_message, clean_name, look_alike, same_name
from scorer.domain.registry import Game
from scorer.domain.scoring import SUIT_NAMES
from scorer.domain.validation import is_whole

STORED_FIELDS = frozenset(
    {
        "declarer",
        "contract",
        "trump",
        "bid",
        "points",
        "all_tricks",
        "no_tricks",
        "doublings",
        "bonuses",
    }
)
"""The facts of a hand as `Hand.to_json` writes them."""
REQUEST_FIELDS = STORED_FIELDS | {"defender_points", "dealer"}
"""What a request may say about a hand: also the defenders' points and the dealer."""
BONUS_FIELDS = frozenset({"id", "side", "announced", "made"})


def parse_players(value: Any, field: str = "players") -> list[str]:
    """Player names (`names.clean_name`): a list of 1..40 characters each, different,
    none called 'pot'."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleError.one(field, msg("must be a list of names"))
    if len(value) > MAX_SEATS:
        raise RuleError.one(field, msg("at most %(count)s names", count=MAX_SEATS))
    names = [clean_name(v, field, MAX_PLAYER_NAME) for v in value]
    if any(same_name(n, POT) for n in names):
        raise RuleError.one(field, pot_name_taken())
    if clash := look_alike(names):
        raise RuleError.one(field, alike_message(*clash))
    return names


def _card_points(
    data: Mapping[str, Any], game: Game, bad: Callable[[str, Msg], None]
) -> int | None:
    """The declarer's card points of a hand: as given, or from the defenders'."""
    points = data.get("points")
    defender_points = data.get("defender_points")
    if points is not None and not is_whole(points):
        bad("points", msg("must be a whole number 0..%(maximum)s", maximum=game.total))
    if defender_points is None:
        return points
    if not is_whole(defender_points):
        bad("defender_points", msg("must be a whole number 0..%(maximum)s", maximum=game.total))
    elif points is not None:
        bad("defender_points", msg("give the declarer's points or the defenders', not both"))
    else:
        try:
            return declarer_points(defender_points, game.total)
        except RuleError as exc:
            for field, messages in exc.fields.items():
                for message in messages:
                    bad(field, message)
    return points


def parse_hand(data: Any, game: Game, *, fields: Collection[str] = REQUEST_FIELDS) -> Hand:
    """A Hand from its JSON object; keys outside `fields` are refused."""
    if not isinstance(data, dict):
        raise RuleError.one("hand", msg("must be an object"))
    errors: dict[str, list[Msg]] = {}

    def bad(field: str, message: Msg) -> None:
        said = errors.setdefault(field, [])
        if message not in said:  # the same message once per field
            said.append(message)

    for key in [k for k in data if k not in fields][:5]:
        bad(_field_name(key), msg("unknown field"))
    declarer = data.get("declarer")
    if not _text(declarer, MAX_PLAYER_NAME):
        bad("declarer", msg("name the declarer"))
    contract = data.get("contract")
    if not _text(contract, MAX_ID):
        bad("contract", one_of(game.contracts.values()))
    trump = data.get("trump")
    if trump is not None and not _text(trump, MAX_ID):
        bad("trump", one_of(SUIT_NAMES.values()))
    bid = data.get("bid")
    if bid is None:
        bid = 61
    if not (is_whole(bid) or bid == "durch"):
        bad("bid", msg("must be 61..116 in steps of 5 or 'durch'"))
    points = _card_points(data, game, bad)
    flags = {}
    for flag in ("all_tricks", "no_tricks"):
        flags[flag] = False if data.get(flag) is None else data[flag]
        if not isinstance(flags[flag], bool):
            bad(flag, msg("must be true or false"))
    doublings = 0 if data.get("doublings") is None else data["doublings"]
    if not is_whole(doublings):
        bad("doublings", msg("must be a whole number 0..5"))
    dealer = data.get("dealer")
    if dealer is not None and not _text(dealer, MAX_PLAYER_NAME):
        bad("dealer", msg("must be a player's name"))
    bonuses = _parse_bonuses(data.get("bonuses"), bad)
    if errors:
        raise RuleError(errors)
    # Both passed `_text` above (else a RuleError was raised): strings, not None.
    return Hand(
        declarer=cast(str, declarer).strip(),
        contract=cast(str, contract),
        trump=trump,
        bid=bid,
        points=points,
        all_tricks=flags["all_tricks"],
        no_tricks=flags["no_tricks"],
        doublings=doublings,
        bonuses=bonuses,
        dealer=dealer,
    )


def _parse_bonuses(value: Any, bad: Callable[[str, Msg], None]) -> tuple[Bonus, ...]:
    """The bonuses, each refused for everything wrong with it; a bonus's unknown fields
    are said after all else that is wrong with the bonuses."""
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_BONUSES:
        bad("bonuses", msg("must be a list of at most %(count)s bonuses", count=MAX_BONUSES))
        return ()
    bonuses = []
    unknown_said = []
    for item in value:
        if not isinstance(item, dict):
            bad("bonuses", msg("each bonus is an object with an 'id'"))
            continue
        no_text = [_written(key) for key in item if _written(key) != key]
        unknown = no_text or sorted(map(str, set(item) - BONUS_FIELDS))
        if unknown:
            fields = ", ".join(sorted(unknown)[:5])
            unknown_said.append(msg("unknown bonus fields: %(fields)s", fields=fields))
        if no_text:  # a bonus whose fields cannot be read: nothing else is said of it
            continue
        bonus_id = item.get("id")
        side = item.get("side", "declarer")
        announced = item.get("announced", False)
        made = item.get("made", True)
        fits = _text(bonus_id, MAX_ID)
        if not fits:
            bad("bonuses", msg("each bonus is an object with an 'id'"))
        if side not in ("declarer", "defenders"):
            bad("bonuses", msg("a bonus's side is 'declarer' or 'defenders'"))
            fits = False
        if not isinstance(announced, bool) or not isinstance(made, bool):
            bad("bonuses", msg("'announced' and 'made' are true or false"))
            fits = False
        if fits:
            bonuses.append(Bonus(item["id"], side, announced, made))
    for said in unknown_said:
        bad("bonuses", said)
    return tuple(bonuses)


def _field_name(key: Any) -> str:
    """An unknown field's name as an error names it (`_written`), at most MAX_ID long."""
    return _written(key)[:MAX_ID]


def _written(key: Any) -> str:
    """A field's name as it can be written: '?' for what cannot (a lone surrogate)."""
    return str(key).encode("utf-8", "replace").decode()


def _text(value: Any, limit: int) -> bool:
    return isinstance(value, str) and value.strip() != "" and len(value) <= limit
