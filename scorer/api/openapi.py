"""The OpenAPI 3.1 description of the JSON API, served at `/api/v1/openapi.json`.

Written out by hand from API.md (the contract) rather than generated: the routes are
plain Flask views. `tests/test_openapi.py` keeps it honest: every API route is described
here with its methods, every described route exists, and the fuzz test sends requests
made from it.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify

from scorer.api.blueprint import bp
from scorer.api.openapi_schemas import (
    ADJUSTMENT,
    AUTH,
    BASIC,
    CONFLICT,
    ERRORS,
    GROUP,
    KEY,
    MEMBER,
    NOT_FOUND,
    NUMBER,
    RESPONSES,
    SCHEMAS,
    TOURNAMENT,
    G,
    S,
    T,
    answer,
    body,
    operation,
    ref,
)

PATHS: dict[str, Any] = {
    "/api/v1/openapi.json": {
        "get": operation("This document", {"200": answer("OpenAPI 3.1", ref("Object"))})
    },
    "/api/v1/games": {
        "get": operation("Games, payment systems and their parameters", {"200": answer("Games")})
    },
    "/api/v1/score": {
        "post": operation(
            "Score one hand without storing it",
            {"200": answer("The result, net amounts, postings, explanation"), **ERRORS},
            requestBody=body(ref("ScoreRequest")),
        )
    },
    "/api/v1/sessions": {
        "post": operation(
            "Open a table",
            {"201": answer("The session", ref("Session")), **ERRORS},
            requestBody=body(ref("NewSession")),
        )
    },
    "/api/v1/sessions/import": {
        "post": operation(
            "Import a JSON export as a new table",
            {"201": answer("The session", ref("Session")), **ERRORS, **CONFLICT},
            requestBody=body(ref("Object")),
        )
    },
    S: {
        "get": operation(
            "A table with every hand (ETag: the table's version)",
            {
                "200": answer("The session", ref("Session")),
                "304": answer("Not changed since If-None-Match"),
                **NOT_FOUND,
            },
            parameters=[KEY],
        )
    },
    S + "/hands": {
        "post": operation(
            "Record a hand (Idempotency-Key makes a retry return the first result; "
            "`number` makes sure a hand is entered once)",
            {
                "201": answer("The stored hand", ref("StoredHand")),
                **ERRORS,
                **NOT_FOUND,
                "409": answer(
                    "A stale version or a closed table (code conflict), or hand `number` is "
                    "stored already (code hand_exists, with the stored hand)",
                    {"oneOf": [ref("Error"), ref("HandExists")]},
                ),
            },
            parameters=[
                KEY,
                {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}},
            ],
            requestBody=body(ref("NewHand")),
        )
    },
    S + "/hands/{number}": {
        "get": operation(
            "One hand",
            {"200": answer("The hand", ref("StoredHand")), **NOT_FOUND},
            parameters=[KEY, NUMBER],
        ),
        "put": operation(
            "Correct a hand read at `version`; later hands are settled again",
            {"200": answer("The hand", ref("StoredHand")), **ERRORS, **NOT_FOUND, **CONFLICT},
            parameters=[KEY, NUMBER],
            requestBody=body(ref("HandEdit")),
        ),
        "delete": operation(
            "Strike a hand out (kept in the history)",
            {"204": answer("Voided"), **ERRORS, **NOT_FOUND, **CONFLICT},
            parameters=[
                KEY,
                NUMBER,
                {"name": "version", "in": "query", "required": True, "schema": {"type": "integer"}},
            ],
        ),
    },
    S + "/settlement": {
        "get": operation(
            "Balances with the pot shared out, and the fewest transfers",
            {"200": answer("Settlement"), **NOT_FOUND},
            parameters=[KEY],
        )
    },
    S + "/close": {
        "post": operation(
            "End the evening",
            {"200": answer("The session", ref("Session")), **ERRORS, **NOT_FOUND, **CONFLICT},
            parameters=[KEY],
        )
    },
    S + "/history": {
        "get": operation("Every change", {"200": answer("Events"), **NOT_FOUND}, parameters=[KEY])
    },
    **{
        S + f"/export.{kind}": {
            "get": operation(
                f"The evening as {kind.upper()}",
                {"200": {"description": kind.upper()}, **NOT_FOUND, "429": ERRORS["429"]},
                parameters=[KEY],
            )
        }
        for kind in ("csv", "json", "pdf")
    },
    "/api/v1/standings/{tournament_key}": {
        "get": operation(
            "Public standings of a tournament",
            {"200": answer("Standings"), **NOT_FOUND},
            parameters=[
                {
                    "name": "tournament_key",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string"},
                }
            ],
        )
    },
    "/api/v1/tournaments": {
        "get": operation(
            "The organiser's tournaments", {"200": answer("List"), **AUTH}, security=BASIC
        ),
        "post": operation(
            "Create a tournament",
            {"201": answer("The tournament"), **ERRORS, **AUTH},
            security=BASIC,
            requestBody=body(ref("NewTournament")),
        ),
    },
    T: {
        "get": operation(
            "A tournament",
            {"200": answer("Tournament"), **AUTH, **NOT_FOUND},
            security=BASIC,
            parameters=[TOURNAMENT],
        )
    },
    T + "/players": {
        "post": operation(
            "A late entry",
            {"201": answer("The player"), **ERRORS, **AUTH, **NOT_FOUND, **CONFLICT},
            security=BASIC,
            parameters=[TOURNAMENT],
            requestBody=body(ref("Player")),
        )
    },
    T + "/players/{name}": {
        "delete": operation(
            "A withdrawal after the current round",
            {"204": answer("Withdrawn"), **AUTH, **NOT_FOUND},
            security=BASIC,
            parameters=[
                TOURNAMENT,
                {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},
            ],
        )
    },
    T + "/rounds": {
        "post": operation(
            "Draw the next round (send `{}` as application/json)",
            {"201": answer("The round"), **ERRORS, **AUTH, **NOT_FOUND, **CONFLICT},
            security=BASIC,
            parameters=[TOURNAMENT],
            requestBody=body(ref("Object")),
        )
    },
    T + "/rounds/{number}": {
        "get": operation(
            "A round with its tables",
            {"200": answer("Round"), **AUTH, **NOT_FOUND},
            security=BASIC,
            parameters=[TOURNAMENT, NUMBER],
        )
    },
    T + "/rounds/{number}/swap": {
        "post": operation(
            "Swap two players before the round starts",
            {"200": answer("The round"), **ERRORS, **AUTH, **NOT_FOUND, **CONFLICT},
            security=BASIC,
            parameters=[TOURNAMENT, NUMBER],
            requestBody=body(ref("Swap")),
        )
    },
    T + "/rounds/{number}/close": {
        "post": operation(
            "Close a round (send `{}` as application/json)",
            {"200": answer("The round"), **ERRORS, **AUTH, **NOT_FOUND, **CONFLICT},
            security=BASIC,
            parameters=[TOURNAMENT, NUMBER],
            requestBody=body(ref("Object")),
        )
    },
    T + "/standings": {
        "get": operation(
            "Standings",
            {"200": answer("Standings"), **AUTH, **NOT_FOUND},
            security=BASIC,
            parameters=[TOURNAMENT],
        )
    },
    T + "/adjustments": {
        "get": operation(
            "The director's adjustments, taken back ones too",
            {"200": answer("Adjustments"), **AUTH, **NOT_FOUND},
            security=BASIC,
            parameters=[TOURNAMENT],
        ),
        "post": operation(
            "An adjustment or penalty in points, with its reason",
            {"201": answer("The adjustment"), **ERRORS, **AUTH, **NOT_FOUND, **CONFLICT},
            security=BASIC,
            parameters=[TOURNAMENT],
            requestBody=body(ref("Adjustment")),
        ),
    },
    T + "/adjustments/{adjustment_id}": {
        "delete": operation(
            "Take an adjustment back (send `{}` as application/json)",
            {"200": answer("The adjustment"), **ERRORS, **AUTH, **NOT_FOUND, **CONFLICT},
            security=BASIC,
            parameters=[TOURNAMENT, ADJUSTMENT],
        )
    },
    T + "/finish": {
        "post": operation(
            "The results become final (send `{}` as application/json)",
            {"200": answer("The tournament"), **ERRORS, **AUTH, **NOT_FOUND, **CONFLICT},
            security=BASIC,
            parameters=[TOURNAMENT],
            requestBody=body(ref("Object")),
        )
    },
    T + "/log": {
        "get": operation(
            "The tournament's log, oldest first",
            {"200": answer("Log"), **AUTH, **NOT_FOUND},
            security=BASIC,
            parameters=[TOURNAMENT],
        )
    },
}

PATHS.update(
    {
        "/api/v1/groups": {
            "post": operation(
                "Found a Stammtisch group (its key is the permission)",
                {"201": answer("The group", ref("Group")), **ERRORS},
                requestBody=body(ref("NewGroup")),
            )
        },
        G: {
            "get": operation(
                "A group: members, the Haferl, the season, its evenings",
                {"200": answer("The group", ref("Group")), **NOT_FOUND},
                parameters=[GROUP],
            )
        },
        G + "/members": {
            "post": operation(
                "Add members",
                {"200": answer("The group", ref("Group")), **ERRORS, **NOT_FOUND},
                parameters=[GROUP],
                requestBody=body(ref("Members")),
            )
        },
        G + "/members/{name}": {
            "put": operation(
                "Rename a member everywhere (`name`), or mark one who stopped coming "
                "(`coming`: false)",
                {"200": answer("The group", ref("Group")), **ERRORS, **NOT_FOUND},
                parameters=[GROUP, MEMBER],
                requestBody=body(ref("Rename")),
            )
        },
        G + "/rules": {
            "put": operation(
                "The rules and amounts of the group's next evenings (an evening keeps its own)",
                {
                    "200": answer("The group, with `from_evening`", ref("Group")),
                    **ERRORS,
                    **NOT_FOUND,
                },
                parameters=[GROUP],
                requestBody=body(ref("GroupRules")),
            )
        },
        G + "/evenings": {
            "post": operation(
                "Start an evening with the group's rules (and its carried Haferl)",
                {"201": answer("The session, with `group`", ref("Session")), **ERRORS, **NOT_FOUND},
                parameters=[GROUP],
                requestBody=body(ref("NewEvening")),
            )
        },
        G + "/season/close": {
            "post": operation(
                "End the season: share out the Haferl (send `{}`)",
                {"200": answer("The shares and the group"), **NOT_FOUND, **CONFLICT, **ERRORS},
                parameters=[GROUP],
                requestBody=body(ref("Object")),
            )
        },
        G + "/standings": {
            "get": operation(
                "The season table (`?season=N`, default the current one)",
                {"200": answer("Standings"), "400": ERRORS["400"], **NOT_FOUND},
                parameters=[
                    GROUP,
                    {"name": "season", "in": "query", "schema": {"type": "integer"}},
                ],
            )
        },
        G + "/players/{name}": {
            "get": operation(
                "A member's statistics this season",
                {"200": answer("Statistics"), **NOT_FOUND},
                parameters=[GROUP, MEMBER],
            )
        },
        G + "/settlement": {
            "get": operation(
                "One settle-up for every closed, unpaid evening",
                {"200": answer("Balances and the fewest transfers"), **NOT_FOUND},
                parameters=[GROUP],
            )
        },
        G + "/settlement/close": {
            "post": operation(
                "Mark the collected settle-up paid (send `{}`)",
                {"200": answer("The evenings paid"), **NOT_FOUND, **ERRORS},
                parameters=[GROUP],
                requestBody=body(ref("Object")),
            )
        },
    }
)
ARCHIVE = {"200": {"description": "The archive (exports.archive), as a download"}}
PATHS.update(
    {
        G + "/archive.json": {
            "get": operation(
                "The group's whole history as one file (format haferl-group, version 1)",
                {**ARCHIVE, **NOT_FOUND},
                parameters=[GROUP],
            )
        },
        "/api/v1/groups/import": {
            "post": operation(
                "A group's archive made anew under a new key: every evening's hands and "
                "the group's history replayed, every amount worked out again",
                {"201": answer("The group", ref("Group")), **ERRORS, **CONFLICT},
                requestBody=body(ref("Object")),
            )
        },
        T + "/archive.json": {
            "get": operation(
                "The tournament's rounds and tables as one file (haferl-tournament, version 1)",
                {**ARCHIVE, **AUTH, **NOT_FOUND},
                security=BASIC,
                parameters=[TOURNAMENT],
            )
        },
        "/api/v1/tournaments/import": {
            "post": operation(
                "A tournament's archive made anew as the caller's tournament, new keys",
                {"201": answer("The tournament"), **ERRORS, **AUTH, **CONFLICT},
                security=BASIC,
                requestBody=body(ref("Object")),
            )
        },
    }
)
SCHEMAS.update(
    {
        "NewGroup": {
            "type": "object",
            "required": ["game", "system"],
            "properties": {
                "name": {"type": "string"},
                "game": {"type": "string"},
                "system": {"type": "string"},
                "params": {"type": "object"},
                "members": {"type": "array", "items": {"type": "string"}},
                "carry_pot": {"type": "boolean"},
                "settle": {"enum": ["each_evening", "collected"]},
                "share_by": {"enum": ["equal", "evenings"]},
            },
        },
        "Group": {
            "type": "object",
            "required": ["key", "name", "members", "pot_cents", "season", "evenings"],
            "properties": {
                "key": {"type": "string"},
                "name": {"type": "string"},
                "members": {"type": "array", "items": {"type": "string"}},
                "pot_cents": {"type": "integer"},
                "season": {"type": "integer"},
                "evenings": {"type": "array", "items": {"type": "object"}},
            },
        },
        "Members": {
            "type": "object",
            "required": ["members"],
            "properties": {"members": {"type": "array", "items": {"type": "string"}}},
        },
        "Rename": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "coming": {"type": "boolean"}},
        },
        "GroupRules": {
            "type": "object",
            "properties": {"system": {"type": "string"}, "params": {"type": "object"}},
        },
        "NewEvening": {
            "type": "object",
            "required": ["players"],
            "properties": {
                "players": {"type": "array", "items": {"type": "string"}},
                "first_dealer": {"type": "string"},
                "name": {"type": "string"},
                "params": {"type": "object"},
            },
        },
    }
)

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Haferl API",
        "version": "1",
        "description": "Score keeping and settle-up for Tarock. Amounts are integer cents; "
        'errors are {"error": {"code", "message", "fields"}}. Texts (explanation lines, '
        "error messages, game and parameter names) are English unless Accept-Language asks "
        "for German (de); ids, codes and field names are the same in both.",
    },
    "paths": PATHS,
    "components": {
        "schemas": SCHEMAS,
        "responses": RESPONSES,
        "securitySchemes": {"basic": {"type": "http", "scheme": "basic"}},
    },
}


@bp.get("/openapi.json")
def openapi():
    return jsonify(DOCUMENT)
