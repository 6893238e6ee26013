"""JSON in and out of the API: the request body, and a scored hand as JSON. Hands and
players are parsed by `scorer.domain.facts`."""

from __future__ import annotations

from typing import Any

from flask import request

from scorer.api.errors import ApiError
from scorer.validation import contains_nul


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


def score_to_json(score, accounts) -> dict[str, Any]:
    return {
        "result": score.result,
        "net": score.net(accounts),
        "postings": [
            {"from": p.from_account, "to": p.to_account, "cents": p.cents} for p in score.postings
        ],
        "explanation": [line.to_json() for line in score.explanation],
    }
