"""Forms for tournaments."""

from __future__ import annotations

from datetime import date

from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, NumberRange

from scorer.domain import GAMES
from scorer.domain.registry import Game, System
from scorer.table.forms import param_field
from scorer.tournament_operations import DEFAULT_DEALS, MAX_ROUNDS

TOURNAMENT_GAMES = [g for g in GAMES.values() if 3 in g.players]


class TournamentForm(FlaskForm):
    game = HiddenField()
    system = HiddenField()
    name = StringField(
        "Name",
        [
            InputRequired("Name fehlt"),
            Length(
                max=50, message="Höchstens 50 Zeichen (die Tischnamen hängen Runde und Tisch an)"
            ),
        ],
    )
    day = DateField("Datum", [InputRequired("Datum fehlt")], default=date.today)
    rounds = IntegerField(
        "Runden",
        [InputRequired(), NumberRange(1, MAX_ROUNDS)],
        default=4,
        render_kw={"inputmode": "numeric"},
    )
    deals = IntegerField(
        "Jeder gibt pro Runde so oft",
        [InputRequired(), NumberRange(1, 20)],
        default=DEFAULT_DEALS,
        render_kw={"inputmode": "numeric"},
        description="4: am Vierertisch 16 Spiele (jeder spielt 12), am Dreiertisch 12.",
    )
    players = TextAreaField(
        "Spieler (einer pro Zeile)", [InputRequired("Spieler fehlen")], render_kw={"rows": 12}
    )


class PlayerForm(FlaskForm):
    name = StringField("Nachmeldung", [InputRequired("Name fehlt"), Length(max=40)])


class SwapForm(FlaskForm):
    a = SelectField("tauschen", validate_choice=False)
    b = SelectField("mit", validate_choice=False)


def tournament_form(game: Game, system: System, formdata=None) -> TournamentForm:
    """The tournament form with the parameters of one game and system (units are points)."""

    class Form(TournamentForm):
        pass

    for param in game.all_params(system):
        if param.name in HIDDEN_PARAMS:
            continue
        setattr(Form, f"param_{param.name}", param_field(param))
    form = Form(formdata=formdata)
    form.game.data, form.system.data = game.id, system.id
    return form


HIDDEN_PARAMS = {
    "unit_cents",
    "point_cents",
    "stake_cents",
    "refill",
    "pot_at_end",
    "bankroll_cents",
}
"""Money settings that mean nothing in a tournament scored in points without a pot."""
