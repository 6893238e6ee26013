"""Routes of the table pages. Each parses a form, calls one operation, commits, renders."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user

from scorer.domain import GAMES, SYSTEMS, Hand, RuleError, commands
from scorer.domain.commands import RecordHand
from scorer.domain.facts import parse_hand
from scorer.domain.limits import FORM_PLAYERS
from scorer.domain.validation import idempotency_key, whole_number
from scorer.extensions import NEW_TABLES, OPEN_BY_CODE
from scorer.i18n.catalogue import say, say_error
from scorer.i18n.words import gettext as _
from scorer.live import conditional, is_live_poll, live_etag
from scorer.services import evenings, groups, hand_commands, policies, table_reads, tables
from scorer.store import table_codes, table_queue, table_rows
from scorer.store.errors import Conflict, HandExists, NotFound
from scorer.store.models import Organiser, TableSession
from scorer.table.blueprint import bp
from scorer.table.forms import OpenTableForm, new_table_form
from scorer.table.hand_form import facts_from_form, form_data_from_facts, hand_form
from scorer.table.page_token import renew_in_s
from scorer.table.view import game_and_system, remembered, seat_changes, seats, upcoming_seats
from scorer.web.forms import (
    attach_errors,
    errors_text,
    game_chooser,
    params_from_form,
    requested_rules,
    wrong_system,
)

KEY_PATTERN = re.compile(r"(?:/t/)?([A-Za-z0-9_-]{22,64})/?$")


WRITES_IN_TURN = ("table.record",)
"""Views that write through `scorer.store.table_queue` (which locks the table itself): for them
`g.table` is the table as read before their turn."""


@bp.url_value_preprocessor
def load_table(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Load the table named by `key` in the URL into `g.table` (404 when there is none),
    locked for the request when it writes."""
    g.table = None
    if values and "key" in values:
        key = values.pop("key")
        # Previews only read; the writes in turn lock the table when their turn comes.
        not_locked_here = ("table.preview", "table.edit_preview", *WRITES_IN_TURN)
        writes = request.method not in ("GET", "HEAD") and endpoint not in not_locked_here
        try:
            g.table = (table_rows.session_for_write if writes else table_rows.get_session)(key)
        except NotFound:
            abort(404, _("There is no such table. Is the link right?"))


@bp.context_processor
def table_context() -> dict[str, Any]:
    """Whether the current table shows a pot, whether it scores in points, everyone who sat
    at it this evening, and who sat at it for a given hand."""
    table = getattr(g, "table", None)
    if table is None:
        return {}
    ledger = table_reads.ledger_for(table)
    # Read (a state per change of players) only by a page that lists hands, and once.
    changes = cache(lambda: seat_changes(table, ledger) if ledger.lineups else {})
    return {
        # Typed on a second device's start page; it opens the table while the table is open.
        "table_code": None
        if table.closed or not table.short_code
        else table_codes.shown(table.short_code),
        "has_pot": ledger.has_pot,
        "pot_name": say(SYSTEMS[table.system].pot_name),
        "points": table.points_only,
        "everyone": ledger.everyone,
        "seated_at": ledger.seated_at,
        "seat_changes_before": lambda number: changes().get(number, ()),
        # Asked (one read) only by a closed table's hand list: the tournament's organiser
        # corrects there after the round closed.
        "corrects_closed": cache(lambda: policies.corrects_closed_table(table, organiser_here())),
    }


@bp.url_defaults
def add_table_key(endpoint: str, values: dict[str, Any]) -> None:
    """Links from a table page to its other pages need not repeat the key."""
    table = getattr(g, "table", None)
    if (
        table is not None
        and "key" not in values
        and endpoint.startswith("table.")
        and current_app.url_map.is_endpoint_expecting(endpoint, "key")
    ):
        values["key"] = table.key


@bp.errorhandler(Conflict)
def conflict(exc: Conflict):
    flash(say_error(exc), "error")
    if g.table is not None:
        return redirect(url_for("table.table"))
    return redirect(url_for("table.index"))


# --- start, open, new table ------------------------------------------------------------


@bp.get("/")
def index():
    """The start page. The tables used recently on this device are listed by
    static/js/recent-tables.js from the device's own storage: no cookie carries a table's
    key."""
    return render_template("index.html", open_form=OpenTableForm())


@bp.post("/oeffnen")
@OPEN_BY_CODE
def open_table():
    """A table by its link, its key or its short code (an open table's only)."""
    form = OpenTableForm()
    if form.validate_on_submit():
        typed = form.code.data.strip()
        match = KEY_PATTERN.search(typed)
        for find in (
            lambda: table_codes.open_table_by_code(typed),
            lambda: table_rows.get_session(match.group(1) if match else ""),
        ):
            try:
                table = find()
            except NotFound:
                continue
            return redirect(url_for("table.table", key=table.key))
        form.code.errors.append(
            _(
                "No open table with this code. Type the code under the QR code "
                "(like K7M3-QXZ9), or paste the whole link."
            )
        )
    return render_template("index.html", tables=[], open_form=form, games=GAMES), 422


