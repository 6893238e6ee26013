"""The event's door as pages: the desk's check-in list (the organiser's tablet at the door),
the public registration page and a player's own check-in on his phone (from the QR code
at the door, with the desk's code)."""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm

from scorer.domain import RuleError, tournament_commands
from scorer.domain.prizes import FEES, Fee
from scorer.domain.tournament_commands import CheckIn
from scorer.extensions import PDFS, desk, limiter, rate_limits_off
from scorer.i18n.catalogue import say_all, say_error
from scorer.i18n.reader import file_language
from scorer.i18n.words import gettext as _
from scorer.reports import tournament_pdf
from scorer.services import cash, registration
from scorer.services import series as cups
from scorer.services import tournaments as ops
from scorer.store.errors import NotFound
from scorer.store.models import Tournament, TournamentPlayer
from scorer.tournaments.blueprint import bp
from scorer.tournaments.forms import PhoneCheckInForm, PlayerForm, RegisterForm
from scorer.tournaments.routes import own, pdf_response
from scorer.web.forms import attach_errors, errors_text
from scorer.web.qr import qr_response

DESK_ACTIONS: dict[str, Fee] = {fee: fee for fee in FEES}
"""The desk's buttons that check a player in, each with the fee it ticks."""
"""The desk's buttons for a player: check him in (or tick his fee) as paid, owing, waived."""


@bp.get("/turniere/<n:tournament_id>/einlass")
@login_required
def door(tournament_id: int):
    tournament = own(tournament_id)
    players = sorted(tournament.players, key=lambda p: (p.waiting, p.name.casefold()))
    present = cash.present(tournament)
    return render_template(
        "tournaments/door.html",
        tournament=tournament,
        players=players,
        present=len(present),
        paid=sum(1 for p in present if p.fee == "paid"),
        waiting=len(registration.waiting_list(tournament)),
        next_round=ops.next_round_number(tournament),
        form=PlayerForm(),
        known=[n for n in cups.known_names(current_user) if n not in taken_names(tournament)],
        register_url=url_for("tournaments.register", key=tournament.key, _external=True),
        phone_url=url_for("tournaments.phone_check_in", key=tournament.key, _external=True),
    )


def taken_names(tournament) -> set[str]:
    return {p.name for p in tournament.players}


def back_to_door(tournament_id: int):
    return redirect(url_for("tournaments.door", tournament_id=tournament_id) + "#search")


@bp.post("/turniere/<n:tournament_id>/einlass/<n:player_id>")
@login_required
def door_tap(tournament_id: int, player_id: int):
    """One tap at the desk: check the player in (paid, owing or waived), tick his fee, or
    undo his check-in."""
    tournament = own(tournament_id)
    player = next((p for p in tournament.players if p.id == player_id), None)
    if player is None:
        abort(404, _("There is no such player in this tournament."))
    action = request.form.get("action", "")
    if action == "undo":
        registration.undo_check_in(tournament, player.name)
        flash(_("%(name)s is no longer checked in.", name=player.name), "info")
    elif action in DESK_ACTIONS:
        was_in = player.checked_in
        registration.check_in(tournament, CheckIn(player.name, DESK_ACTIONS[action]))
        if not was_in:
            flash(_("%(name)s is checked in.", name=player.name), "info")
    else:
        abort(400, _("This button is not known here: reload the page."))
    return back_to_door(tournament.id)


@bp.post("/turniere/<n:tournament_id>/einlass/neu")
@login_required
def door_register(tournament_id: int):
    """A player registered at the desk (and checked in at once: he is standing there)."""
    tournament = own(tournament_id)
    form = PlayerForm()
    if form.validate_on_submit():
        try:
            command = tournament_commands.register(form.name.data, form.club.data)
            player = registration.register(tournament, command)
            if tournament.check_in:
                registration.check_in(tournament, CheckIn(player.name))
        except RuleError as exc:
            flash(say_all(exc.fields), "error")
        else:
            flash(_("%(name)s is registered and checked in.", name=player.name), "info")
    else:
        flash(errors_text(form), "error")
    return back_to_door(tournament.id)


@bp.post("/turniere/<n:tournament_id>/anmeldung")
@login_required
def registration_switch(tournament_id: int):
    tournament = own(tournament_id)
    command = tournament_commands.set_registration(
        is_open=request.form.get("open") == "1", cap=tournament.cap
    )
    registration.set_registration(tournament, command)
    return redirect(url_for("tournaments.door", tournament_id=tournament.id))


def public(key: str):
    try:
        return ops.get_public(key)
    except NotFound:
        abort(404, _("This tournament does not exist."))


@bp.route("/turnier/<key>/anmelden", methods=["GET", "POST"], endpoint="register")
@limiter.limit("20 per minute", methods=["POST"], exempt_when=rate_limits_off)
def register_page(key: str):
    """Players sign themselves up while registration is open."""
    tournament = public(key)
    form = RegisterForm()
    return public_write(
        tournament,
        form,
        lambda t: registration.register(
            t, tournament_commands.register(form.name.data, form.club.data), by_self=True
        ),
        page="tournaments/register.html",
        done="tournaments/registered.html",
        taken=lambda t: len(registration.in_field(t)),
    )


@bp.route("/turnier/<key>/da", methods=["GET", "POST"], endpoint="phone_check_in")
@limiter.limit("10 per minute", methods=["POST"], exempt_when=rate_limits_off)
def phone_check_in_page(key: str):
    """A player checks himself in on his phone with the code shown at the door."""
    tournament = public(key)
    form = PhoneCheckInForm()
    return public_write(
        tournament,
        form,
        lambda t: registration.check_in_by_phone(t, form.name.data, form.code.data),
        page="tournaments/phone_check_in.html",
        done="tournaments/checked_in.html",
    )


def public_write(
    tournament: Tournament,
    form: FlaskForm,
    write: Callable[[Tournament], TournamentPlayer],
    *,
    page: str,
    done: str,
    **shown: Callable[[Tournament], object],
):
    """A player's own form on a public page: shown on GET; on POST the tournament is locked
    and `write` runs, its player shown on `done`, or the form again with the refusal (422
    for the fields, 409 for the tournament's state, 404 for an unknown name). `shown`: more
    for the page, each worked out from the tournament."""
    status = 200
    if request.method == "POST":
        tournament = ops.get_tournament(tournament.organiser, tournament.id, for_write=True)
        if form.validate():
            try:
                player = write(tournament)
            except RuleError as exc:
                attach_errors(form, exc)
                status = 422
            except (ops.TournamentError, NotFound) as exc:
                form.form_errors.append(say_error(exc))
                status = 409 if isinstance(exc, ops.TournamentError) else 404
            else:
                return render_template(done, tournament=tournament, player=player)
        else:
            status = 422
    extra = {name: value(tournament) for name, value in shown.items()}
    return render_template(page, tournament=tournament, form=form, **extra), status


@bp.get("/turnier/<key>/anmelden/qr.svg")
def register_qr(key: str):
    return qr_response(url_for("tournaments.register", key=public(key).key, _external=True))


@bp.get("/turnier/<key>/da/qr.svg")
def phone_qr(key: str):
    return qr_response(url_for("tournaments.phone_check_in", key=public(key).key, _external=True))


@bp.get("/turniere/<n:tournament_id>/kasse.pdf")
@login_required
@PDFS
def cash_pdf(tournament_id: int):
    """The treasurer's sheet (PDF)."""
    tournament = own(tournament_id)
    return pdf_response(
        tournament_pdf.cash_pdf(tournament, file_language(), desk()),
        f"kasse-{tournament.id}.pdf",
    )
