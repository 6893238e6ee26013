"""The engine's messages in the reader's language: one gettext catalogue per language.

`say` turns a domain `Msg` (or its stored JSON) into text in the current language
(`scorer.i18n.words`); nested messages in its parameters are said first, numbers are
written the locale's way. No Flask: a printed paper says its messages the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from babel.numbers import format_decimal

from scorer.domain.message import Msg
from scorer.domain.model import RuleError
from scorer.domain.money import Cents
from scorer.domain.scoring import POT_SHORT
from scorer.i18n import words
from scorer.i18n.formats import money


@lru_cache(maxsize=4096)
def _decimal(value: float | Decimal, locale: str) -> str:
    return format_decimal(value, locale=locale)


class Speaker:
    """The reader's catalogue and locale, looked up once to say many messages (a page or
    a JSON document of 2,000 hands says thousands of lines)."""

    def __init__(self) -> None:
        said = words.current()
        self.translations = said.translations
        self.locale = said.locale

    def say(self, message: Msg | Mapping[str, Any] | str | int | Decimal | Fraction) -> str:
        if isinstance(message, str):
            return message
        if not isinstance(message, Msg | Mapping):
            return str(self._arg(message))
        if isinstance(message, Mapping):
            message = Msg.from_json(message)
        args = {k: self._arg(v) for k, v in message.args.items()}
        if message.plural is not None:
            count = message.count or 0
            text = self.translations.ngettext(message.id, message.plural, count)
            return text % {**args, "num": count}
        text = self.translations.gettext(message.id)
        return text % args if args else text

    def line(self, line: Mapping[str, Any]) -> str:
        """A stored explanation line's text: its message, or the text of an old record."""
        if "msg" in line:
            return self.say(line["msg"])
        return str(line.get("text", ""))

    def _arg(self, value: Any) -> Any:
        if isinstance(value, Msg):
            return self.say(value)
        if isinstance(value, tuple | list):  # choices, each said in the reader's words
            return ", ".join(str(self._arg(v)) for v in value)
        if isinstance(value, Cents):
            return money(int(value), False, self.locale)
        if isinstance(value, Fraction):
            value = Decimal(str(float(value)))
        if isinstance(value, float | Decimal):
            return _decimal(value, self.locale)
        return value


def say(message: Msg | Mapping[str, Any] | str | int | Decimal | Fraction) -> str:
    """A message in the reader's language; plain text (an old stored line) as it is,
    money (`Cents`) and numbers the locale's way."""
    return Speaker().say(message)


def say_line(line: Mapping[str, Any]) -> str:
    """A stored explanation line's text: its message, or the text of an old record."""
    return Speaker().line(line)


def say_fields(fields: Mapping[str, Iterable[Msg | str]]) -> dict[str, list[str]]:
    return {name: [say(m) for m in messages] for name, messages in fields.items()}


def say_all(fields: Mapping[str, Iterable[Msg | str]]) -> str:
    """Every message of a RuleError's fields as one line, for a flash."""
    return " ".join(say(m) for messages in fields.values() for m in messages)


def say_error(exc: BaseException) -> str:
    """A refusal in the reader's words: a RuleError's messages or an HTTP error's."""
    if isinstance(exc, RuleError):
        return say_all(exc.fields)
    description = getattr(exc, "description", None)
    if description is not None:
        return say(description)
    if exc.args and isinstance(exc.args[0], Msg | str):
        return say(exc.args[0])
    return str(exc)


def pot_short(explanation: Iterable[Mapping[str, Any]] | None) -> str:
    """The line saying the pot could not pay all it owed in a hand, said; else ''."""
    for line in explanation or ():
        if (line.get("msg") or {}).get("id") == POT_SHORT:
            return say_line(line)
        if str(line.get("text", "")).startswith("the pot holds only"):  # stored before 2026-12
            return say_line(line)
    return ""
