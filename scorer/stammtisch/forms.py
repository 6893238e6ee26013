"""Forms of the group pages: founding a group, starting an evening."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, Optional

from scorer.domain import GAMES, SYSTEMS
from scorer.table.forms import options


class NewGroupForm(FlaskForm):
    name = StringField("Name der Runde", [Optional(), Length(max=80)])
    game = SelectField(
        "Spiel", choices=options((g.id, g.name) for g in GAMES.values()), default="haferltarock"
    )
    system = SelectField(
        "Abrechnung",
        choices=[
            SelectChoice(s, SYSTEMS[s].name, optgroup=game.name)
            for game in GAMES.values()
            for s in game.systems
        ],
        validate_choice=False,
        default="parlett-units",
    )
    members = TextAreaField(
        "Wer gehört dazu? (ein Name pro Zeile)", [InputRequired("Namen fehlen"), Length(max=2000)]
    )
    carry_pot = BooleanField("Das Haferl bleibt von Abend zu Abend", default=True)
    settle = RadioField(
        "Abrechnen",
        choices=options(
            [("each_evening", "jeden Abend"), ("collected", "gesammelt, wann die Runde will")]
        ),
        default="each_evening",
    )
    share_by = RadioField(
        "Am Saisonende wird das Haferl verteilt",
        choices=options([("equal", "gleich"), ("evenings", "nach Abenden dabei")]),
        default="equal",
    )


class ActionForm(FlaskForm):
    """A button that writes (a new evening, the season's end, a settle-up paid): CSRF only;
    the members tapped for an evening are read as a list in the order shown."""
