"""The words of each language, without Flask: the catalogues of `scorer/translations` and
the locale each language is written in.

What is said is said in the current language: the one chosen with `speaking(lang)` (a
printed paper, a file, a refresh thread), else the reader's, as the web layer tells it
(`reading`, entered by `scorer.i18n.reader` for each request; German where there is no
reader). Both are context variables: nothing here is set for the whole process. A thread
that works for a request enters the request's reader there (`reader`, then `reading`:
`scorer.live`'s refresher does).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.support import LazyProxy, Translations

LANGUAGES = ("de", "en")
LOCALES = {"de": "de_DE", "en": "en_GB"}
"""The locale each language is written in: English as in Britain, where a date reads
"2 December 2026" (the catalogues are per language: en_GB falls back to en)."""
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


@dataclass(frozen=True)
class Words:
    """A language: its code, its locale and its catalogue."""

    language: str
    locale: str
    translations: Translations

    def gettext(self, text: str, **args: Any) -> str:
        said = self.translations.gettext(text)
        return said % args if args else said

    def ngettext(self, singular: str, plural: str, num: int, **args: Any) -> str:
        return self.translations.ngettext(singular, plural, num) % {"num": num, **args}


@cache
def words_of(language: str) -> Words:
    """The words of `language` ("de" or "en"; anything else is German)."""
    language = language if language in LANGUAGES else "de"
    locale = LOCALES[language]
    catalogue = Translations.load(str(TRANSLATIONS), [locale], domain="messages")
    return Words(language, locale, catalogue)  # type: ignore[arg-type]


_speaking: ContextVar[Words | None] = ContextVar("speaking", default=None)


def _german() -> str:
    return "de"


_reader_language: ContextVar[Callable[[], str]] = ContextVar("reader_language", default=_german)


def reading(language: Callable[[], str]) -> Token[Callable[[], str]]:
    """From now on in this context, the reader's language is `language()` (the web layer's,
    asked when something is said: a page may switch it midway); `done_reading` ends it."""
    return _reader_language.set(language)


def reader() -> Callable[[], str]:
    """How the reader's language is asked in this context: for a thread that works for
    this request, to be `reading` there."""
    return _reader_language.get()


def done_reading(token: Token[Callable[[], str]]) -> None:
    """The reader of `reading` is gone: German again, where nobody reads."""
    _reader_language.reset(token)


def current() -> Words:
    """The words said now: those of `speaking`, else the reader's."""
    return _speaking.get() or words_of(_reader_language.get()())


def machine_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the person at this machine's terminal (`make run`'s banner, the
    command line): the first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set, as
    gettext reads them; English where it says English, else German."""
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return "en" if value.lower().startswith("en") else "de"
    return "de"


@contextmanager
def speaking(language: str) -> Iterator[Words]:
    """Everything said inside is in `language`, whoever reads it."""
    token = _speaking.set(words_of(language))
    try:
        yield current()
    finally:
        _speaking.reset(token)


def gettext(text: str, **args: Any) -> str:
    """`text` in the current language, `%(name)s` filled from `args`."""
    return current().gettext(text, **args)


def ngettext(singular: str, plural: str, num: int, **args: Any) -> str:
    return current().ngettext(singular, plural, num, **args)


def lazy_gettext(text: str, **args: Any) -> LazyProxy:
    """`text`, said in the language current when it is used (a module-level label)."""
    return LazyProxy(gettext, text, enable_cache=False, **args)
