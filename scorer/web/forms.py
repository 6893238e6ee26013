"""The form pieces the pages share: the rules-and-amounts fields of a new table, group or
tournament (`with_params`, `params_from_form`, `params_data`), step one's game and system
(`game_chooser`, `requested_rules`, `wrong_system`), whole-number fields, choices, and the
rules engine's messages put beside the fields they name (`attach_errors`). The table's own
forms are `scorer.table.forms`, the groups' `scorer.stammtisch.forms`, the tournaments'
`scorer.tournaments.forms`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from babel.support import NullTranslations, Translations
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    IntegerField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.form import BaseForm
from wtforms.i18n import messages_path
from wtforms.validators import InputRequired, NumberRange, Optional, ValidationError

from scorer.domain import GAMES, SYSTEMS, RuleError
from scorer.domain.params import Param
from scorer.domain.registry import Game, System
from scorer.i18n import words
from scorer.i18n.catalogue import say
from scorer.i18n.reader import language
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l

SUIT_NAMES = {
    "eichel": _l("Acorns"),
    "gras": _l("Leaves"),
    "herz": _l("Hearts"),
    "schellen": _l("Bells"),
}


def options(pairs) -> list[SelectChoice]:
    """WTForms choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


@cache
def wtforms_words(locale: str) -> NullTranslations:
    """WTForms' own messages (a field too long, a choice not offered) in `locale`."""
    return Translations.load(messages_path(), [locale], domain="wtforms")


class Form(FlaskForm):
    """Every form of the pages: Flask-WTF's (CSRF), with WTForms' own messages in the
    language said now (`scorer.i18n.words`), as everything else on the page."""

    class Meta:
        def get_translations(self, form: BaseForm) -> NullTranslations:
            return wtforms_words(words.current().locale)


class ChooseGameForm(Form):
    """Step one of a new table: game and payment system (a GET form, no CSRF needed)."""

    class Meta:
        csrf = False

    game = SelectField(_l("Game"))  # choices: `game_choices()`, per request
    system = SelectField(_l("Payment system"), validate_choice=False)


