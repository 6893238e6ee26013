"""JSON in and out of the API: the request body, and a scored hand as JSON. Hands and
players are parsed by `scorer.domain.facts`."""

from __future__ import annotations

import json
from typing import Any

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from scorer.api import answers
from scorer.api.errors import ApiError
from scorer.domain.message import msg
from scorer.domain.validation import contains_nul
from scorer.i18n.catalogue import Speaker


def json_body() -> dict[str, Any]:
    """The request's JSON object: strict JSON (no NaN or Infinity), within the size limit
    however it is sent (413), an object (400 otherwise)."""
    raw = body_bytes()
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        data = None
    if data is None:
        raise ApiError(400, "malformed_json", msg("the body must be well-formed JSON"))
    if not isinstance(data, dict):
        raise ApiError(400, "malformed_json", msg("the body must be a JSON object"))
    if contains_nul(data):
        raise ApiError(400, "malformed_json", msg("text may not contain NUL characters"))
    return data


def body_bytes() -> bytes:
    """The request body, or 413 when it is larger than MAX_CONTENT_LENGTH: werkzeug
    checks a declared Content-Length, but cuts a chunked body off at the limit without a
    word, so a body that fills the limit exactly counts as too large."""
    raw = request.get_data(cache=True)
    limit = request.max_content_length
    if limit is not None and len(raw) >= limit:
        # A Msg as the description (werkzeug types it as text): error_text says it.
        raise RequestEntityTooLarge(msg("at most %(count)s bytes", count=limit - 1))  # type: ignore[arg-type]
    return raw


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def score_to_json(score, accounts) -> dict[str, Any]:
    speaker = Speaker()
    return answers.Score(
        result=score.result,
        net=score.net(accounts),
        postings=[
            answers.Transfer(from_=p.from_account, to=p.to_account, cents=p.cents)
            for p in score.postings
        ],
        explanation=[said_line(line.to_json(), speaker) for line in score.explanation],
    ).as_json()


def said_line(line: dict[str, Any], speaker: Speaker) -> dict[str, Any]:
    """A stored explanation line as the API gives it: its text in the reader's language."""
    said = {"text": speaker.line(line)}
    said.update((k, v) for k, v in line.items() if k in ("units", "cents"))
    return said
