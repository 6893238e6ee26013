"""The OpenAPI document's components: the schema of every body and the error answers."""

from __future__ import annotations

from typing import Any

from scorer.domain.limits import (
    MAX_ADJUSTMENT_POINTS,
    MAX_ADJUSTMENT_REASON,
    MAX_BONUSES,
    MAX_DEALS_PER_PLAYER,
    MAX_PLAYER_NAME,
    MAX_TABLE_NAME,
    MAX_TOURNAMENT_NAME,
    MAX_TOURNAMENT_ROUNDS,
)
from scorer.domain.tournament import TIE_BREAKS


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "fields": {
                        "type": "object",
                        "additionalProperties": {"type": "array", "items": {"type": "string"}},
                    },
                },
            }
        },
    },
    "Bonus": {
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string"},
            "side": {"enum": ["declarer", "defenders"]},
            "announced": {"type": "boolean"},
            "made": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
    "Hand": {
        "type": "object",
        "required": ["declarer", "contract"],
        "properties": {
            "declarer": {"type": "string", "maxLength": MAX_PLAYER_NAME},
            "contract": {"type": "string"},
            "trump": {"type": ["string", "null"]},
            "bid": {"oneOf": [{"type": "integer"}, {"const": "durch"}]},
            "points": {"type": ["integer", "null"]},
            "defender_points": {"type": ["integer", "null"]},
            "all_tricks": {"type": ["boolean", "null"]},
            "no_tricks": {"type": ["boolean", "null"]},
            "doublings": {"type": ["integer", "null"], "minimum": 0, "maximum": 5},
            "bonuses": {"type": ["array", "null"], "items": ref("Bonus"), "maxItems": MAX_BONUSES},
            "dealer": {"type": ["string", "null"]},
        },
        "additionalProperties": False,
    },
    "NewHand": {
        "allOf": [ref("Hand")],
        "properties": {
            "number": {
                "type": "integer",
                "minimum": 1,
                "description": "The number the device showed for the hand it enters: 409 "
                "hand_exists when that hand is stored already, 422 beyond the next.",
            }
        },
    },
    "HandExists": {
        "allOf": [ref("Error")],
        "properties": {
            "hand": ref("StoredHand"),
            "next_number": {"type": "integer"},
        },
        "required": ["hand", "next_number"],
    },
    "HandEdit": {
        "allOf": [ref("Hand")],
        "properties": {"version": {"type": "integer"}},
        "required": ["version"],
    },
    "StoredHand": {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "version": {"type": "integer"},
            "dealer": {"type": "string"},
            "sitting_out": {"type": ["string", "null"]},
            "hand": {"type": "object"},
            "result": {"enum": ["won", "lost", "draw"]},
            "net": {"type": "object", "additionalProperties": {"type": "integer"}},
            "explanation": {"type": "array", "items": {"type": "object"}},
            "round": {"type": "integer"},
            "new_round": {"type": "boolean"},
            "round_end": {"type": "boolean"},
            "pot_after": {"type": "integer"},
        },
    },
    "NewSession": {
        "type": "object",
        "required": ["game", "system", "players"],
        "properties": {
            "name": {"type": "string", "maxLength": MAX_TABLE_NAME},
            "game": {"type": "string"},
            "system": {"type": "string"},
            "params": {"type": "object"},
            "players": {"type": "array", "items": {"type": "string", "maxLength": MAX_PLAYER_NAME}},
            "first_dealer": {"type": "string"},
        },
    },
    "Session": {
        "type": "object",
        "properties": {
            "key": {"type": "string"},
            "name": {"type": "string"},
            "game": {"type": "string"},
            "system": {"type": "string"},
            "params": {"type": "object"},
            "players": {"type": "array", "items": {"type": "string"}},
            "balances": {"type": "object", "additionalProperties": {"type": "integer"}},
            "round": {"type": "integer"},
            "next_dealer": {"type": "string"},
            "hand_count": {"type": "integer"},
            "closed": {"type": "boolean"},
            "hands": {"type": "array", "items": ref("StoredHand")},
        },
    },
    "ScoreRequest": {
        "type": "object",
        "required": ["game", "system", "players", "hand"],
        "properties": {
            "game": {"type": "string"},
            "system": {"type": "string"},
            "params": {"type": "object"},
            "players": {"type": "array", "items": {"type": "string"}},
            "hand": ref("Hand"),
        },
    },
    "NewTournament": {
        "type": "object",
        "required": ["name", "game", "system", "players"],
        "properties": {
            "name": {"type": "string", "maxLength": MAX_TOURNAMENT_NAME},
            "date": {"type": "string", "format": "date"},
            "game": {"type": "string"},
            "system": {"type": "string"},
            "params": {"type": "object"},
            "rounds": {"type": "integer", "minimum": 1, "maximum": MAX_TOURNAMENT_ROUNDS},
            "deals_per_player": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_DEALS_PER_PLAYER,
            },
            "players": {"type": "array", "items": {"type": "string", "maxLength": MAX_PLAYER_NAME}},
            "tie_breaks": {
                "type": "array",
                "items": {"type": "string", "enum": list(TIE_BREAKS)},
                "uniqueItems": True,
            },
        },
    },
    "Player": {
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string", "maxLength": MAX_PLAYER_NAME}},
    },
    "Adjustment": {
        "type": "object",
        "required": ["player", "points", "reason"],
        "properties": {
            "player": {"type": "string", "maxLength": MAX_PLAYER_NAME},
            "points": {
                "type": "integer",
                "minimum": -MAX_ADJUSTMENT_POINTS,
                "maximum": MAX_ADJUSTMENT_POINTS,
                "not": {"const": 0},
            },
            "reason": {"type": "string", "minLength": 1, "maxLength": MAX_ADJUSTMENT_REASON},
        },
    },
    "Swap": {
        "type": "object",
        "required": ["a", "b"],
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
    },
    "Object": {"type": "object"},
}