def rate_from_text(text: str) -> Fraction:
    try:
        return Fraction(text.strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise ValidationError(_("a number such as 0.5")) from None


def with_params(base: type[FlaskForm], game: Game, system: System, *, skip=frozenset()):
    """`base` with a field for every parameter `game` offers with `system` (but `skip`):
    the rules-and-amounts part of the new-table, group and tournament forms."""

    class Form(base):  # type: ignore[misc, valid-type]
        pass

    for param in game.offered_params(system):
        if param.name not in skip:
            setattr(Form, f"param_{param.name}", param_field(param))
    return Form


def params_data(game: Game, system: System, stored: dict[str, Any]) -> dict[str, Any]:
    """The parameter fields' data for rules already chosen (a group's), as `param_field`
    shows a default: a rate as a decimal in the reader's language."""
    data: dict[str, Any] = {}
    for param in game.offered_params(system):
        if param.name not in stored:
            continue
        value = stored[param.name]
        data[f"param_{param.name}"] = rate_text(value) if param.kind == "rate" else value
    return data


class WholeNumberField(IntegerField):
    """A whole number typed into a form. More digits than any number here has are refused
    as they are read: WTForms' NumberRange turns the number into a float first, and a
    number of hundreds of digits made that an OverflowError (a 500)."""

    MAX_DIGITS = 12

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist and len(str(valuelist[0]).strip().lstrip("+-")) > self.MAX_DIGITS:
            self.data = None
            raise ValueError(_("at most %(count)s digits", count=self.MAX_DIGITS))
        super().process_formdata(valuelist)


def rate_text(value: Any) -> str:
    """A rate as a rate field shows it: a decimal in the reader's language ('0,5')."""
    if value is None:
        return ""
    text = str(float(Fraction(str(value))))
    return text.replace(".", ",") if language() == "de" else text


def requested_rules(
    source: Mapping[str, str], game: Game | None = None, fallback: str | None = None
) -> tuple[Game, System, str | None]:
    """The game (`game`, or the one `source` names, else Haferltarock) and the payment
    system `source` names, else `fallback` or the game's first; and the system id as it
    was sent (a form that sends another game's system is refused, `wrong_system`)."""
    if game is None:
        game = GAMES.get(source.get("game") or "") or GAMES["haferltarock"]
    sent = source.get("system") or None
    if sent in game.systems:
        return game, SYSTEMS[sent], sent
    return game, SYSTEMS[fallback if fallback in game.systems else game.systems[0]], sent


def game_chooser(game: Game, system: System) -> ChooseGameForm:
    """Step one of a new table or group (`choose_game` macro): game and system chosen."""
    choose = ChooseGameForm(formdata=None, data={"game": game.id, "system": system.id})
    choose.game.choices = game_choices()
    choose.system.choices = system_choices(game.id)
    return choose


def param_field(param: Param) -> Field:
    """A parameter's field: its short name as the label, its one-line help below. The id
    is for the API and the rules page, not for players. Said in the reader's language: the
    form is built for each request."""
    label = say(param.title)
    help_line = say(param.help) if param.title != param.help else ""
    if param.kind == "bool":
        return BooleanField(label, default=param.default, description=help_line)
    if param.kind == "choice":
        return SelectField(
            label,
            choices=options((c, say(param.describe(c))) for c in param.choices),
            default=param.default,
            description=help_line,
        )
    if param.allowed:
        # a few whole numbers (a factor that doubles): picked, not typed. Any other number
        # goes on to the rules engine, whose message is shown in the reader's language.
        return SelectField(
            label,
            choices=options((n, str(n)) for n in param.allowed),
            coerce=int,
            validate_choice=False,
            default=param.default,
            description=help_line,
        )
    if param.kind == "rate":
        return StringField(
            label,
            [InputRequired()],
            default=rate_text(param.default),
            description=help_line,
            render_kw={"inputmode": "decimal"},
        )
    return WholeNumberField(
        label,
        [Optional() if param.default is None else InputRequired(), NumberRange(min=param.minimum)],
        default=param.default,
        description=help_line,
        render_kw={"inputmode": "numeric"},
    )


def params_from_form(form, game: Game, system: System, *, skip=frozenset()) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for param in game.offered_params(system):
        if param.name in skip:
            continue
        field = form[f"param_{param.name}"]
        value = field.data
        if param.kind == "rate":
            value = str(rate_from_text(value or ""))
            value = float(Fraction(value)) if "/" in value else value
        values[param.name] = value
    return values


def game_choices() -> list[SelectChoice]:
    """Every game, named in the reader's language."""
    return options((g.id, say(g.name)) for g in GAMES.values())


def system_choices(game_id: str) -> list[SelectChoice]:
    game = GAMES.get(game_id) or next(iter(GAMES.values()))
    return options((s, say(SYSTEMS[s].name)) for s in game.systems)


def wrong_system(game: Game, system_id: str | None) -> str | None:
    """What is said, in the reader's words, when a form sends a payment system that is not
    one of `game`'s (a stale page, or a group form's choice that does not fit the game):
    the form is refused, never given another system. None when it fits."""
    if system_id in game.systems:
        return None
    chosen = SYSTEMS.get(system_id or "")
    return _(
        "“%(system)s” is not a payment system of %(game)s. Choose one of: %(choices)s.",
        system=say(chosen.name) if chosen else (system_id or "")[:40],
        game=say(game.name),
        choices=", ".join(say(SYSTEMS[s].name) for s in game.systems),
    )


def attach_errors(form, exc: RuleError, prefix_map: dict[str, str] | None = None) -> None:
    """Put the rules engine's messages, in the reader's language, beside the form fields
    they name."""
    prefix_map = prefix_map or {}
    for field, messages in exc.fields.items():
        name = prefix_map.get(field, field)
        if name.startswith("params."):
            name = "param_" + name.removeprefix("params.")
        if name == "defender_points":
            name = "points"
        target = form._fields.get(name)
        for message in messages:
            text = say(message)
            if target is not None:
                target.errors = [*target.errors, text]
            else:
                form.form_errors.append(text)


def errors_text(form) -> str:
    """Every message of `form`'s fields and of the form itself, as one line for the bar
    (a message may be a lazy text: it is said now)."""
    errors = [e for field in form for e in field.errors] + list(form.form_errors)
    return " ".join(map(str, errors))
