"""The hand's form on the table page and the edit page: one hand entered by tapping, its
bonuses a select per side, the card-count calculator; and the way between the form and a
hand's facts (`facts_from_form`, `form_data_from_facts`), which the rules engine checks.
"""

from __future__ import annotations

from typing import Any, cast

from wtforms import (
    BooleanField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import Length, Optional

from scorer.domain import RuleError
from scorer.domain.cardpoints import bavarian_points, tarock_points
from scorer.domain.message import msg
from scorer.domain.registry import Game
from scorer.domain.scoring import CALLS, SUITS
from scorer.domain.validation import whole_number
from scorer.i18n.catalogue import say
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l
from scorer.web.forms import SUIT_NAMES, Form, WholeNumberField, options


class HandForm(Form):
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
    *,
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
