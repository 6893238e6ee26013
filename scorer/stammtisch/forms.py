"""Forms of the group pages: founding a group, starting an evening."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
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
from scorer.i18n.catalogue import say
from scorer.table.forms import game_choices, options


class NewGroupForm(FlaskForm):
    name = StringField(_l("Name of the group"), [Optional(), Length(max=80)])
    game = SelectField(_l("Game"), default="haferltarock")  # choices: per request
    system = SelectField(_l("Payment system"), validate_choice=False, default="parlett-units")
    members = TextAreaField(
        _l("Who belongs to it? (one name per line)"),
        [InputRequired(_l("Names are missing")), Length(max=2000)],
    )
    carry_pot = BooleanField(_l("The Haferl stays from evening to evening"), default=True)
    settle = RadioField(
        _l("Settling up"),
        choices=options(
            [
                ("each_evening", _l("every evening")),
                ("collected", _l("collected, whenever the group wants")),
            ]
        ),
        default="each_evening",
    )
    share_by = RadioField(
        _l("At the end of the season the Haferl is shared out"),
        choices=options([("equal", _l("equally")), ("evenings", _l("by evenings played"))]),
        default="equal",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Names of games and systems in the reader's language: set when the form is made.
        self.game.choices = game_choices()
        self.system.choices = [
            SelectChoice(s, say(SYSTEMS[s].name), optgroup=say(game.name))
            for game in GAMES.values()
            for s in game.systems
        ]


class ActionForm(FlaskForm):
    """A button that writes (a new evening, the season's end, a settle-up paid): CSRF only;
    the members tapped for an evening are read as a list in the order shown."""
