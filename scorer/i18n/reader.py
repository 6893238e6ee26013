"""The reader's language on the web: which one a request reads, and the pages' words in it.

The language is `?lang=` (remembered per device in a cookie), else the browser's
`Accept-Language`, else German on the pages and English in the JSON API (as API.md's
examples are). It is chosen once as a request begins, before anything else of the request
runs, and entered as the reader's (`words.reading`). Everything said for the request says
it through the one façade, `scorer.i18n.words`: the templates' `_` and `ngettext`
(Jinja's i18n extension, given `words`' catalogues), their dates, the forms' words
(WTForms' own too: `scorer.web.forms.Form`), the engine's messages, the papers.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import TypeVar

from babel.dates import format_date, format_datetime, get_timezone
from flask import Flask, g, has_request_context, request

from scorer.i18n import words
from scorer.i18n.words import LANGUAGES, done_reading, reading, speaking

T = TypeVar("T")
COOKIE = "lang"


def chosen_language(default: str | None = None) -> str:
    """`?lang=`, else this device's choice, else the browser's; else `default`: German on
    the pages and English in the JSON API unless given. Outside a request (the CLI):
    German."""
    if not has_request_context():
        return "de"
    chosen = request.args.get("lang") or request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    if default is None:
        default = "en" if request.path.startswith("/api/") else "de"
    return request.accept_languages.best_match(LANGUAGES, default=default) or default


def language() -> str:
    """The language said in now: "de" or "en" (the reader's, unless `words.speaking`
    chose another)."""
    return words.current().language


LANGUAGE_NAMES = {"de": "Deutsch", "en": "English"}
"""Each language in its own words, for the switch in the footer."""


def in_each_language(say_it: Callable[[], T]) -> dict[str, T]:
    """`say_it()` once in each language: for what is kept on a device and read later in
    whichever language the device then uses (the start page's recent tables)."""
    said = {}
    for code in LANGUAGES:
        with speaking(code):
            said[code] = say_it()
    return said


def file_language() -> str:
    """The language of a printed sheet or a spreadsheet: the reader's (`?lang=`, the
    device's cookie, the browser's Accept-Language), else German, under /api/ too: these
    files are opened from a page, so they fall back to German as the pages do."""
    return chosen_language(default="de")


def _reader_comes(_endpoint: str | None = None, _values: object = None) -> None:
    if "reader" in g:
        return
    chosen = chosen_language()
    g.reader = reading(lambda: chosen)


def _reader_goes(_error: BaseException | None) -> None:
    token = g.pop("reader", None)
    if token is not None:
        done_reading(token)


def _template_gettext(text: str) -> str:
    return words.current().translations.gettext(text)


def _template_ngettext(singular: str, plural: str, num: int) -> str:
    return words.current().translations.ngettext(singular, plural, num)


def init_app(app: Flask) -> None:
    """The reader's language for every request (entered first, so that every refusal
    speaks it), the templates' words and dates in it, and the device's choice kept."""
    # The app's URL value preprocessors run first of all a request's preprocessing: before
    # the blueprints' (which load and lock a table, and may refuse its body) and before
    # every before_request function (CSRF, the limiter, the body checks).
    app.url_value_preprocessor(_reader_comes)
    app.teardown_request(_reader_goes)
    zone = get_timezone(app.config.get("TIMEZONE", "Europe/Berlin"))

    def dateformat(day: date, format: str = "medium") -> str:  # noqa: A002 (Babel's name)
        return format_date(day, format, locale=words.current().locale)

    def datetimeformat(moment: datetime, format: str = "medium") -> str:  # noqa: A002
        """A stored moment (UTC, naive as the database gives it) at the event's clock."""
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return format_datetime(moment, format, tzinfo=zone, locale=words.current().locale)

    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _template_gettext, _template_ngettext, newstyle=True
    )
    app.jinja_env.filters.update(dateformat=dateformat, datetimeformat=datetimeformat)
    app.jinja_env.globals.update(
        language=language,
        languages=LANGUAGES,
        language_names=LANGUAGE_NAMES,
    )

    @app.after_request
    def remember_language(response):
        """`?lang=en` once, and this device keeps English until it chooses again."""
        chosen = request.args.get("lang")
        if chosen in LANGUAGES and request.cookies.get(COOKIE) != chosen:
            response.set_cookie(
                COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax", httponly=True
            )
        if request.endpoint != "static":
            response.vary.add("Accept-Language")
            response.vary.add("Cookie")
        return response
