"""German and English: Flask-Babel, the reader's locale, and money and numbers per locale.

The locale is `?lang=` (remembered per device in a cookie), else the browser's
`Accept-Language`, else German on the pages and English in the JSON API (as API.md's
examples are). The catalogues live in `scorer/translations`; `make` compiles them.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, request
from flask_babel import Babel, get_locale

LANGUAGES = ("de", "en")
COOKIE = "lang"
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"

babel = Babel()


def select_locale() -> str:
    chosen = request.args.get("lang") or request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    default = "en" if request.path.startswith("/api/") else "de"
    return request.accept_languages.best_match(LANGUAGES, default=default) or default


def language() -> str:
    """The language of this request: "de" or "en"."""
    return str(get_locale() or "de")[:2]


def init_app(app: Flask) -> None:
    babel.init_app(
        app,
        locale_selector=select_locale,
        default_locale="de",
        default_timezone=app.config.get("TIMEZONE", "Europe/Berlin"),
        default_translation_directories=str(TRANSLATIONS),
    )
    app.jinja_env.globals.update(language=language, languages=LANGUAGES)

    @app.after_request
    def remember_language(response):
        """`?lang=en` once, and this device keeps English until it chooses again."""
        chosen = request.args.get("lang")
        if chosen in LANGUAGES and request.cookies.get(COOKIE) != chosen:
            response.set_cookie(
                COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax", httponly=True
            )
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
        return response

