"""Hypothesis strategies for every game and payment system: a table's parameters and random
valid hands of each kind of game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from scorer.domain import GAMES, SYSTEMS, Bonus, Hand
from scorer.domain.params import Param
from scorer.domain.scoring import BIDS, SUITS, Rules

PAIRS = [(game_id, system_id) for game_id, game in GAMES.items() for system_id in game.systems]
"""Every game with every payment system it has."""
PAIR_IDS = [f"{g}/{s}" for g, s in PAIRS]
PLAYERS = {3: ("Anton", "Berta", "Charlotte"), 2: ("Anton", "Berta")}
"""The players of a hand, by how many play it."""

RATES = st.sampled_from(["0", "0.5", "1", "0.25", "0.35", "2", 0.5, 1, 0.75])


def param_values(param: Param) -> st.SearchStrategy[Any]:
    if param.kind == "bool":
        return st.booleans()
    if param.kind == "choice":
        return st.sampled_from(param.choices)
    if param.kind == "rate":
        return RATES
    if param.allowed:
        return st.sampled_from(param.allowed)
    low = param.minimum if param.minimum is not None else 0
    high = param.maximum if param.maximum is not None else 300
    values = st.integers(low, high)
    return st.one_of(st.none(), values) if param.default is None else values


@st.composite
def tables(draw, game_id: str, system_id: str, amounts: bool = True) -> dict[str, Any]:
    """Raw parameters: each one left at its default or set to a random legal value.

    Without `amounts`, amounts in cents keep their defaults (random ones may rank a simple
    win above a Schneider, which no table does)."""
    game, system = GAMES[game_id], SYSTEMS[system_id]
    raw: dict[str, Any] = {}
    for param in game.all_params(system):
        if param.kind == "cents" and not amounts:
            continue
        if draw(st.booleans()):
            raw[param.name] = draw(param_values(param))
    return raw


POINTS_120 = st.one_of(st.integers(0, 120), st.sampled_from([0, 29, 30, 33, 60, 61, 90, 91, 120]))
POINTS_70 = st.one_of(st.integers(0, 70), st.sampled_from([0, 26, 27, 35, 36, 44, 45, 70]))


@st.composite
def bavarian_hands(draw, rules: Rules, declarer: str, players, **_: Any) -> Hand:
    game, system, params = rules.game, rules.system, rules.params
    contract = draw(st.sampled_from(list(game.contracts)))
    if contract == "bettel":
        trump = None
    elif contract == "frage" and (game.id == "scharfer-tarock" or params.get("frage_hearts_only")):
        trump = "herz"
    elif game.trump_required:
        trump = draw(st.sampled_from(SUITS))
    else:
        trump = draw(st.one_of(st.none(), st.sampled_from(SUITS)))
    bid: int | str = 61
    if game.bids and (contract == "hand" or params.get("pickup_raises")):
        choices: list[int | str] = list(BIDS)
        if system.durch_bid and contract == "hand":
            choices.append("durch")
        bid = draw(st.sampled_from(choices))
    if contract == "bettel":
        points, all_tricks, no_tricks = None, False, draw(st.booleans())
    else:
        points = draw(POINTS_120)
        all_tricks = points == game.total and draw(st.booleans())
        no_tricks = points <= 33 and draw(st.booleans())
    if params.get("berliner"):
        dealer = declarer if contract != "hand" else draw(st.sampled_from(players))
    else:
        dealer = draw(st.one_of(st.none(), st.sampled_from(players)))
    doublings = draw(st.integers(0, params.get("max_doublings", 0)))
    return Hand(
        declarer=declarer,
        contract=contract,
        trump=trump,
        bid=bid,
        points=points,
        all_tricks=all_tricks,
        no_tricks=no_tricks,
        doublings=doublings,
        dealer=dealer,
    )


TAPP_SILENT = ("koepfe", "trull", "koenigstrull", "pagat_ultimo")


@st.composite
def tapp_hands(draw, rules: Rules, declarer: str, players, *, valat_made: bool = True) -> Hand:
    contract = draw(st.sampled_from(list(rules.game.contracts)))
    bonuses: list[Bonus] = []
    announced = draw(st.sampled_from([None, "pagat_ultimo", "valat"]))
    if announced:
        bonuses.append(Bonus(announced, "declarer", True, draw(st.booleans())))
    for bonus_id in TAPP_SILENT:
        for side in ("declarer", "defenders"):
            if (bonus_id, side) == (announced, "declarer") or not draw(st.booleans()):
                continue
            made = True if bonus_id != "pagat_ultimo" else draw(st.booleans())
            bonuses.append(Bonus(bonus_id, side, False, made))
    points = draw(POINTS_70)
    if announced != "valat":
        valat = draw(st.sampled_from(["none", "declarer", "defenders", "unmade"]))
        if valat == "unmade" or (valat != "none" and not valat_made):
            bonuses.append(Bonus("valat", "declarer", False, False))
        elif valat != "none":
            bonuses.append(Bonus("valat", valat, False, True))
            points = 70 if valat == "declarer" else 0
    elif bonuses[0].made:
        if valat_made:
            points = 70
        else:
            bonuses[0] = replace(bonuses[0], made=False)
    order = draw(st.permutations(bonuses))
    return Hand(declarer=declarer, contract=contract, points=points, bonuses=tuple(order))


@st.composite
def strohmandeln_hands(
    draw, rules: Rules, declarer: str, players, *, valat_made: bool = True, **_: Any
) -> Hand:
    allowed = rules.game.bonus_ids(rules.system.id, rules.params)
    bonuses = []
    for bonus_id in allowed:
        for side in ("declarer", "defenders"):
            if draw(st.integers(0, 3)) == 0:
                announced = bonus_id in rules.game.announceable and draw(st.booleans())
                bonuses.append(Bonus(bonus_id, side, announced, draw(st.booleans())))
    points = draw(POINTS_70)
    valats = [b for b in bonuses if b.id == "valat" and b.made]
    if valats and not valat_made:
        bonuses = [b for b in bonuses if b not in valats]
    elif valats:  # one side took every trick, with every point or none
        bonuses = [b for b in bonuses if b not in valats[1:]]
        points = 70 if valats[0].side == "declarer" else 0
    return Hand(
        declarer=declarer,
        contract=draw(st.sampled_from(list(rules.game.contracts))),
        points=points,
        bonuses=tuple(draw(st.permutations(bonuses))),
    )


HANDS = {"tapp-tarock": tapp_hands, "strohmandeln": strohmandeln_hands}
"""The hands of the games that are not Bavarian; every other game's are `bavarian_hands`."""