@bp.route("/neu", methods=["GET", "POST"])
@NEW_TABLES
def new_table():
    source = request.form if request.method == "POST" else request.args
    game, system, system_id = requested_rules(source)
    choose = game_chooser(game, system)
    form = new_table_form(game, system, formdata=request.form if request.method == "POST" else None)
    refused = wrong_system(game, system_id) if request.method == "POST" else None
    if refused:
        form.form_errors.append(refused)
    elif request.method == "POST" and form.validate():
        players = [
            form[f"player_{i}"].data.strip()
            for i in range(FORM_PLAYERS)
            if form[f"player_{i}"].data and form[f"player_{i}"].data.strip()
        ]
        first = int(form.first_dealer.data or 0)
        filled = [i for i in range(FORM_PLAYERS) if (form[f"player_{i}"].data or "").strip()]
        first_dealer = (
            players[filled.index(first)] if first in filled else (players[0] if players else None)
        )
        try:
            params = params_from_form(form, game, system)
            table = tables.create_session(
                commands.open_table(
                    name=form.name.data or "",
                    game=game.id,
                    system=system.id,
                    params=params,
                    players=players,
                    first_dealer=first_dealer,
                )
            )
        except RuleError as exc:
            attach_errors(
                form, exc, prefix_map={"players": "player_0", "first_dealer": "first_dealer"}
            )
        except ValueError as exc:
            form.form_errors.append(say_error(exc))
        else:
            return redirect(url_for("table.table", key=table.key))
    status = 422 if request.method == "POST" else 200
    return render_template(
        "new_table.html",
        choose=choose,
        form=form,
        game=game,
        system=system,
        max_players=FORM_PLAYERS,
    ), status


# --- the table -------------------------------------------------------------------------


def table_hand_form(formdata=None, data=None):
    table = g.table
    game, system = game_and_system(table)
    rules = table_reads.rules_for(table)
    bonus_ids = game.bonus_ids(system.id, rules.params)
    max_doublings = rules.params.get("max_doublings", 0) if game.doublings else 0
    if data is None and formdata is None:
        data = {}
    active = seats(table, table_reads.ledger_for(table)).active
    return hand_form(game, active, max_doublings, bonus_ids=bonus_ids, formdata=formdata, data=data)


def hand_from_form(form) -> Hand:
    """The hand the form describes (for a preview), read by the one hand parser the API and
    imports use."""
    game = GAMES[g.table.game]
    return parse_hand(facts_from_form(form, game), game)


def facts_of_form(form) -> dict[str, Any]:
    """The hand's facts the form describes, as the API's body says them
    (`facts_from_form`): a command is built from them as from the API's
    (`scorer.services.hand_commands`)."""
    return facts_from_form(form, GAMES[g.table.game])


UPCOMING = 8
"""How many hands ahead the table page knows the seats of (for hands it keeps to send)."""


def table_etag(version: int) -> str:
    """The table page as it is at the table's `version` (what a watching device compares)."""
    return live_etag("table", version)


def latest_news(table) -> str:
    """What came in last, for the notice on another device: "Hand 25: Berta, Frage, 66 card
    points" (empty before the first hand)."""
    if not table.hand_count:
        return ""
    last = table_reads.latest_hands(table, 1)
    if not last or last[0].number != table.hand_count:
        return ""
    return _(
        "New from another device: hand %(number)s, %(hand)s",
        number=last[0].number,
        hand=say(table_reads.hand_summary(table.game, last[0].facts)),
    )


REFILL = "refill"
"""The cookie session's note of the hand Undo just put back: `{"table": key, "number": N}`,
read (and dropped) by the next load of that table's page, so that a reload never brings the
hand back again."""


def remember_refill(key: str, number: int) -> None:
    session[REFILL] = {"table": key, "number": number}


def take_refill() -> int | None:
    """The number of the hand Undo put back into this table's form, once; None else. A live
    poll does not take it (the player's own next page does)."""
    if is_live_poll() or REFILL not in session:
        return None
    refill = session.pop(REFILL)
    if not isinstance(refill, dict) or refill.get("table") != g.table.key:
        return None
    number = refill.get("number")
    return number if isinstance(number, int) else None


@bp.get("/t/<key>")
def table():
    """The table. Right after Undo the form holds the hand taken back, to be corrected and
    saved anew (once: see `take_refill`). A watching device gets `304` while the table is
    unchanged. An address from before (`?wieder=N`) is the table's own: it refills nothing."""
    if "wieder" in request.args:
        return redirect(url_for("table.table"))
    undone = take_refill()
    record = table_reads.voided_hand(g.table, undone) if undone is not None else None
    if record is None:
        return conditional(
            table_etag(g.table.version), lambda: render_table(table_hand_form(data={}))
        )
    form = table_hand_form(data=form_data_from_facts(record.facts, record.version))
    return render_table(form, refilled=record.number)


