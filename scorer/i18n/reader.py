"""German and English: Flask-Babel, the reader's locale, and money and numbers per locale.

The locale is `?lang=` (remembered per device in a cookie), else the browser's
`Accept-Language`, else German on the pages and English in the JSON API (as API.md's
examples are). The catalogues live in `scorer/translations`; `make` compiles them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from flask import Flask, g, has_request_context, request
from flask_babel import Babel, force_locale, get_locale

from scorer.i18n.words import (
    LANGUAGES,
    LOCALES,
    TRANSLATIONS,
    done_reading,
    reading,
    speaking,
)

T = TypeVar("T")
COOKIE = "lang"

babel = Babel()


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


def select_locale() -> str:
    return LOCALES[chosen_language()]


def language() -> str:
    """The language of this request: "de" or "en"."""
    return str(get_locale() or "de")[:2]


LANGUAGE_NAMES = {"de": "Deutsch", "en": "English"}
"""Each language in its own words, for the switch in the footer."""


def in_each_language(say_it: Callable[[], T]) -> dict[str, T]:
    """`say_it()` once in each language: for what is kept on a device and read later in
    whichever language the device then uses (the start page's recent tables)."""
    said = {}
    for code in LANGUAGES:
        with force_locale(LOCALES[code]):
            said[code] = say_it()
    return said


@contextmanager
def saying(lang: str) -> Iterator[str]:
    """Everything said inside is in `lang`: by the pages' words (Flask-Babel) and by the
    papers' (`words.speaking`) alike. For a file of the reader's (a spreadsheet)."""
    with force_locale(LOCALES.get(lang, "de_DE")), speaking(lang) as said:
        yield said.language


def file_language() -> str:
    """The language of a printed sheet or a spreadsheet: the reader's (`?lang=`, the
    device's cookie, the browser's Accept-Language), else German, under /api/ too: these
    files are opened from a page, so they fall back to German as the pages do."""
    return chosen_language(default="de")


def _reader_comes() -> None:
    g.reader = reading(language)


def _reader_goes(_error: BaseException | None) -> None:
    token = g.pop("reader", None)
    if token is not None:
        done_reading(token)


def init_app(app: Flask) -> None:
    app.before_request(_reader_comes)
    app.teardown_request(_reader_goes)
    babel.init_app(
        app,
        locale_selector=select_locale,
        default_locale="de",
        default_timezone=app.config.get("TIMEZONE", "Europe/Berlin"),
        default_translation_directories=str(TRANSLATIONS),
    )
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
