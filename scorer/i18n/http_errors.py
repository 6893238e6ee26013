"""What an HTTP error says, in the reader's language, on a page and in the API's JSON:
the error's own message where it has one, else a sentence of ours for its status code
(werkzeug's default descriptions are English, and Flask-Limiter's is "20 per 1 minute")."""

from __future__ import annotations

from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorer.i18n.catalogue import say
from scorer.i18n.words import lazy_gettext as _l

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


def error_title(exc: HTTPException) -> str:
    """An error page's heading."""
    return str(ERROR_TITLES.get(exc.code or 500) or exc.name)


FORM_NOT_CHECKED = _l(
    "This form could not be checked: it is too old, or it was not sent from its page. "
    "Please reload the page and send it again."
)
"""For every refusal of Flask-WTF's CSRF check, whose own reasons are English ("The
referrer header is missing.") and mean the same to a player: reload and send again."""


def error_text(exc: HTTPException) -> str:
    """The error's sentence: its own message, or the status code's sentence of ours."""
    if isinstance(exc, CSRFError):
        return str(FORM_NOT_CHECKED)
    code = exc.code or 500
    default = exc.description == type(exc).description or not exc.description or code == 429
    text = ERROR_TEXTS.get(code) if default else None
    # werkzeug types a description as text; this app's are Msg too (security, api.schema).
    return str(text) if text is not None else say(exc.description)  # type: ignore[arg-type]
