"""API errors: a status code and `{"error": {"code", "message", "fields"}}`; never a 500."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from flask import jsonify, request
from werkzeug.exceptions import HTTPException

from scorer.api import answers
from scorer.api.blueprint import bp
from scorer.domain import RuleError
from scorer.domain.message import Msg, msg
from scorer.i18n.catalogue import say, say_fields
from scorer.i18n.http_errors import error_text

Text = Msg | str
"""A message in English (the API's default) that the reader's language may replace."""


class ApiError(Exception):
    """An error the API answers with `status` and a JSON body."""

    def __init__(
        self,
        status: int,
        code: str,
        message: Text,
        *,
        fields: dict[str, list[Text]] | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(str(message))
        self.status, self.code, self.message, self.fields = status, code, message, fields
        self.headers = headers or {}


def error_response(
    status: int, code: str, message: Text, *, fields: Mapping[str, Iterable[Text]] | None = None
):
    """The error body, its message and field messages in the reader's language (English
    unless `Accept-Language` asks for German); the code and field names stay fixed."""
    body = answers.ErrorBody(code=code, message=say(message))
    if fields:
        body = answers.ErrorBody(code=code, message=say(message), fields=say_fields(fields))
    return jsonify(answers.Error(error=body).as_json()), status


@bp.errorhandler(ApiError)
def handle_api_error(exc: ApiError):
    body, status = error_response(exc.status, exc.code, exc.message, fields=exc.fields)
    return body, status, exc.headers


@bp.errorhandler(RuleError)
def handle_rule_error(exc: RuleError):
    return error_response(422, "validation", msg("the request breaks a rule"), fields=exc.fields)


def is_api_request() -> bool:
    return request.path.startswith(bp.url_prefix or "/api")


def handle_http_error_as_json(exc: HTTPException):
    """Registered app-wide: HTTP errors under /api/ answer in JSON."""
    codes = {
        400: "bad_request",
        404: "not_found",
        405: "method_not_allowed",
        409: "conflict",
        413: "too_large",
        415: "unsupported_media_type",
        429: "too_many_requests",
    }
    return error_response(exc.code or 500, codes.get(exc.code or 500, "error"), error_text(exc))
