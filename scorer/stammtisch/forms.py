"""Forms of the group pages: founding a group, starting an evening."""

from __future__ import annotations

from wtforms import BooleanField, HiddenField, RadioField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, Optional

from scorer.domain.limits import MAX_GROUP_NAME, MAX_MEMBERS_TEXT, MAX_PLAYER_NAME
from scorer.domain.registry import Game, System
from scorer.i18n.words import lazy_gettext as _l
from scorer.web.forms import Form, options, params_data, with_params


class NewGroupForm(Form):
    """Step two of a new group (step one chooses game and system, `ChooseGameForm`): its
    name, members, how it settles, and the rules and amounts (`group_form`)."""

    game = HiddenField()
    system = HiddenField()
    name = StringField(_l("Name of the group"), [Optional(), Length(max=MAX_GROUP_NAME)])
    members = TextAreaField(
        _l("Who belongs to it? (one name per line)"),
        [InputRequired(_l("Names are missing")), Length(max=MAX_MEMBERS_TEXT)],
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


class GroupRulesForm(Form):
    """The group's rules and amounts for its next evenings (`rules_form`)."""

    system = HiddenField()


class RenameForm(Form):
    name = StringField(
        _l("New name"), [InputRequired(_l("Name is missing")), Length(max=MAX_PLAYER_NAME)]
    )


def group_form(game: Game, system: System, formdata=None) -> NewGroupForm:
    form = with_params(NewGroupForm, game, system)(formdata=formdata)
    form.game.data, form.system.data = game.id, system.id
    return form


def rules_form(
    game: Game, system: System, stored: dict, *, formdata=None, skip=frozenset()
) -> GroupRulesForm:
    """The rules form of a group, filled with its rules (or `system`'s defaults when the
    group plays another system now); without the parameters in `skip`."""
    form = with_params(GroupRulesForm, game, system, skip=skip)(
        formdata=formdata, data=params_data(game, system, stored)
    )
    form.system.data = system.id
    return form


class ActionForm(Form):
    """A button that writes (a new evening, the season's end, a settle-up paid): CSRF only;
    the members tapped for an evening are read as a list in the order shown."""
