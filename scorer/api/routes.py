"""API routes: the games catalogue and scoring one hand (sessions live in sessions.py)."""

from __future__ import annotations

from functools import lru_cache

from flask import jsonify

from scorer.api import answers, bodies
from scorer.api.blueprint import bp, group_bp, table_bp
from scorer.api.contract import WRITES, described, validated
from scorer.api.schema import json_body, score_to_json
from scorer.domain import GAMES, SYSTEMS
from scorer.domain.facts import parse_hand, parse_players
from scorer.domain.model import POT, Refusals
from scorer.domain.scoring import Rules
from scorer.extensions import csrf
from scorer.i18n.catalogue import say
from scorer.i18n.reader import LANGUAGES, language

# The API takes no form token, as before the nesting; Flask-WTF exempts a blueprint by its
# own name, so each nested one is named too.
for blueprint in (bp, table_bp, group_bp):
    csrf.exempt(blueprint)


@bp.get("/games")
@described("Games, payment systems and their parameters", {200: ("Games", list)})
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
@described(
    "Score one hand without storing it",
    {200: ("The result, net amounts, postings, explanation", answers.Score)},
    body=bodies.ScoreRequest,
    refusals=WRITES,
)
def score():
    """Score one hand and store nothing."""
    data = json_body()
    rules = Rules.build(data.get("game"), data.get("system"), data.get("params"))
    refusals = Refusals()
    table = {name: value for name, value in data.items() if name != "hand"}
    body = refusals.check(validated, bodies.ScoreTable, table, {"game": rules.game})
    hand = refusals.check(parse_hand, data.get("hand"), rules.game)
    players = refusals.check(parse_players, body.players) if body is not None else []
    refusals.done()
    result = rules.score(players, hand, pot_cents=body.pot_cents)
    return jsonify(score_to_json(result, [*players, POT]))
