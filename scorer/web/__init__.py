"""The pages: blueprints for the table and the start page, and the app-wide error pages."""

from __future__ import annotations

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException

from scorer.api.errors import handle_http_error_as_json, is_api_request


def init_app(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if is_api_request():
            return handle_http_error_as_json(exc)
        return render_template("error.html", error=exc), exc.code
