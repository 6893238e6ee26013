"""Messages as data: what the rules engine says, as an id and its parameters.

The id is the English sentence with `%(name)s` placeholders (gettext's convention, so the
catalogues in `scorer/translations` read naturally); the domain never formats it. The web
layer turns a message into the reader's language (`scorer.i18n.catalogue.say`); `str()`
gives the English, for logs and the API's default.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Msg:
    """A message id, its parameters and, for a plural, the plural id and the count."""

    id: str
    args: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None

    def with_args(self, **args: Any) -> Msg:
        """The same message with more parameters (one of two ids chosen, then filled)."""
        return Msg(self.id, {**self.args, **args}, self.plural, self.count)

    def english(self) -> str:
        template = self.plural if self.plural and self.count != 1 else self.id
        if not self.args:
            return template
        return template % {k: _english(v) for k, v in self.args.items()}

    def __str__(self) -> str:
        return self.english()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id}
        if self.args:
            data["args"] = {k: _json(v) for k, v in self.args.items()}
        if self.plural is not None:
            data["plural"] = self.plural
            data["count"] = self.count
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Msg:
        args = {k: _from_json(v) for k, v in (data.get("args") or {}).items()}
        return cls(data["id"], args, data.get("plural"), data.get("count"))


def _from_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        return Msg.from_json(value)
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def _english(value: Any) -> str:
    """An argument in English; a tuple (choices) as a list."""
    if isinstance(value, tuple | list):
        return ", ".join(_english(v) for v in value)
    return str(value)


def _json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, Decimal | Fraction):
        return float(value)
    return value


def msg(id: str, **args: Any) -> Msg:
    """A message; its placeholders are filled from `args` by the reader's catalogue."""
    return Msg(id, args)


def one_of(choices: Iterable[Msg | str | int | Decimal]) -> Msg:
    """ "must be one of: …", each choice named as the reader calls it (a contract, a suit,
    an option by its name in the reader's language, never its id)."""
    return msg("must be one of: %(choices)s", choices=tuple(choices))


def msg_n(singular: str, plural: str, count: int, **args: Any) -> Msg:
    """A message with a count: `%(num)s` in either form is the count."""
    return Msg(singular, {"num": count, **args}, plural, count)
