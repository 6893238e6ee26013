"""The pages of the evening as a whole: closing it, a change of players, reopening it, the
settle-up, its QR code and balance chart, and the rules of a game."""

from __future__ import annotations

from flask import (
    Response,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from scorer.domain import GAMES, SYSTEMS, RuleError, commands
from scorer.domain.ledger import LedgerState
from scorer.domain.validation import whole_number
from scorer.i18n.catalogue import say_error
from scorer.i18n.formats import euros
from scorer.i18n.words import gettext as _
from scorer.live import conditional, live_etag
from scorer.reports.chart import balance_chart_svg, balance_series
from scorer.services import evenings, table_reads, tables
from scorer.store.errors import Conflict
from scorer.table.blueprint import bp
from scorer.table.forms import players_form
from scorer.table.routes import latest_news, render_table, table_hand_form
from scorer.web.forms import attach_errors
from scorer.web.qr import qr_response


@bp.route("/t/<key>/schliessen", methods=["GET", "POST"])
def close():
    """End the evening, after a confirmation. A tournament table ends with its round: the
    page says so (409) and nothing changes."""
    try:
        tables.require_closable(g.table)
    except Conflict as exc:
        flash(say_error(exc), "error")
        return render_table(table_hand_form(), status=409)
    if request.method == "POST":
        evenings.close_evening(g.table)
        return redirect(url_for("table.settle"))
    return render_template(
        "confirm_close.html", table=g.table, settlement=table_reads.settlement(g.table)
    )


@bp.route("/t/<key>/spieler", methods=["GET", "POST"])
def players():
    """Players who come and go: who sits at the table from the next hand on."""
    table = g.table
    game = GAMES[table.game]
    ledger = table_reads.ledger_for(table)
    state = LedgerState.from_json(table.state)
    seated = ledger.seated(state)
    formdata = request.form if request.method == "POST" else None
    form = players_form(game, seated, state.next_dealer, version=table.version, formdata=formdata)
    if request.method == "POST" and form.validate():
        slots = [(form[f"player_{i}"].data or "").strip() for i in range(max(game.players))]
        names = [name for name in slots if name]
        chosen = whole_number(form.next_dealer.data)
        dealer = slots[chosen] if isinstance(chosen, int) and 0 <= chosen < len(slots) else ""
        try:
            command = commands.change_players(
                names, dealer=dealer or None, version=whole_number(form.version.data)
            )
            tables.change_players(table, command)
        except RuleError as exc:
            attach_errors(form, exc, prefix_map={"players": "player_0", "dealer": "next_dealer"})
        else:
            flash(
                _(
                    "From hand %(number)s on, %(players)s play; %(dealer)s deals.",
                    number=table.hand_count + 1,
                    players=", ".join(table.players),
                    dealer=table.state["next_dealer"],
                ),
                "info",
            )
            return redirect(url_for("table.table"))
    gone = [p for p in ledger.everyone if p not in seated]
    return render_template(
        "players.html",
        table=table,
        game=game,
        form=form,
        gone=gone,
        balances=state.balances,
    ), 422 if request.method == "POST" else 200


@bp.post("/t/<key>/oeffnen")
def reopen():
    """A closed evening opened again, to correct a hand or play on; settled anew at the
    next close."""
    evenings.reopen_evening(g.table)
    flash(_("The evening is open again."), "info")
    return redirect(url_for("table.table"))


@bp.get("/t/<key>/abrechnung")
def settle():
    etag = live_etag("settle", g.table.version)
    return conditional(
        etag,
        lambda: render_template(
            "settle.html",
            table=g.table,
            game=GAMES[g.table.game],
            settlement=table_reads.settlement(g.table),
            etag=etag,
            news=latest_news(g.table),
        ),
    )


@bp.get("/t/<key>/qr.svg")
def qr():
    return qr_response(url_for("table.table", _external=True))


@bp.get("/t/<key>/verlauf.svg")
def chart():
    """Each player's balance after every hand, drawn on the server (no JavaScript)."""
    table = g.table
    start, after = table_reads.standings(table, table_reads.hands_of(table))
    ledger = table_reads.ledger_for(table)
    players, series = balance_series(
        ledger.everyone,
        [start[0], *(balances for balances, _ in after.values())],
        [ledger.seated_at(1), *(ledger.seated_at(number) for number in after)],
    )
    svg = balance_chart_svg(
        players,
        series,
        points=table.points_only,
        numbers=[0, *after],
        axis=_("Hand no."),
        label=_("Balances over time"),
        value_text=None if table.points_only else euros,
    )
    return Response(svg, mimetype="image/svg+xml")


@bp.get("/regeln/<game_id>")
def rules(game_id: str):
    game = GAMES.get(game_id)
    if game is None:
        abort(404, _("Haferl does not know this game."))
    return render_template("rules.html", game=game, systems=[SYSTEMS[s] for s in game.systems])
