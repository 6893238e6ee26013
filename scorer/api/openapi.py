"""The OpenAPI 3.1 description of the JSON API, served at `/api/v1/openapi.json`: made from
the routes (`@described` on each view) and the models of `scorer.api.bodies` and
`scorer.api.answers`, so what is documented is what is validated and sent.
`tests/test_openapi.py` checks that every API route is described; the fuzz test sends
requests made from this document."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask import Flask, current_app, jsonify
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from scorer.api.answers import Error
from scorer.api.blueprint import bp
from scorer.api.contract import Operation, described, operation_of

INFO = {
    "title": "Haferl API",
    "version": "1",
    "description": "Score keeping and settle-up for Tarock. Amounts are integer cents; "
    'errors are {"error": {"code", "message", "fields"}}. Texts (explanation lines, '
    "error messages, game and parameter names) are English unless Accept-Language asks "
    "for German (de); ids, codes and field names are the same in both.",
}

REFUSALS: dict[int, tuple[str, str]] = {
    400: ("Malformed", "The body is not well-formed JSON, or not an object."),
    401: ("Unauthorized", "HTTP Basic credentials of an organiser are needed."),
    404: ("NotFound", "No such table, hand, tournament or round."),
    409: ("Conflict", "A stale version, a closed evening or round."),
    413: ("TooLarge", "The body is larger than 2 MB."),
    415: ("NotJson", "The body is not application/json."),
    422: ("BrokenRule", "The request breaks a rule; `fields` says which."),
    429: ("TooMany", "Too many requests from this address (or wrong passwords)."),
}
"""The standard refusals, each a response of the document's components."""

REF = "#/components/schemas/{model}"
BODY, ANSWER = "validation", "serialization"
Refs = dict[tuple[type[BaseModel], str], dict[str, str]]
PATH_PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


@bp.get("/openapi.json")
@described("This document", {200: ("OpenAPI 3.1", dict)})
def openapi():
    return jsonify(document(current_app))


def document(app: Flask) -> dict[str, Any]:
    """The document for `app`'s API routes (made once per app)."""
    return _document(app)


@cache
def _document(app: Flask) -> dict[str, Any]:
    described_routes = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if not rule.rule.startswith("/api/"):
            continue
        operation = operation_of(app.view_functions[rule.endpoint])
        if operation is None:
            raise LookupError(f"{rule.endpoint} ({rule.rule}) is not @described")
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            described_routes.append((rule.rule, method.lower(), operation))
    schemas, refs = _schemas(op for _, _, op in described_routes)
    paths: dict[str, dict[str, Any]] = {}
    for address, method, operation in described_routes:
        path = PATH_PARAMETER.sub(r"{\2}", address)
        paths.setdefault(path, {})[method] = _operation(address, operation, refs)
    return {
        "openapi": "3.1.0",
        "info": INFO,
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": {
                name: _answer(description, Error, refs) for name, description in REFUSALS.values()
            },
            "securitySchemes": {"basic": {"type": "http", "scheme": "basic"}},
        },
    }


def _operation(rule: str, operation: Operation, refs: Refs) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": operation.summary}
    parameters = [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": {"type": "integer" if converter == "n" else "string"},
        }
        for converter, name in PATH_PARAMETER.findall(rule)
    ]
    parameters += [dict(p) for p in operation.parameters]
    if parameters:
        out["parameters"] = parameters
    if operation.body is not None:
        out["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _carried(operation.body, refs, BODY)}},
        }
    responses: dict[str, Any] = {
        str(status): _answer(description, reply, refs)
        for status, (description, reply) in operation.answers.items()
    }
    for status in operation.refusals:
        responses.setdefault(str(status), {"$ref": f"#/components/responses/{REFUSALS[status][0]}"})
    out["responses"] = dict(sorted(responses.items()))
    if operation.basic:
        out["security"] = [{"basic": []}]
    return out


def _answer(description: str, reply: Any, refs: Refs) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if reply is not None:
        out["content"] = {"application/json": {"schema": _carried(reply, refs, ANSWER)}}
    return out


def _carried(reply: Any, refs: Refs, mode: str) -> dict[str, Any]:
    """The schema of what an answer or a body carries (see `contract.Reply`)."""
    if isinstance(reply, list):
        return {"type": "array", "items": _carried(reply[0], refs, mode)}
    if isinstance(reply, tuple):
        return {"oneOf": [_carried(r, refs, mode) for r in reply]}
    if reply is dict:
        return {"type": "object"}
    if reply is list:
        return {"type": "array"}
    return dict(refs[(reply, mode)])


def _models(reply: Any) -> list[type[BaseModel]]:
    if isinstance(reply, list | tuple):
        return [m for r in reply for m in _models(r)]
    return [reply] if isinstance(reply, type) and issubclass(reply, BaseModel) else []


def _schemas(operations: Any) -> tuple[dict[str, Any], Refs]:
    """Every model's JSON Schema (bodies as they are validated, answers as they are sent),
    and each model's reference to it."""
    bodies: set[type[BaseModel]] = set()
    answers: set[type[BaseModel]] = {Error}
    for operation in operations:
        bodies.update(_models(operation.body))
        for _, reply in operation.answers.values():
            answers.update(_models(reply))
    modes = [(m, BODY) for m in bodies] + [(m, ANSWER) for m in answers]
    modes.sort(key=lambda item: (item[0].__name__, item[1]))
    refs, schema = models_json_schema(modes, ref_template=REF)  # type: ignore[arg-type]
    return dict(sorted(schema.get("$defs", {}).items())), refs  # type: ignore[return-value]
