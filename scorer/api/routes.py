"""API routes: the games catalogue and scoring one hand (sessions live in sessions.py)."""

from __future__ import annotations

from functools import lru_cache

from flask import jsonify

from scorer.api.blueprint import bp
from scorer.api.schema import json_body, score_to_json
from scorer.domain import GAMES, SYSTEMS, RuleError
from scorer.domain.facts import parse_hand, parse_players
from scorer.domain.message import msg
from scorer.domain.model import POT
from scorer.domain.scoring import Rules
from scorer.extensions import csrf
from scorer.i18n import LANGUAGES, language
from scorer.i18n.catalogue import say

csrf.exempt(bp)


@bp.get("/games")
def games():
    """Every game with its contracts, player counts and payment systems with parameters."""
    return jsonify(games_in(language()))


@lru_cache(maxsize=len(LANGUAGES))
def games_in(lang: str) -> list[dict]:
    """The games as JSON in one language: they never change while the server runs, so
    each language's list is made once."""
    return [game_to_json(game) for game in GAMES.values()]


def game_to_json(game) -> dict:
    systems = []
    for system_id in game.systems:
        system = SYSTEMS[system_id]
        params = game.all_params(system)
        systems.append(
            {
                "id": system.id,
                "name": say(system.name),
                "description": say(system.description),
                "params": {p.name: p.to_json(p.default) for p in params},
                "param_info": [
                    {
                        "name": p.name,
                        "kind": p.kind,
                        "default": p.to_json(p.default),
                        "help": say(p.help),
                        **({"choices": list(p.choices)} if p.choices else {}),
                    }
                    for p in params
                ],
            }
        )
    return {
        "id": game.id,
        "name": say(game.name),
        "description": say(game.description),
        "players": list(game.players),
        "contracts": list(game.contracts),
        "total_points": game.total,
        "target": game.target,
        "bids": game.bids,
        "systems": systems,
    }


@bp.post("/score")
def score():
    """Score one hand and store nothing."""
    data = json_body()
    rules = Rules.build(data.get("game"), data.get("system"), data.get("params"))
    players = parse_players(data.get("players"))
    pot_cents = data.get("pot_cents")
    if pot_cents is not None and (
        not isinstance(pot_cents, int) or isinstance(pot_cents, bool) or pot_cents < 0
    ):
        raise RuleError.one("pot_cents", msg("must be a whole number of cents ≥ 0, or null"))
    hand = parse_hand(data.get("hand"), rules.game)
    result = rules.score(players, hand, pot_cents=pot_cents)
    return jsonify(score_to_json(result, [*players, POT]))
