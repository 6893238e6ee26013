"""The table pages speak German: every explanation line and rule message is translated."""

from __future__ import annotations

import re
from itertools import product

import pytest

from scorer.domain import GAMES, Bonus, Hand, RuleError
from scorer.domain.scoring import Rules
from scorer.table.messages import german, german_all, german_line

ENGLISH = re.compile(
    r"\b(the|with|pays|each|won|lost|defenders?|declarer|more|short|points?|over|below|"
    r"above|bid|took|draw|game|counts|announced|made|failed|nothing|paid|from|to|of|and|for|"
    r"rounded|raises?|levels?|wins|loses|doubled|half|rest|goes|only|holds)\b"
)
PLAYERS = ["Anton", "Berta", "Charlotte"]


def explanations(game, system_id, params):
    rules = Rules.build(game.id, system_id, params)
    players = PLAYERS[: game.active]
    bonus_sets = [()]
    for bonus_id in game.bonus_ids(system_id, rules.params):
        for side, announced, made in product(
            ("declarer", "defenders"), (False, True), (False, True)
        ):
            bonus_sets.append((Bonus(bonus_id, side, announced, made),))
    for contract, points, bonuses, doublings in product(
        game.contracts, range(0, game.total + 1, 7), bonus_sets, (0, 1)
    ):
        hand = Hand(
            "Anton",
            contract,
            trump="herz" if game.trump_required else None,
            points=None if contract == "bettel" else points,
            bonuses=bonuses,
            doublings=doublings,
            no_tricks=contract == "bettel" and points % 2 == 0,
        )
        try:
            score = rules.score(players, hand, pot_cents=15)
        except RuleError:
            continue
        yield from (line.text for line in score.explanation)


@pytest.mark.parametrize(
    ("game_id", "system_id", "params"),
    [
        (g.id, s, p)
        for g in GAMES.values()
        for s in g.systems
        for p in ([{}, {"kontra_shifts_burden": True}] if g.doublings else [{}])
    ],
)
def test_every_explanation_line_is_in_german(game_id, system_id, params):
    game = GAMES[game_id]
    texts = set(explanations(game, system_id, params))
    assert texts
    leftovers = {t: german_line(t) for t in texts if ENGLISH.search(german_line(t))}
    assert not leftovers


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("must be 0..120", "Augen: 0 bis 120"),
        ("Dieter deals and sits out this hand", "Dieter gibt und setzt aus"),
        ("names must be different", "Die Namen müssen verschieden sein"),
        ("something new", "something new"),
    ],
)
def test_rule_messages_in_german(message, expected):
    assert german(message) == expected


def test_german_all_translates_each_message_before_joining():
    # Joined first, the whole-message patterns would no longer match and nothing would be
    # translated.
    fields = {"players": ["names must be different"], "name": ["must be at least 3"]}
    assert german_all(fields) == "Die Namen müssen verschieden sein mindestens 3"
