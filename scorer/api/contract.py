"""The API's bodies declared once, as pydantic models: a request body's model validates it,
an answer's model serializes it, and both make the OpenAPI document (`scorer.api.openapi`).

A model declares a body's shape: its fields, their JSON types, what is required, the
choices and ranges that hold whatever the table plays. What depends on the game, the table
or the names already taken (a contract of this game, a declarer at this table, two names
a reader could mix up) stays with the rules engine and the services, which every other way
in (the pages, the imports) goes through too.

A value that does not fit is refused as the rest of Haferl refuses it: each field carries a
`Refusal`, the message the services give for that field, so the API's errors keep their
codes, fields and translated messages (`read_body` raises a `RuleError`, 422).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

from scorer.api.schema import json_body
from scorer.domain import RuleError
from scorer.domain.limits import MAX_ID
from scorer.domain.message import Msg, msg

Said = Msg | Callable[[Mapping[str, Any]], Msg]
"""A message, or one made from the validation's context (the game a hand is scored in) and
the refused value (`input`)."""

MAX_UNKNOWN_FIELDS = 5
"""Unknown fields named in one refusal: a body of a thousand keys gets five messages."""


@dataclass(frozen=True)
class Refusal:
    """What the API says when a field's value does not fit: `message`, or the message for
    pydantic's error type in `by_type` (a list too long, say). `field` names the field in the
    error's `fields` when it is not the field's own name (a bonus's side is `bonuses`)."""

    message: Said
    by_type: Mapping[str, Said] = field(default_factory=dict)
    field: str | None = None

    def said(self, error_type: str, context: Mapping[str, Any]) -> Msg:
        return _said(self.by_type.get(error_type, self.message), context)


class Body(BaseModel):
    """A body of the API. Strict JSON types (a number is not text, `true` is not 1); fields
    it does not declare are ignored unless the model forbids them (`unknown` says how they
    are refused)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    unknown: ClassVar[Said] = msg("unknown field")
    """The message for a field the model forbids."""
    unknown_under: ClassVar[str | None] = None
    """The field the unknown ones are reported under (None: each under its own name)."""


B = TypeVar("B", bound=Body)


def read_body(model: type[B], context: Mapping[str, Any] | None = None) -> B:
    """The request's JSON object (`json_body`: 400 when it is not one) as `model`, or a
    `RuleError` with a message per field that does not fit."""
    return validated(model, json_body(), context)


def validated(model: type[B], data: Any, context: Mapping[str, Any] | None = None) -> B:
    """`data` as `model`, or a `RuleError` in the services' words (see `Refusal`)."""
    try:
        return model.model_validate(data, strict=True, context=context)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        raise RuleError(refusals(model, errors, context or {}, data=data)) from None


def refusals(
    model: type[Body], errors: list[ErrorDetails], context: Mapping[str, Any], *, data: Any
) -> dict[str, list[Msg]]:
    """Pydantic's errors as `RuleError.fields`: each error said by the refusal of the
    innermost field it is about that has one; the same message once per field. A field
    name that is no text (a lone surrogate) is an unknown field where the model forbids
    those, and ignored where it ignores them."""
    said: dict[str, list[Msg]] = {}
    unknown: dict[tuple[Any, ...], list[str]] = {}

    def add(name: str, message: Msg) -> None:
        messages = said.setdefault(name, [])
        if message not in messages:
            messages.append(message)

    for error in errors:
        loc = tuple(error["loc"])
        if error["type"] == "extra_forbidden":
            unknown.setdefault(loc[:-1], []).append(str(loc[-1]))
            continue
        broken_names = _names_no_text(_value_at(data, loc))
        if error["type"] == "string_unicode" and broken_names:
            if _model_at(model, loc).model_config.get("extra") == "forbid":
                unknown.setdefault(loc, []).extend(broken_names)
            continue
        name, refusal = _refusal_at(model, loc)
        add(name, refusal.said(error["type"], {**context, "input": error.get("input")}))
    for where, names in unknown.items():
        owner = _model_at(model, where)
        if owner.unknown_under is None:
            for name in names[:MAX_UNKNOWN_FIELDS]:
                add(name[:MAX_ID], _said(owner.unknown, context))
        else:
            fields = ", ".join(sorted(names)[:MAX_UNKNOWN_FIELDS])
            add(owner.unknown_under, _said(owner.unknown, {**context, "fields": fields}))
    return said


def _value_at(data: Any, loc: tuple[Any, ...]) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _names_no_text(value: Any) -> list[str]:
    """The keys of an object that are no text (a lone surrogate cannot be written)."""
    if not isinstance(value, dict):
        return []
    broken = []
    for key in value:
        try:
            str(key).encode("utf-8")
        except UnicodeEncodeError:
            broken.append(str(key).encode("utf-8", "replace").decode())
    return broken


GENERAL = Refusal(msg("must be an object"), field="body")
"""For an error no declared field speaks for (a body that is no object: `json_body` refuses
that before, so in practice never)."""


def _fields_on(model: type[Body], loc: tuple[Any, ...]) -> Iterator[tuple[str, FieldInfo]]:
    """Each declared field on the path `loc` (list indexes and the branches of a union
    pydantic tried are passed over), outermost first."""
    current: Any = model
    for part in loc:
        fields = getattr(current, "model_fields", None)
        if isinstance(part, str) and fields is not None and part in fields:
            yield part, fields[part]
            current = _inner_model(fields[part].annotation)


def _refusal_at(model: type[Body], loc: tuple[Any, ...]) -> tuple[str, Refusal]:
    """The innermost field on the path `loc` with a `Refusal`, and its reported name."""
    found: tuple[str, Refusal] = (GENERAL.field or "body", GENERAL)
    for name, info in _fields_on(model, loc):
        refusal = next((m for m in info.metadata if isinstance(m, Refusal)), None)
        if refusal is not None:
            found = (refusal.field or name, refusal)
    return found


def _model_at(model: type[Body], loc: tuple[Any, ...]) -> type[Body]:
    """The model whose object is at `loc` (the outermost where none is declared)."""
    inner = [_inner_model(info.annotation) for _, info in _fields_on(model, loc)]
    current = inner[-1] if inner else model
    return current if isinstance(current, type) and issubclass(current, Body) else model


def _inner_model(annotation: Any) -> Any:
    """The model inside a field's type (`list[Bonus] | None` → Bonus), or None."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in getattr(annotation, "__args__", ()):
        inner = _inner_model(argument)
        if inner is not None:
            return inner
    return None


def _said(message: Said, context: Mapping[str, Any]) -> Msg:
    return message if isinstance(message, Msg) else message(context)


# --- what each route is, for the OpenAPI document ----------------------------------------------

Reply = Any
"""What an answer carries: a model, `[Model]` (a list of them), a tuple of models (one of
them), or None (no JSON body)."""


@dataclass(frozen=True)
class Operation:
    """A route as the document describes it: `answers` by status (its description and what
    it carries), the request's `body` model, the standard refusals it may give (`refusals`,
    statuses of `scorer.api.openapi.REFUSALS`), query and header `parameters`, and whether
    it needs an organiser's HTTP Basic credentials."""

    summary: str
    answers: Mapping[int, tuple[str, Reply]]
    body: Reply = None
    refusals: tuple[int, ...] = ()
    parameters: tuple[Mapping[str, Any], ...] = ()
    basic: bool = False


WRITES = (400, 413, 415, 422, 429)
"""What a request with a JSON body may be refused with: not JSON, too large, not
application/json, a broken rule, too many requests."""

F = TypeVar("F", bound=Callable[..., Any])


def described(
    summary: str, answers: Mapping[int, tuple[str, Reply]], **more: Any
) -> Callable[[F], F]:
    """Declares a view's `Operation` (see there): the document is made from these."""
    operation = Operation(summary, answers, **more)

    def declare(view: F) -> F:
        view.__dict__["api_operation"] = operation
        return view

    return declare


def operation_of(view: Callable[..., Any]) -> Operation | None:
    return view.__dict__.get("api_operation")