def answer(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        out["content"] = {"application/json": {"schema": schema}}
    return out


def error_answer(description: str) -> dict[str, Any]:
    return answer(description, ref("Error"))


RESPONSES = {
    "Malformed": error_answer("The body is not well-formed JSON, or not an object."),
    "TooLarge": error_answer("The body is larger than 2 MB."),
    "NotJson": error_answer("The body is not application/json."),
    "BrokenRule": error_answer("The request breaks a rule; `fields` says which."),
    "TooMany": error_answer("Too many requests from this address (or wrong passwords)."),
    "NotFound": error_answer("No such table, hand, tournament or round."),
    "Conflict": error_answer("A stale version, a closed evening or round."),
    "Unauthorized": error_answer("HTTP Basic credentials of an organiser are needed."),
}


# --- building blocks of the paths ---------------------------------------------------


def body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


ERRORS = {
    "400": {"$ref": "#/components/responses/Malformed"},
    "413": {"$ref": "#/components/responses/TooLarge"},
    "415": {"$ref": "#/components/responses/NotJson"},
    "422": {"$ref": "#/components/responses/BrokenRule"},
    "429": {"$ref": "#/components/responses/TooMany"},
}
NOT_FOUND = {"404": {"$ref": "#/components/responses/NotFound"}}
CONFLICT = {"409": {"$ref": "#/components/responses/Conflict"}}
AUTH = {"401": {"$ref": "#/components/responses/Unauthorized"}}
BASIC: list[dict[str, list[str]]] = [{"basic": []}]

KEY = {"name": "key", "in": "path", "required": True, "schema": {"type": "string"}}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}
TOURNAMENT = {
    "name": "tournament_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer"},
}


ADJUSTMENT = {
    "name": "adjustment_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer"},
}
GROUP = {"name": "group_key", "in": "path", "required": True, "schema": {"type": "string"}}
MEMBER = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
G = "/api/v1/groups/{group_key}"


def operation(summary: str, responses: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"summary": summary, "responses": responses, **extra}


S = "/api/v1/sessions/{key}"
T = "/api/v1/tournaments/{tournament_id}"
