"""The pages of a table's hands: the list, one hand's edit and strike-out, and the previews
of a hand being entered or edited."""

from __future__ import annotations

from flask import (
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from scorer.domain import GAMES, RuleError
from scorer.domain.commands import VoidHand
from scorer.domain.ledger import LedgerState
from scorer.domain.validation import whole_number
from scorer.i18n.catalogue import say, say_error
from scorer.i18n.words import gettext as _
from scorer.i18n.words import ngettext
from scorer.live import conditional, live_etag
from scorer.services import hand_commands, table_reads, tables
from scorer.store.errors import LaterHandExists, NotFound
from scorer.table.blueprint import bp
from scorer.table.hand_form import COUNTS, form_data_from_facts
from scorer.table.routes import (
    facts_of_form,
    hand_from_form,
    latest_news,
    organiser_here,
    remember_refill,
    table_hand_form,
)
from scorer.table.view import game_and_system
from scorer.web.forms import attach_errors, options


@bp.post("/t/<key>/vorschau")
def preview():
    """What the hand being entered would pay: the same fold step, nothing saved."""
    state = LedgerState.from_json(g.table.state)
    return render_preview(table_hand_form(formdata=request.form), state, g.table.hand_count + 1)


@bp.post("/t/<key>/spiele/<n:number>/vorschau")
def edit_preview(number: int):
    """What hand `number` would pay as the edit page now describes it."""
    record = live_hand(number)
    form = table_hand_form(formdata=request.form)
    form.declarer.choices = declarers(record)
    state = table_reads.state_before(g.table, number)
    return render_preview(form, state, number, dealer=record.dealer)


def render_preview(form, state: LedgerState, number: int, *, dealer: str | None = None):
    missing = still_open(form, GAMES[g.table.game])
    if missing:
        return render_template("_preview.html", missing=missing)
    try:
        hand = hand_from_form(form)
        entry, _state = table_reads.ledger_for(g.table).play(state, number, hand, dealer=dealer)
    except RuleError as exc:
        return render_template(
            "_preview.html",
            errors={field: [say(m) for m in messages] for field, messages in exc.fields.items()},
        )
    return render_template("_preview.html", entry=entry, game=GAMES[g.table.game])


def still_open(form, game) -> list[str]:
    """What the hand being entered still lacks, as the form's `data-required` rows say it
    (static/js/entry.js asks the same before it takes a hand): said quietly, not as an error."""
    contract = form.contract.data
    missing = [
        str(form[name].label.text) for name in ("declarer", "contract") if not form[name].data
    ]
    if contract == "bettel":
        if not form.bettel.data:
            missing.append(_("won or lost"))
        return missing
    if game.trump_required and contract and not form.trump.data:
        missing.append(_("Trump"))
    durch = game.bids and form.durch.data
    if durch and form.durch_result.data not in ("made", "lost"):
        missing.append(_("Durch: made or lost"))
    counted = any(form[f"count_{name}"].data for name in COUNTS[game.counting])
    made = durch and form.durch_result.data == "made"
    if contract and form.points.data is None and not counted and not made:
        missing.append(str(form.points.label.text))
    return missing


HANDS_PER_PAGE = 100


@bp.get("/t/<key>/spiele")
def hands():
    """The hand list, a hundred hands a page; without `?seite=` the page of the latest."""
    table = g.table
    game, system = game_and_system(table)
    pages = max(1, -(-table.hand_count // HANDS_PER_PAGE))
    page = whole_number(request.args.get("seite")) if "seite" in request.args else pages
    if not isinstance(page, int) or not 1 <= page <= pages:
        abort(404, _("There is no such page: the hands are on pages 1 to %(pages)s.", pages=pages))
    first = (page - 1) * HANDS_PER_PAGE + 1
    return conditional(
        live_etag("hands", table.version, page),
        lambda: render_template(
            "hands.html",
            table=table,
            game=game,
            system=system,
            records=table_reads.hands_numbered(table, first, first + HANDS_PER_PAGE - 1),
            page=page,
            pages=pages,
            etag=live_etag("hands", table.version, page),
            news=latest_news(table),
        ),
    )


@bp.route("/t/<key>/spiele/<n:number>", methods=["GET", "POST"])
def edit(number: int):
    table = g.table
    record = live_hand(number)
    game, system = game_and_system(table)
    if request.method == "POST":
        form = table_hand_form(formdata=request.form)
        form.declarer.choices = declarers(record)
        if form.validate():
            try:
                version = whole_number(form.version.data)
                facts = {**facts_of_form(form), "version": version}
                command = hand_commands.edit_command(table, number, facts)
                tables.edit_hand(table, command, by=organiser_here())
            except RuleError as exc:
                attach_errors(form, exc)
            else:
                later = table_reads.live_hands_after(table, number)
                flash(
                    ngettext(
                        "Hand %(number)s changed; the hand after it is settled anew.",
                        "Hand %(number)s changed; the %(num)d hands after it are settled anew.",
                        later,
                        number=number,
                    )
                    if later
                    else _("Hand %(number)s changed.", number=number),
                    "info",
                )
                return redirect(url_for("table.hands"))
        status = 422
    else:
        form = table_hand_form(data=form_data_from_facts(record.facts, record.version))
        form.declarer.choices = declarers(record)
        status = 200
    return render_template(
        "edit_hand.html",
        table=table,
        game=game,
        system=system,
        form=form,
        record=record,
        params=table_reads.rules_for(table).params,
    ), status


@bp.route("/t/<key>/spiele/<n:number>/streichen", methods=["GET", "POST"])
def void(number: int):
    record = live_hand(number)
    if request.method == "POST":
        command = hand_commands.void_command(number, whole_number(request.form.get("version")))
        if request.form.get("next") == "table":
            return undo(command)
        tables.void_hand(g.table, command, by=organiser_here())
        later = table_reads.live_hands_after(g.table, number)
        flash(
            ngettext(
                "Hand %(number)s struck out; the hand after it is settled anew.",
                "Hand %(number)s struck out; the %(num)d hands after it are settled anew.",
                later,
                number=number,
            )
            if later
            else _("Hand %(number)s struck out.", number=number),
            "info",
        )
        return redirect(url_for("table.hands"))
    return render_template(
        "confirm_void.html", table=g.table, record=record, game=GAMES[g.table.game]
    )


def undo(command: VoidHand):
    """Undo under the bar of a saved hand: hand `number` goes back into the form, once (the
    next load of the table takes it out of the cookie, a reload shows an empty form). When
    another device entered a later hand meanwhile, nothing is struck: the player is asked to
    correct the hand in its own form."""
    number = command.number
    try:
        tables.undo_hand(g.table, command, by=organiser_here())
    except LaterHandExists as exc:
        return render_template(
            "undo_refused.html", table=g.table, said=say_error(exc), number=exc.number
        ), 409
    remember_refill(g.table.key, number)
    flash(
        _(
            "Hand %(number)s taken back. It is back in the form: correct it and enter it again.",
            number=number,
        ),
        "undone",
    )
    return redirect(url_for("table.table"))


def declarers(record) -> list:
    """Who could have declared hand `record`: who sat at the table then, but the dealer who
    sat out."""
    seated = table_reads.ledger_for(g.table).seated_at(record.number)
    return options((p, p) for p in seated if p != record.sitting_out)


def live_hand(number: int):
    try:
        return table_reads.live_hand(g.table, number)
    except NotFound:
        abort(404, _("There is no hand %(number)s at this table (any more).", number=number))
