"""Forms of the table pages: a new table, a hand, opening a table by its code.

Choices depend on the table (players, contracts, bonuses), so the forms are configured per
request by the `*_form` factories below. The rules engine checks the rules; these forms
check only what a form can: required fields, numbers, lengths.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
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
from scorer.domain.cardpoints import bavarian_points, tarock_points
from scorer.domain.limits import FORM_PLAYERS, MAX_PLAYER_NAME, MAX_TABLE_LINK, MAX_TABLE_NAME
from scorer.domain.message import msg
from scorer.domain.params import Param
from scorer.domain.registry import Game, System
from scorer.domain.scoring import CALLS, SUITS
from scorer.domain.validation import whole_number
from scorer.i18n.catalogue import say
from scorer.i18n.reader import language

SUIT_NAMES = {
    "eichel": _l("Acorns"),
    "gras": _l("Leaves"),
    "herz": _l("Hearts"),
    "schellen": _l("Bells"),
}


def options(pairs) -> list[SelectChoice]:
    """WTForms choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


class OpenTableForm(FlaskForm):
    code = StringField(
        _l("Link or code of the table"), [InputRequired(), Length(max=MAX_TABLE_LINK)]
    )


class ChooseGameForm(FlaskForm):
    """Step one of a new table: game and payment system (a GET form, no CSRF needed)."""

    class Meta:
        csrf = False

    game = SelectField(_l("Game"))  # choices: `game_choices()`, per request
    system = SelectField(_l("Payment system"), validate_choice=False)


class NewTableForm(FlaskForm):
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


class PlayersForm(FlaskForm):
    """Who sits at the table from the next hand on. Player fields are added per game."""

    next_dealer = RadioField(
        _l("deals next"), choices=options((str(i), "") for i in range(FORM_PLAYERS))
    )
    version = HiddenField()
    submit = SubmitField(_l("Apply"))


def players_form(game: Game, seated, next_dealer: str, version: int, formdata=None):
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


