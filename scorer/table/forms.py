"""Forms of the table pages: a new table, its players, opening a table by its code (the
hand's form is `scorer.table.hand_form`; the pieces the group and tournament pages share
with these are `scorer.web.forms`).

Choices depend on the table (players, contracts, bonuses), so the forms are configured per
request by the `*_form` factories below. The rules engine checks the rules; these forms
check only what a form can: required fields, numbers, lengths.
"""

from __future__ import annotations

from wtforms import (
    HiddenField,
    RadioField,
    StringField,
    SubmitField,
)
from wtforms.validators import InputRequired, Length, Optional

from scorer.domain.limits import FORM_PLAYERS, MAX_PLAYER_NAME, MAX_TABLE_LINK, MAX_TABLE_NAME
from scorer.domain.registry import Game, System
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l
from scorer.web.forms import Form, options, with_params


class OpenTableForm(Form):
    code = StringField(
        _l("Link or code of the table"), [InputRequired(), Length(max=MAX_TABLE_LINK)]
    )


class NewTableForm(Form):
    game = HiddenField()
    system = HiddenField()
    name = StringField(
        _l("Name of the table"),
        [Optional(), Length(max=MAX_TABLE_NAME)],
        render_kw={"placeholder": _l("Stammtisch")},
    )
    first_dealer = RadioField(
        _l("deals first"), choices=options((str(i), "") for i in range(FORM_PLAYERS)), default="0"
    )
    submit = SubmitField(_l("Create the table"))


class PlayersForm(Form):
    """Who sits at the table from the next hand on. Player fields are added per game."""

    next_dealer = RadioField(
        _l("deals next"), choices=options((str(i), "") for i in range(FORM_PLAYERS))
    )
    version = HiddenField()
    submit = SubmitField(_l("Apply"))


def players_form(game: Game, seated, next_dealer: str, *, version: int, formdata=None):
    """The lineup form, prefilled with who sits now and who deals next."""

    class Form(PlayersForm):
        pass

    for i in range(max(game.players)):
        label = _("Player %(number)s", number=i + 1)
        setattr(Form, f"player_{i}", StringField(label, [Optional(), Length(max=MAX_PLAYER_NAME)]))
    data = {f"player_{i}": name for i, name in enumerate(seated)}
    data["next_dealer"] = str(list(seated).index(next_dealer)) if next_dealer in seated else "0"
    data["version"] = str(version)
    return Form(formdata=formdata, data=data)


def new_table_form(game: Game, system: System, formdata=None):
    """The new-table form for one game and system: players and every parameter."""
    Form = with_params(NewTableForm, game, system)
    for i in range(FORM_PLAYERS):
        required = i < min(game.players)
        setattr(
            Form,
            f"player_{i}",
            StringField(
                _("Player %(number)s", number=i + 1),
                [
                    InputRequired(_("Name missing")) if required else Optional(),
                    Length(max=MAX_PLAYER_NAME),
                ],
            ),
        )
    form = Form(formdata=formdata)
    form.game.data, form.system.data = game.id, system.id
    return form
