"""Forms of the table pages: a new table, a hand, opening a table by its code.

Choices depend on the table (players, contracts, bonuses), so the forms are configured per
request by the `*_form` factories below. The rules engine checks the rules; these forms
check only what a form can: required fields, numbers, lengths.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from scorer.domain import GAMES, SYSTEMS, RuleError
from scorer.domain.params import Param
from scorer.domain.registry import Game, System
from scorer.domain.scoring import CALLS, SUITS
from scorer.table.messages import german

SUIT_NAMES = {"eichel": "Eichel", "gras": "Gras", "herz": "Herz", "schellen": "Schellen"}
MAX_PLAYERS = 4


def options(pairs) -> list[SelectChoice]:
    """WTForms choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


class OpenTableForm(FlaskForm):
    code = StringField("Link oder Code des Tisches", [InputRequired(), Length(max=300)])


class ChooseGameForm(FlaskForm):
    """Step one of a new table: game and payment system (a GET form, no CSRF needed)."""

    class Meta:
        csrf = False

    game = SelectField("Spiel", choices=options((g.id, g.name) for g in GAMES.values()))
    system = SelectField("Abrechnung", validate_choice=False)


class NewTableForm(FlaskForm):
    game = HiddenField()
    system = HiddenField()
    name = StringField(
        "Name des Tisches", [Optional(), Length(max=80)], render_kw={"placeholder": "Stammtisch"}
    )
    first_dealer = RadioField(
        "gibt zuerst", choices=options((str(i), "") for i in range(MAX_PLAYERS)), default="0"
    )
    submit = SubmitField("Tisch anlegen")


def rate_from_text(text: str) -> Fraction:
    try:
        return Fraction(text.strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise ValidationError("eine Zahl wie 0,5") from None


def new_table_form(game: Game, system: System, formdata=None):
    """The new-table form for one game and system: players and every parameter."""

    class Form(NewTableForm):
        pass

    for i in range(MAX_PLAYERS):
        required = i < min(game.players)
        setattr(
            Form,
            f"player_{i}",
            StringField(
                f"Spieler {i + 1}",
                [InputRequired("Name fehlt") if required else Optional(), Length(max=40)],
            ),
        )
    for param in game.all_params(system):
        setattr(Form, f"param_{param.name}", param_field(param))
    form = Form(formdata=formdata)
    form.game.data, form.system.data = game.id, system.id
    return form


def param_field(param: Param) -> Field:
    # The one-line help is what players read; the parameter's id stays visible, small, for
    # those who compare with the API or the rules page.
    label, param_id = param.help, param.name
    if param.kind == "bool":
        return BooleanField(label, default=param.default, description=param_id)
    if param.kind == "choice":
        return SelectField(
            label,
            choices=options((c, c) for c in param.choices),
            default=param.default,
            description=param_id,
        )
    if param.allowed:
        # a few whole numbers (a factor that doubles): picked, not typed. Any other number
        # goes on to the rules engine, whose message is shown in German.
        return SelectField(
            label,
            choices=options((n, str(n)) for n in param.allowed),
            coerce=int,
            validate_choice=False,
            default=param.default,
            description=param_id,
        )
    if param.kind == "rate":
        default = param.default
        text = str(float(default)).replace(".", ",") if default is not None else ""
        return StringField(
            label,
            [InputRequired()],
            default=text,
            description=param_id,
            render_kw={"inputmode": "decimal"},
        )
    return IntegerField(
        label,
        [Optional() if param.default is None else InputRequired(), NumberRange(min=param.minimum)],
        default=param.default,
        description=param_id,
        render_kw={"inputmode": "numeric"},
    )


def params_from_form(form, game: Game, system: System, skip=frozenset()) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for param in game.all_params(system):
        if param.name in skip:
            continue
        field = form[f"param_{param.name}"]
        value = field.data
        if param.kind == "rate":
            value = str(rate_from_text(value or ""))
            value = float(Fraction(value)) if "/" in value else value
        values[param.name] = value
    return values


class HandForm(FlaskForm):
    """One hand, entered by tapping. Choices are set by `hand_form`."""

    declarer = RadioField("Wer spielt?", validate_choice=False)
    contract = RadioField("Was?", validate_choice=False)
    trump = RadioField(
        "Trumpf", choices=options((s, SUIT_NAMES[s]) for s in SUITS), validate_choice=False
    )
    bid = IntegerField("Gereizt", [Optional()], default=61, render_kw={"inputmode": "numeric"})
    durch = BooleanField("Durch angesagt")
    points = IntegerField("Augen", [Optional()], render_kw={"inputmode": "numeric"})
    points_of = RadioField(
        "Augen von",
        choices=options([("declarer", "Spieler"), ("defenders", "Gegenpartei")]),
        default="declarer",
    )
    all_tricks = BooleanField("Durch / alle Stiche")
    no_tricks = BooleanField("keinen Stich")
    doublings = RadioField("Kontra", default="0", validate_choice=False)
    version = HiddenField()
    submit = SubmitField("Eintragen")


BONUS_CHOICES = {
    "none": "—",
    "declarer": "Spieler",
    "defenders": "Gegner",
    "declarer_announced": "angesagt, gemacht",
    "declarer_failed": "angesagt, verloren",
    "declarer_lost": "Spieler verliert ihn",
    "defenders_lost": "Gegner verliert ihn",
}


def hand_form(
    game: Game,
    active: list[str],
    max_doublings: int,
    bonus_ids,
    announceable,
    birds,
    formdata=None,
    data=None,
):
    """A hand form for this table's game, the active players and its bonuses."""

    class Form(HandForm):
        pass

    for bonus_id in bonus_ids:
        choices = ["none", "declarer", "defenders"]
        if bonus_id in announceable:
            choices += ["declarer_announced", "declarer_failed"]
        if bonus_id in birds:
            choices += ["declarer_lost", "defenders_lost"]
        setattr(
            Form,
            f"bonus_{bonus_id}",
            RadioField(
                bonus_id, choices=options((c, BONUS_CHOICES[c]) for c in choices), default="none"
            ),
        )
    form = Form(formdata=formdata, data=data)
    form.declarer.choices = options((p, p) for p in active)
    form.contract.choices = options(game.contracts.items())
    form.doublings.choices = options(
        [("0", "—")] + [(str(k), CALLS[k - 1]) for k in range(1, max_doublings + 1)]
    )
    return form


def system_choices(game_id: str) -> list[SelectChoice]:
    game = GAMES.get(game_id) or next(iter(GAMES.values()))
    return options((s, SYSTEMS[s].name) for s in game.systems)


def attach_errors(form, exc: RuleError, prefix_map: dict[str, str] | None = None) -> None:
    """Put the rules engine's messages beside the form fields they name."""
    prefix_map = prefix_map or {}
    for field, messages in exc.fields.items():
        name = prefix_map.get(field, field)
        if name.startswith("params."):
            name = "param_" + name.removeprefix("params.")
        if name == "defender_points":
            name = "points"
        target = form._fields.get(name)
        for message in messages:
            text = german(message)
            if target is not None:
                target.errors = [*target.errors, text]
            else:
                form.form_errors.append(text)
