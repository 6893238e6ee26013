"""Forms for tournaments."""

from __future__ import annotations

from datetime import date

from wtforms import (
    DateField,
    HiddenField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, NumberRange

from scorer.domain import GAMES
from scorer.domain.limits import (
    MAX_ADJUSTMENT_REASON,
    MAX_CLUB_NAME,
    MAX_DEALS_PER_PLAYER,
    MAX_PLAYER_NAME,
    MAX_TOURNAMENT_NAME,
    MAX_TOURNAMENT_ROUNDS,
)
from scorer.domain.registry import Game, System
from scorer.domain.tournament import DEFAULT_TIE_BREAKS, TIE_BREAKS
from scorer.domain.tournament_commands import DEFAULT_DEALS, DEFAULT_ROUNDS
from scorer.i18n.words import lazy_gettext as _l
from scorer.reports.tournament_pdf import TIE_BREAK_NAMES
from scorer.web.forms import Form, WholeNumberField, with_params

TOURNAMENT_GAMES = [g for g in GAMES.values() if 3 in g.players]


class TournamentForm(Form):
    game = HiddenField()
    system = HiddenField()
    name = StringField(
        _l("Name"),
        [
            InputRequired(_l("Name is missing")),
            Length(
                max=MAX_TOURNAMENT_NAME,
                message=_l("At most %(max)d characters (the table names add the round and table)"),
            ),
        ],
    )
    day = DateField(_l("Date"), [InputRequired(_l("Date is missing"))], default=date.today)
    rounds = WholeNumberField(
        _l("Rounds"),
        [InputRequired(), NumberRange(1, MAX_TOURNAMENT_ROUNDS)],
        default=DEFAULT_ROUNDS,
        render_kw={"inputmode": "numeric"},
    )
    deals = WholeNumberField(
        _l("Deals per player and round"),
        [InputRequired(), NumberRange(1, MAX_DEALS_PER_PLAYER)],
        default=DEFAULT_DEALS,
        render_kw={"inputmode": "numeric"},
    )
    players = TextAreaField(
        _l("Players (one per line; none: they register and check in at the door)"),
        render_kw={"rows": 12},
    )
    entry_fee = StringField(
        _l("Entry fee in € (0: none)"), default="0", render_kw={"inputmode": "decimal"}
    )
    prizes = StringField(
        _l("Prizes in percent of the fees, by place (e.g. 30 25 15 10)"),
        render_kw={"inputmode": "numeric"},
    )
    tie_break_1 = SelectField(_l("On equal points, first"), default=DEFAULT_TIE_BREAKS[0])
    tie_break_2 = SelectField(_l("then"), default=DEFAULT_TIE_BREAKS[1])
    tie_break_3 = SelectField(_l("then"), default="")

    TIE_BREAK_FIELDS = ("tie_break_1", "tie_break_2", "tie_break_3")

    def chosen_tie_breaks(self) -> list[str]:
        """The tie-breaks chosen, in order, the empty choices left out."""
        return [self[name].data for name in self.TIE_BREAK_FIELDS if self[name].data]


class PlayerForm(Form):
    name = StringField(
        _l("Late entry"), [InputRequired(_l("Name is missing")), Length(max=MAX_PLAYER_NAME)]
    )
    club = StringField(_l("Club (optional)"), [Length(max=MAX_CLUB_NAME)])


class RegisterForm(Form):
    """A player signs himself up on the public page."""

    name = StringField(
        _l("Your name"), [InputRequired(_l("Name is missing")), Length(max=MAX_PLAYER_NAME)]
    )
    club = StringField(_l("Club (optional)"), [Length(max=MAX_CLUB_NAME)])


class PhoneCheckInForm(Form):
    """A player checks himself in with the code shown at the door."""

    name = StringField(
        _l("Your name"), [InputRequired(_l("Name is missing")), Length(max=MAX_PLAYER_NAME)]
    )
    code = StringField(
        _l("The desk's code"),
        [InputRequired(_l("The code is missing")), Length(max=8)],
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )


class AdjustmentForm(Form):
    player = SelectField(_l("Player"), validate_choice=False)
    points = WholeNumberField(
        _l("Points (negative: a penalty)"),
        [InputRequired(_l("Points are missing"))],
        render_kw={"inputmode": "numeric"},
    )
    reason = StringField(
        _l("Reason"),
        [InputRequired(_l("The reason is missing")), Length(max=MAX_ADJUSTMENT_REASON)],
    )


class SwapForm(Form):
    a = SelectField(_l("swap"), validate_choice=False)
    b = SelectField(_l("with"), validate_choice=False)


def tournament_form(game: Game, system: System, formdata=None) -> TournamentForm:
    """The tournament form with the parameters of one game and system (units are points)."""

    form = with_params(TournamentForm, game, system, skip=HIDDEN_PARAMS)(formdata=formdata)
    form.game.data, form.system.data = game.id, system.id
    choices = [("", _l("nothing more: equal places are shared"))]
    choices += [(name, TIE_BREAK_NAMES[name]) for name in TIE_BREAKS]
    for name in TournamentForm.TIE_BREAK_FIELDS:
        form[name].choices = choices
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
