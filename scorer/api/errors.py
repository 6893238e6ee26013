"""API errors: a status code and `{"error": {"code", "message", "fields"}}`; never a 500."""

from __future__ import annotations

from flask import jsonify, request
from werkzeug.exceptions import HTTPException

from scorer.api import bp
from scorer.domain import RuleError


class ApiError(Exception):
    """An error the API answers with `status` and a JSON body."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        fields: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(message)
        self.status, self.code, self.message, self.fields = status, code, message, fields
        self.headers = headers or {}


def error_response(
    status: int, code: str, message: str, fields: dict[str, list[str]] | None = None
):
    body: dict = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return jsonify({"error": body}), status


@bp.errorhandler(ApiError)
def handle_api_error(exc: ApiError):
    body, status = error_response(exc.status, exc.code, exc.message, exc.fields)
    return body, status, exc.headers


@bp.errorhandler(RuleError)
def handle_rule_error(exc: RuleError):
    return error_response(422, "validation", "the request breaks a rule", exc.fields)


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
    return error_response(
        exc.code or 500, codes.get(exc.code or 500, "error"), exc.description or exc.name
    )
