"""The pages: the table blueprint, template helpers and the app-wide error pages."""

from __future__ import annotations

from flask import Flask, render_template
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from scorer.api.errors import handle_http_error_as_json, is_api_request
from scorer.busy import Busy
from scorer.domain.scoring import BIDS
from scorer.i18n.catalogue import euros, pot_short, say, say_line
from scorer.table.forms import SUIT_NAMES
from scorer.table.view import table_name


def format_amount(cents: int, points: bool = False, signed: bool = False) -> str:
    """Euros at an evening's table, points at a tournament table."""
    if not points:
        return euros(cents, signed)
    value = int(cents or 0)
    sign = "+" if signed and value > 0 else "−" if value < 0 else ""
    return f"{sign}{abs(value)} P"


def format_score(points: int) -> str:
    """A tournament score with its sign, as printed: +7, −7, 0."""
    value = int(points or 0)
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


ERROR_TITLES = {
    400: _l("Bad request"),
    401: _l("Please log in"),
    403: _l("Not allowed"),
    404: _l("Not found"),
    405: _l("Not possible this way"),
    409: _l("Changed in the meantime"),
    413: _l("Too large"),
    415: _l("Wrong kind of data"),
    422: _l("Cannot be processed"),
    429: _l("Too many requests"),
    500: _l("Something went wrong"),
    503: _l("Busy right now"),
}
"""Each error page's heading in the reader's language (werkzeug's names are English)."""

ERROR_TEXTS = {
    400: _l("The request could not be understood."),
    401: _l("This page is for organisers: please log in."),
    403: _l("This is not allowed."),
    404: _l("There is no such page. Is the link right?"),
    405: _l("This page cannot be opened this way: please go back and use its buttons."),
    409: _l("Someone changed this in the meantime: please reload."),
    413: _l("That is too large."),
    415: _l("The data was sent in a form this page does not take."),
    422: _l("That cannot be processed."),
    429: _l("Too many requests in a short time: please wait a minute."),
    500: _l("Something went wrong on the server."),
    503: _l("Please try again in a few seconds."),
}
"""What to say where werkzeug would give its own (English) default description."""


def error_page(exc: HTTPException) -> tuple[str, str]:
    """The heading and the sentence of an error page: the exception's own message where
    it has one, else the code's sentence in the reader's language."""
    code = exc.code or 500
    title = ERROR_TITLES.get(code) or exc.name
    # werkzeug's own sentence, or Flask-Limiter's "20 per 1 minute": ours instead.
    default = exc.description == type(exc).description or not exc.description or code == 429
    text = ERROR_TEXTS.get(code) if default else None
    return str(title), str(text) if text is not None else say(exc.description)


def init_app(app: Flask) -> None:
    from scorer import auth, exports, stammtisch, table, tournaments

    app.register_blueprint(table.bp)
    app.register_blueprint(exports.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(stammtisch.bp)
    app.jinja_env.filters["euro"] = euros
    app.jinja_env.filters["amount"] = format_amount
    app.jinja_env.filters["pot_short"] = pot_short
    app.jinja_env.filters["score"] = format_score
    app.jinja_env.filters["say"] = say
    app.jinja_env.filters["say_line"] = say_line
    app.jinja_env.filters["table_name"] = lambda session: say(table_name(session))
    app.jinja_env.globals.update(
        suit_names=SUIT_NAMES,
        bids=BIDS,
    )

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if is_api_request():
            return handle_http_error_as_json(exc)
        title, text = error_page(exc)
        return render_template("error.html", error=exc, title=title, text=text), exc.code

    @app.errorhandler(Busy)
    def printer_busy(exc: Busy):
        """A PDF could not be rendered now, or the database stayed locked: try again."""
        response = app.make_response(
            http_error(
                ServiceUnavailable(
                    _(
                        "It is busy right now (another report is being printed). "
                        "Please try again in a few seconds."
                    )
                )
            )
        )
        response.headers["Retry-After"] = "5"
        return response