def render_table(
    form,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
    *,
    refilled: int | None = None,
):
    table = g.table
    game, system = game_and_system(table)
    ledger = table_reads.ledger_for(table)
    upcoming = upcoming_seats(table, ledger, UPCOMING)
    posted = whole_number(form.number.data) if conflict else None
    return render_template(
        "table.html",
        table=table,
        game=game,
        system=system,
        form=form,
        seats=upcoming[0],
        upcoming=upcoming,
        next_number=posted or table.hand_count + 1,
        conflict=conflict,
        refilled=refilled,
        token_renew_s=renew_in_s(),
        params=table_reads.rules_for(table).params,
        recent_hands=table_reads.latest_hands(table, 12),
        final=table_reads.settlement(table).balances if table.closed else None,
        group=groups.group_of_evening(table),
        table_url=url_for("table.table", _external=True),
        remembered=remembered(table, game),
        etag=table_etag(table.version),
        news=latest_news(table),
    ), status


def recorded_hand(table: TableSession, command: RecordHand) -> tuple[dict[str, Any], int]:
    """Record the command's hand (a write of the table's queue, through the API's own
    `evenings.record_hand`) and read, before the commit, what the bar under the form says
    about it, and the table's version after it. The write may run in another request's
    thread and transaction (`table_queue`): what it gives back is plain data, never an
    object of that transaction's session."""
    record = evenings.record_hand(table, command)[0]
    declarer = record.facts["declarer"]
    recorded = {
        "number": record.number,
        "version": record.version,
        "declarer": declarer,
        "cents": (record.net or {}).get(declarer, 0),
        "explanation": record.explanation,
    }
    return recorded, table.version


@bp.post("/t/<key>/spiel")
def record():
    """A hand entered on the table page, as the number the page showed for it. static/js/sending.js
    sends it with an Idempotency-Key and asks for JSON (the page keeps the hand in its queue
    until an answer comes); a page without JavaScript posts the form and gets a page."""
    form = table_hand_form(formdata=request.form)
    if form.validate():
        try:
            key = idempotency_key(request.headers.get("Idempotency-Key"))
            facts = facts_of_form(form)
            number = entered_number(form)
            if number is not None:
                facts["number"] = number
            command = hand_commands.record_command(
                g.table,
                facts,
                idempotency_key=key,
                begun=whole_number(request.form.get("begun")),  # where a moved form began
            )
            recorded, version = table_queue.write_table(
                g.table.key, lambda table: recorded_hand(table, command)
            )
        except HandExists as exc:
            return answer_conflict(form, command.hand, exc)
        except Conflict as exc:
            if not wants_json():
                raise
            return jsonify({"error": {"code": "conflict", "message": say_error(exc)}}), 409
        except RuleError as exc:
            attach_errors(form, exc)
        else:
            recorded["points"] = g.table.points_only
            if wants_json():
                bar = render_template("_recorded.html", message=recorded)
                answer = {"number": recorded["number"], "bar": bar, "etag": table_etag(version)}
                return jsonify(answer), 201
            flash(recorded, "recorded")
            return redirect(url_for("table.table"))
    if wants_json():
        return jsonify(
            {
                "error": {"code": "validation", "message": errors_text(form)},
                "form": render_table_form(form),
            }
        ), 422
    return render_table(form, 422)


def wants_json() -> bool:
    """Whether static/js/sending.js sent the form (it asks for JSON; a browser's own post for
    HTML)."""
    return request.accept_mimetypes.best == "application/json"


def entered_number(form) -> int | str | None:
    """The number the page showed for the hand: the conflict's "enter mine as hand N"
    gives another; a page from before numbers gives none (the hand is appended)."""
    chosen = request.form.get("renumber") or form.number.data or ""
    if not chosen:
        return None
    number = whole_number(chosen)
    return number if number is not None else chosen


def answer_conflict(form, hand: Hand, exc: HandExists):
    """Another device entered this hand's number first: nothing was stored. The player's
    entry stays (in the form, or in static/js/queue.js's queue) with the stored hand beside it."""
    g.table = table_rows.get_session(g.table.key)  # as stored now, for the page and numbers
    same = not exc.voided and Hand.from_json(exc.hand["facts"]).to_json() == hand.to_json()
    conflict = {
        "said": _("Hand %(number)s is entered already, exactly so.", number=exc.hand["number"])
        if same
        else say_error(exc),
        "same": same,
        "mine": say(table_reads.hand_summary(g.table.game, hand.to_json())),
        "next_number": exc.next_number,
    }
    if wants_json():
        panel = render_template("_conflict.html", **conflict)
        return jsonify(
            {
                "error": {"code": "hand_exists", "message": conflict["said"]},
                "conflict": panel,
                "next_number": exc.next_number,
            }
        ), 409
    return render_table(form, 409, conflict)


def render_table_form(form) -> str:
    """The entry form's fields alone (static/js/entry.js puts them back with their errors)."""
    table = g.table
    game, system = game_and_system(table)
    return render_template(
        "_table_form.html",
        form=form,
        game=game,
        system=system,
        params=table_reads.rules_for(table).params,
        next_number=whole_number(form.number.data) or table.hand_count + 1,
    )


def organiser_here() -> Organiser | None:
    """The organiser logged in on this device, who may correct a tournament's table after
    its round closed (and is named in the tournament's log); else None."""
    return current_user if current_user.is_authenticated else None