def rate_from_text(text: str) -> Fraction:
    try:
        return Fraction(text.strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise ValidationError(_("a number such as 0.5")) from None


def with_params(base: type[FlaskForm], game: Game, system: System, skip=frozenset()):
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


def params_from_form(form, game: Game, system: System, skip=frozenset()) -> dict[str, Any]:
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


class HandForm(FlaskForm):
    """One hand, entered by tapping. Choices are set by `hand_form`."""

    declarer = RadioField(_l("Who plays?"), validate_choice=False)
    contract = RadioField(_l("What?"), validate_choice=False)
    trump = RadioField(
        _l("Trump"), choices=options((s, SUIT_NAMES[s]) for s in SUITS), validate_choice=False
    )
    bid = WholeNumberField(_l("Bid"), [Optional()], default=61, render_kw={"inputmode": "numeric"})
    durch = BooleanField(_l("Durch announced"))
    durch_result = RadioField(
        _l("Durch"),
        choices=options([("made", _l("made: every trick")), ("lost", _l("lost"))]),
        validate_choice=False,
    )
    points = WholeNumberField(_l("Card points"), [Optional()], render_kw={"inputmode": "numeric"})
    points_of = RadioField(
        _l("Card points of"),
        choices=options([("declarer", _l("Declarer")), ("defenders", _l("Defenders"))]),
        default="declarer",
    )
    all_tricks = BooleanField(_l("Durch / all tricks"))
    no_tricks = BooleanField(_l("no trick"))
    bettel = RadioField(
        _l("Bettel"),
        choices=options([("won", _l("won: no trick")), ("lost", _l("lost"))]),
        validate_choice=False,
    )
    doublings = RadioField(_l("Kontra"), default="0", validate_choice=False)
    version = HiddenField()
    number = HiddenField()
    """The number the table page showed for the hand it enters (`table.record`)."""
    submit = SubmitField(_l("Record"))


SIDES = {"declarer": _l("Declarer"), "defenders": _l("Opponents")}
BONUS_STATES = {
    "": "—",
    "made": _l("made"),
    "lost": _l("lost"),  # a bird lost in its trick; another bonus: "not made"
    "announced": _l("announced, made"),
    "announced_failed": _l("announced, lost"),
}
"""What a side did with a bonus; each state is one (announced, made) pair of `Bonus`."""
STATE_OF = {(False, True): "made", (False, False): "lost", (True, True): "announced"}
STATE_OF[(True, False)] = "announced_failed"
COUNTS = {
    "bavarian": ("aces", "tens", "kings", "obers", "unters"),
    "tarock": ("honours_kings", "queens", "cavaliers", "jacks", "cards"),
}
"""The calculator's fields per way of counting (`Game.counting`)."""


def bonus_field_name(bonus_id: str, side: str) -> str:
    return f"bonus_{bonus_id}__{side}"


def hand_form(
    game: Game,
    active: list[str],
    max_doublings: int,
    bonus_ids,
    formdata=None,
    data=None,
):
    """A hand form for this table's game, the active players and its bonuses: a select per
    bonus and side, so that every bonus the rules accept can be entered and shown again."""

    class Form(HandForm):
        pass

    for bonus_id in bonus_ids:
        labels = {**BONUS_STATES, "lost": _("lost") if bonus_id in game.birds else _("not made")}
        for side, side_label in SIDES.items():
            # Only what the rules accept is offered: an announcement by a side that may make one.
            states = ["", "made", "lost"]
            if bonus_id in game.announceable and side in game.announcers:
                states += ["announced", "announced_failed"]
            setattr(
                Form,
                bonus_field_name(bonus_id, side),
                SelectField(
                    side_label, choices=options((s, labels[s]) for s in states), default=""
                ),
            )
    for name in COUNTS[game.counting]:
        setattr(Form, f"count_{name}", StringField(name, [Optional(), Length(max=6)]))
    form = Form(formdata=formdata, data=data)
    form.bonus_ids = tuple(bonus_ids)
    form.declarer.choices = options((p, p) for p in active)
    form.contract.choices = options((c, say(name)) for c, name in game.contracts.items())
    form.doublings.choices = options(
        [("0", _("no Kontra"))] + [(str(k), say(CALLS[k - 1])) for k in range(1, max_doublings + 1)]
    )
    return form


def facts_from_form(form, game: Game) -> dict[str, Any]:
    """The hand the form describes, as the JSON facts the API takes: `facts.parse_hand`
    reads both, and the rules engine checks them when the hand is scored. Fields the page
    hides for the chosen contract (a trump in a Bettel) are left out; in a game where the
    page asks for no trump, one given through the API is kept in a hidden field. Points counted with
    the calculator stand in for typed points; a count that does not add up is a RuleError."""
    contract = form.contract.data or ""
    facts: dict[str, Any] = {"declarer": form.declarer.data or "", "contract": contract}
    if game.takes_trump(contract) and form.trump.data:
        facts["trump"] = form.trump.data
    if game.bids:
        facts["bid"] = "durch" if form.durch.data else (form.bid.data or 61)
    if contract != "bettel":
        points = form.points.data
        if points is None:
            points = points_from_counts(form, game)
        key = "defender_points" if form.points_of.data == "defenders" else "points"
        facts[key] = points
    for flag in game.flags:
        if form[flag].data:
            facts[flag] = True
    if contract == "bettel":
        # Won or lost is tapped explicitly: a Bettel is won when the declarer took no trick.
        facts.pop("all_tricks", None)
        facts.pop("no_tricks", None)
        if form.bettel.data not in ("won", "lost"):
            raise RuleError.one("bettel", msg("Bettel: won or lost?"))
        if form.bettel.data == "won":
            facts["no_tricks"] = True
    doublings = whole_number(form.doublings.data)
    if doublings:
        facts["doublings"] = doublings
    bonuses = []
    for field in form:
        if field.name.startswith("bonus_") and field.data in STATE_OF.values():
            bonus_id, side = field.name.removeprefix("bonus_").split("__")
            announced, made = next(k for k, v in STATE_OF.items() if v == field.data)
            bonuses.append({"id": bonus_id, "side": side, "announced": announced, "made": made})
    if bonuses:
        facts["bonuses"] = bonuses
    if facts.get("bid") == "durch":
        durch_outcome(facts, form.durch_result.data, game.total)
    return facts


def durch_outcome(facts: dict[str, Any], result: str | None, total: int) -> None:
    """A Durch bid is made or lost, tapped once: made is every trick (all the card points);
    lost keeps the points typed. The Extras toggle is not asked beside it."""
    if result not in ("made", "lost"):
        raise RuleError.one("durch_result", msg("Durch: made or lost?"))
    facts.pop("all_tricks", None)
    if result == "made":
        facts.pop("defender_points", None)
        facts.update(points=total, all_tricks=True)


def form_data_from_facts(facts: dict[str, Any], version: int) -> dict[str, Any]:
    """The form's fields for a stored hand: the edit page shows the hand exactly as it is."""
    bid = facts.get("bid", 61)
    data: dict[str, Any] = {
        "declarer": facts["declarer"],
        "contract": facts["contract"],
        "trump": facts.get("trump"),
        "bid": bid if isinstance(bid, int) else 61,
        "durch": bid == "durch",
        "durch_result": ("made" if facts.get("all_tricks") else "lost") if bid == "durch" else None,
        "points": facts.get("points"),
        "points_of": "declarer",
        "all_tricks": facts.get("all_tricks", False),
        "no_tricks": facts.get("no_tricks", False),
        "bettel": ("won" if facts.get("no_tricks") else "lost")
        if facts["contract"] == "bettel"
        else None,
        "doublings": str(facts.get("doublings", 0)),
        "version": str(version),
    }
    for bonus in facts.get("bonuses", []):
        state = STATE_OF[(bonus["announced"], bonus["made"])]
        data[bonus_field_name(bonus["id"], bonus["side"])] = state
    return data


def points_from_counts(form, game: Game) -> int | None:
    """Points from the card-count calculator's fields, when the points field is empty."""
    names = COUNTS[game.counting]
    raw = {n: (form[f"count_{n}"].data or "").strip() for n in names}
    if not any(raw.values()):
        return None
    counts = {n: whole_number(v) for n, v in raw.items() if v}
    if any(v is None for v in counts.values()):
        raise RuleError.one("points", msg("Count: whole numbers only"))
    whole = cast("dict[str, int]", counts)  # no None among them: refused just above
    try:
        if game.counting == "bavarian":
            return bavarian_points(whole)
        cards = whole.pop("cards", 0)
        return tarock_points(whole, cards)
    except RuleError as exc:
        messages = [msg("Count: %(message)s", message=m) for ms in exc.fields.values() for m in ms]
        raise RuleError({"points": messages}) from None


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
