"""The pages: their blueprints, template helpers and the app-wide error pages."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, render_template
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from scorer.api.errors import handle_http_error_as_json, is_api_request
from scorer.domain.cardpoints import calculator
from scorer.domain.scoring import BIDS
from scorer.i18n.catalogue import pot_short, say, say_line
from scorer.i18n.formats import euros, score_text, sign, signed_number
from scorer.i18n.http_errors import error_text, error_title
from scorer.i18n.words import gettext as _
from scorer.live import is_live_poll
from scorer.reports.printing import COME_BACK, StillPrinting
from scorer.reports.refusals import PrinterBusy
from scorer.services import table_reads
from scorer.store.busy import Busy, DiskFull, is_disk_full
from scorer.web import assets
from scorer.web.forms import SUIT_NAMES
from scorer.web.links import language_url
from scorer.web.scripts import imported_modules


def format_amount(cents: int, points: bool = False, signed: bool = False) -> str:
    """Euros at an evening's table, points at a tournament table."""
    if not points:
        return euros(cents, signed)
    value = int(cents or 0)
    return f"{sign(value, signed)}{abs(value)} P"


def init_app(app: Flask, *, static: Path) -> None:
    from scorer import auth, stammtisch, table, tournaments, uploads

    app.register_blueprint(table.bp)
    app.register_blueprint(uploads.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(stammtisch.bp)
    assets.init_app(app, static)
    _template_helpers(app)
    _error_pages(app)


def _template_helpers(app: Flask) -> None:
    """The filters and globals the templates write money, points and messages with."""
    app.jinja_env.filters["euro"] = euros
    app.jinja_env.filters["amount"] = format_amount
    app.jinja_env.filters["pot_short"] = pot_short
    app.jinja_env.filters["score"] = score_text
    app.jinja_env.filters["units"] = lambda units: signed_number(units, signed=False)  # −8
    app.jinja_env.filters["say"] = say
    app.jinja_env.filters["say_line"] = say_line
    app.jinja_env.filters["table_name"] = lambda session: say(table_reads.table_name(session))
    scripts_folder = Path(app.static_folder or "static") / "js"
    app.jinja_env.globals.update(
        suit_names=SUIT_NAMES,
        bids=BIDS,
        language_url=language_url,
        card_calculator=calculator,
        script_imports=lambda entry: imported_modules(str(scripts_folder), entry),
    )

    @app.context_processor
    def live_poll() -> dict[str, bool]:
        return {"live_poll": is_live_poll()}


def _error_pages(app: Flask) -> None:
    """Every refusal a page in the reader's words (a JSON error under /api/): HTTP errors,
    a paper still printing, a busy printer or database, a full disk."""

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if is_api_request():
            return handle_http_error_as_json(exc)
        title, text = error_title(exc), error_text(exc)
        return render_template("error.html", error=exc, title=title, text=text), exc.code

    @app.errorhandler(StillPrinting)
    def still_printing(exc: StillPrinting):
        """A paper is being printed for this request: a page (opened from a link, in a
        browser, under /api/ too) that asks again by itself."""
        page = render_template("exports/printing.html", come_back=COME_BACK)
        response = app.make_response((page, 202))
        response.headers["Retry-After"] = str(COME_BACK)
        response.headers["Refresh"] = str(COME_BACK)
        return response

    @app.errorhandler(Busy)
    def busy(exc: Busy):
        """A PDF could not be rendered now, or the table or database stayed locked: try
        again."""
        text = None  # the 503 sentence every busy page says (`ERROR_TEXTS`)
        if isinstance(exc, PrinterBusy):
            text = _(
                "It is busy right now (another report is being printed). "
                "Please try again in a few seconds."
            )
        elif isinstance(exc, DiskFull):
            text = _(
                "The server's disk is full: nothing was saved. This device keeps what it "
                "sent and sends it again; please tell the organiser."
            )
        response = app.make_response(http_error(ServiceUnavailable(text)))
        response.headers["Retry-After"] = "5"
        return response

    @app.errorhandler(OSError)
    @app.errorhandler(OperationalError)
    def disk_full(exc: Exception):
        """A write that found the disk full (the database's or a file's) changed nothing
        (its transaction rolled back): 503, to be sent again. Any other such error is
        not handled here."""
        if not is_disk_full(exc):
            raise exc
        app.logger.error("the disk is full: %s", exc)
        return busy(DiskFull())
