"""The director's pages of a tournament: adjustments with their reasons (and taking one
back), the end of the tournament behind a confirmation, and the tournament's log."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import login_required

from scorer.domain import RuleError, tournament_commands
from scorer.extensions import PDFS, desk
from scorer.i18n.catalogue import say_all, say_error
from scorer.i18n.formats import signed_number
from scorer.i18n.reader import file_language
from scorer.i18n.words import gettext as _
from scorer.reports import tournament_pdf
from scorer.services import director
from scorer.services import tournaments as ops
from scorer.store.errors import Conflict, NotFound
from scorer.store.models import Tournament, TournamentLog
from scorer.tournaments.blueprint import bp
from scorer.tournaments.routes import adjustment_form, own, pdf_response, round_of
from scorer.web.forms import errors_text


def back(tournament: Tournament):
    return redirect(url_for("tournaments.show", tournament_id=tournament.id) + "#punkte")


@bp.post("/turniere/<n:tournament_id>/anpassungen")
@login_required
def adjust(tournament_id: int):
    tournament = own(tournament_id)
    form = adjustment_form(tournament, request.form)
    if not form.validate():
        flash(errors_text(form), "error")
        return back(tournament)
    try:
        command = tournament_commands.adjust(
            form.player.data,
            form.points.data or 0,  # never None once validated (InputRequired); 0 is refused
            reason=form.reason.data,
            players=[p.name for p in tournament.players],
        )
        director.adjust(tournament, command)
    except RuleError as exc:
        flash(say_all(exc.fields), "error")
    except Conflict as exc:
        flash(say_error(exc), "error")
    else:
        flash(
            _(
                "%(player)s: %(points)s points (%(reason)s).",
                player=form.player.data,
                points=signed_number(form.points.data or 0, signed=True),
                reason=form.reason.data,
            ),
            "info",
        )
    return back(tournament)


@bp.post("/turniere/<n:tournament_id>/anpassungen/<n:adjustment_id>/zuruecknehmen")
@login_required
def take_back(tournament_id: int, adjustment_id: int):
    tournament = own(tournament_id)
    try:
        adjustment = director.take_back(tournament, adjustment_id)
    except NotFound:
        flash(_("There is no such adjustment."), "error")
    except Conflict as exc:
        flash(say_error(exc), "error")
    else:
        flash(
            _(
                "Taken back: %(player)s, %(reason)s.",
                player=adjustment.player,
                reason=adjustment.reason,
            ),
            "info",
        )
    return back(tournament)


@bp.route("/turniere/<n:tournament_id>/beenden", methods=["GET", "POST"])
@login_required
def finish(tournament_id: int):
    """The end, after a confirmation: the results become final."""
    tournament = own(tournament_id)
    if request.method == "POST" and request.form.get("bestaetigt") == "ja":
        try:
            director.finish(tournament)
        except Conflict as exc:
            flash(say_error(exc), "error")
        else:
            flash(_("The tournament is finished: these are the final standings."), "info")
        return redirect(url_for("tournaments.show", tournament_id=tournament.id))
    return render_template("tournaments/confirm_finish.html", tournament=tournament)


SEATS_PER_PAGE = 24
"""Names the seating page shows at once, in letters readable from the back of the room:
two columns of twelve at 1024×768, three of eight at 1920×1080, none below the fold. A
larger room gets pages that turn by themselves every `TURN_SECONDS`."""
TURN_SECONDS = 12


@bp.get("/turnier/<key>/runde/<n:number>/sitzplan")
def seating(key: str, number: int):
    """The seating of a round for the room (the projector): every name and its table, big.
    Public by the tournament's key, as the standings are. More names than fit one screen
    come on pages (`?seite=2`) that turn by themselves, the last back to the first."""
    try:
        tournament = ops.get_public(key)
        round_ = ops.get_round(tournament, number)
    except NotFound:
        abort(404, _("There is no such round."))
    seats = tournament_pdf.seats_by_name(round_)
    pages = max(1, -(-len(seats) // SEATS_PER_PAGE))
    page = request.args.get("seite", "1")
    shown = int(page) if page.isdigit() and 1 <= int(page) <= pages else 1
    turn = None
    if pages > 1:
        following = url_for("tournaments.seating", key=key, number=number, seite=shown % pages + 1)
        turn = f"{TURN_SECONDS};url={following}"
    start = (shown - 1) * SEATS_PER_PAGE
    return render_template(
        "tournaments/seating.html",
        tournament=tournament,
        round_=round_,
        by_name=seats[start : start + SEATS_PER_PAGE],
        page=shown,
        pages=pages,
        turn=turn,
    )


@bp.get("/turniere/<n:tournament_id>/runde/<n:number>/karten.pdf")
@login_required
@PDFS
def cards_pdf(tournament_id: int, number: int):
    tournament = own(tournament_id)
    round_ = round_of(tournament, number)
    cards = tournament_pdf.cards_pdf(round_, file_language(), desk(), table_url=table_address)
    return pdf_response(cards, f"tischkarten-runde-{round_.number}.pdf")


def table_address(key: str) -> str:
    """A table page's address, as a QR code on its card takes a tablet there."""
    return url_for("table.table", key=key, _external=True)


@bp.get("/turniere/<n:tournament_id>/protokoll")
@login_required
def log(tournament_id: int):
    tournament = own(tournament_id)
    lines = [(line, log_text(line)) for line in director.log_of(tournament)]
    return render_template("tournaments/log.html", tournament=tournament, lines=lines)


def log_text(line: TournamentLog) -> str:
    """One line of the log in the reader's words."""
    d = line.data
    if line.action == "draw":
        return _(
            "Round %(number)s drawn: %(tables)s tables",
            number=d["round"],
            tables=len(d.get("tables", [])),
        )
    if line.action == "swap":
        return _(
            "Round %(number)s: %(a)s and %(b)s swapped seats", number=d["round"], a=d["a"], b=d["b"]
        )
    if line.action == "enter":
        return _("%(player)s enters from round %(number)s", player=d["player"], number=d["round"])
    if line.action == "withdraw":
        return _(
            "%(player)s withdraws after round %(number)s",
            player=d["player"],
            number=d["after_round"],
        )
    if line.action == "close":
        return _("Round %(number)s closed", number=d["round"])
    if line.action in ("correct", "strike"):
        before = hand_text(d.get("before"))
        if line.action == "strike":
            return _(
                "Round %(round)s, table %(table)s, hand %(number)s struck out (%(before)s)",
                round=d["round"],
                table=d["table"],
                number=d["number"],
                before=before,
            )
        return _(
            "Round %(round)s, table %(table)s, hand %(number)s corrected: %(before)s → %(after)s",
            round=d["round"],
            table=d["table"],
            number=d["number"],
            before=before,
            after=hand_text(d.get("after")),
        )
    if line.action == "adjust":
        return _(
            "%(player)s: %(points)s points (%(reason)s)",
            player=d["player"],
            points=signed_number(d["points"], signed=True),
            reason=d["reason"],
        )
    if line.action == "take_back":
        return _(
            "Taken back: %(player)s %(points)s points (%(reason)s)",
            player=d["player"],
            points=signed_number(d["points"], signed=True),
            reason=d["reason"],
        )
    if line.action == "finish":
        return _("The tournament is finished: the results are final")
    return line.action


def hand_text(entry: dict[str, Any] | None) -> str:
    """A hand as the log shows it: declarer, contract, card points."""
    hand = (entry or {}).get("hand") or {}
    return f"{hand.get('declarer', '?')}, {hand.get('contract', '?')}, {hand.get('points', '?')}"
