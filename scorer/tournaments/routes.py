"""Tournament pages for organisers, and the public live standings."""

from __future__ import annotations

import time
from dataclasses import dataclass

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from scorer.api.archives import archive_response
from scorer.domain import GAMES, SYSTEMS, RuleError, tournament_commands
from scorer.domain.message import msg
from scorer.domain.money import cents_from_euros
from scorer.domain.tournament_commands import Door, DrawRound, Seating, prize_plan
from scorer.extensions import PDFS, desk
from scorer.i18n.catalogue import say, say_all, say_error
from scorer.i18n.reader import file_language
from scorer.i18n.words import gettext as _
from scorer.i18n.words import ngettext
from scorer.live import RecentPages, conditional, live_etag, recent_page
from scorer.reports import tournament_pdf
from scorer.services import director, draws, registration, tournament_archives
from scorer.services import tournaments as ops
from scorer.services.standings_at import standings_at
from scorer.store.errors import Conflict, NotFound
from scorer.store.models import Tournament, TournamentRound, utcnow
from scorer.tournaments.blueprint import bp
from scorer.tournaments.forms import (
    HIDDEN_PARAMS,
    TOURNAMENT_GAMES,
    AdjustmentForm,
    PlayerForm,
    SwapForm,
    tournament_form,
)
from scorer.web.forms import ChooseGameForm, attach_errors, options, params_from_form, wrong_system
from scorer.web.links import site_referrer


def own(tournament_id: int):
    try:
        return ops.get_tournament(
            current_user, tournament_id, for_write=request.method not in ("GET", "HEAD")
        )
    except NotFound:
        abort(404, _("This tournament does not exist (or it belongs to someone else)."))


def adjustment_form(tournament: Tournament, formdata=None) -> AdjustmentForm:
    form = AdjustmentForm(formdata=formdata)
    form.player.choices = options((p.name, p.name) for p in tournament.players)
    return form


def round_of(tournament, number: int):
    try:
        return ops.get_round(tournament, number)
    except NotFound:
        abort(404, _("Round %(number)s has not been drawn yet.", number=number))


@bp.errorhandler(ops.TournamentError)
@bp.errorhandler(Conflict)
def tournament_error(exc: Exception):
    flash(say_error(exc), "error")
    return redirect(site_referrer(request.referrer, request.host) or url_for("tournaments.index"))


@bp.get("/turniere")
@login_required
def index():
    return render_template(
        "tournaments/index.html", tournaments=ops.tournaments_of(current_user), games=GAMES
    )


@bp.route("/turniere/neu", methods=["GET", "POST"])
@login_required
def new():
    source = request.form if request.method == "POST" else request.args
    game_id = source.get("game")
    game = (
        GAMES[game_id] if any(g.id == game_id for g in TOURNAMENT_GAMES) else GAMES["haferltarock"]
    )
    choose = ChooseGameForm(formdata=None, data={"game": game.id})
    choose.game.choices = options((g.id, say(g.name)) for g in TOURNAMENT_GAMES)
    system_id = source.get("system")
    system = SYSTEMS[system_id] if system_id in game.systems else SYSTEMS[game.systems[0]]
    choose.system.choices = options((s, say(SYSTEMS[s].name)) for s in game.systems)
    choose.system.data = system.id
    form = tournament_form(
        game, system, formdata=request.form if request.method == "POST" else None
    )
    refused = wrong_system(game, system_id) if request.method == "POST" else None
    if refused:
        form.form_errors.append(refused)
    elif request.method == "POST" and form.validate():
        try:
            command = tournament_commands.new_tournament(
                name=form.name.data,
                day=form.day.data,
                game=game.id,
                system=system.id,
                params=params_from_form(form, game, system, skip=HIDDEN_PARAMS),
                rounds=form.rounds.data,
                players=form.players.data or "",
                deals_per_player=form.deals.data,
                tie_breaks=form.chosen_tie_breaks(),
                door=door_from_form(form),
            )
            tournament = ops.create_tournament(current_user, command)
        except RuleError as exc:
            attach_errors(
                form,
                exc,
                prefix_map={
                    "deals_per_player": "deals",
                    "tie_breaks": "tie_break_1",
                    "entry_fee_cents": "entry_fee",
                    "pool_percent": "prizes",
                },
            )
        except ValueError as exc:
            form.form_errors.append(say_error(exc))
        else:
            return redirect(url_for("tournaments.show", tournament_id=tournament.id))
    status = 422 if request.method == "POST" else 200
    return render_template(
        "tournaments/new.html", choose=choose, form=form, game=game, system=system
    ), status


def door_from_form(form) -> Door:
    """The entry fee (typed in euros) and the prizes (percentages by place) of the
    new-tournament form; with no players listed, they check in at the door."""
    fee = cents_from_euros(form.entry_fee.data or "0")
    if fee is None:
        raise RuleError.one("entry_fee", msg("must be an amount in euros like 15 or 7,50"))
    words = (form.prizes.data or "").replace(",", " ").replace("%", " ").split()
    if not all(word.isascii() and word.isdigit() and len(word) <= 3 for word in words):
        raise RuleError.one("prizes", msg("must be whole percentages, e.g. 30 25 15 10"))
    percents = {"percent": [int(word) for word in words]} if words else None
    return Door(
        entry_fee_cents=fee,
        prize_plan=prize_plan(fee, pool_percent=100, pool_cents=None, prizes=percents),
    )


@bp.get("/turniere/<n:tournament_id>")
@login_required
def show(tournament_id: int):
    """The organiser's page of a tournament. It is live, as the tables are: each table's
    progress, how long since its last entry (the ETag names the minute), and the tables
    behind the others marked."""
    tournament = own(tournament_id)
    etag = live_etag("tournament", *ops.live_version(tournament), int(time.time() // 60))
    return conditional(etag, lambda: render_show(tournament, etag))


def render_show(tournament: Tournament, etag: str) -> str:
    current = ops.current_round(tournament)
    swap_form = None
    if (
        current is not None
        and not current.closed
        and not ops.started(current)
        and not tournament.finished
    ):
        swap_form = SwapForm()
        names = options((n, n) for t in current.tables for n in t.session.players)
        swap_form.a.choices = swap_form.b.choices = names
    return render_template(
        "tournaments/show.html",
        tournament=tournament,
        current=current,
        game=GAMES[tournament.game],
        system=SYSTEMS[tournament.system],
        player_form=PlayerForm(),
        swap_form=swap_form,
        started=ops.started,
        can_draw=not tournament.finished
        and ops.next_round_number(tournament) <= tournament.rounds
        and (current is None or current.closed),
        can_finish=not tournament.finished
        and bool(tournament.round_list)
        and all(r.closed for r in tournament.round_list),
        adjustment_form=adjustment_form(tournament),
        progress={r.number: round_progress(r) for r in tournament.round_list},
        etag=etag,
    )


@dataclass(frozen=True)
class TableProgress:
    """A table of a round as the organiser watches it."""

    minutes_since: int | None
    """Minutes since its last entry; None before its first hand."""
    behind: bool
    """Not done, and at least `BEHIND` hands short of the round's middle table."""


BEHIND = 2
"""Hands short of the round's median table that mark a table as behind the others."""


def round_progress(round_: TournamentRound) -> dict[int, TableProgress]:
    counts = sorted(t.session.live_hands for t in round_.tables)
    median = counts[len(counts) // 2] if counts else 0
    now = utcnow()
    progress = {}
    for t in round_.tables:
        session = t.session
        since = None
        if session.live_hands:
            since = max(int((now - session.updated_at).total_seconds() // 60), 0)
        behind = not session.done and median - session.live_hands >= BEHIND
        progress[t.number] = TableProgress(since, behind and not round_.closed)
    return progress


@bp.post("/turniere/<n:tournament_id>/spieler")
@login_required
def add_player(tournament_id: int):
    tournament = own(tournament_id)
    form = PlayerForm()
    if form.validate_on_submit():
        try:
            player = registration.register(tournament, tournament_commands.register(form.name.data))
        except RuleError as exc:
            flash(say_all(exc.fields), "error")
        else:
            flash(
                _(
                    "%(name)s plays from round %(number)s on.",
                    name=player.name,
                    number=player.joined_round,
                ),
                "info",
            )
    return redirect(url_for("tournaments.show", tournament_id=tournament.id))


@bp.post("/turniere/<n:tournament_id>/spieler/<n:player_id>/abmelden")
@login_required
def withdraw(tournament_id: int, player_id: int):
    tournament = own(tournament_id)
    player = next((p for p in tournament.players if p.id == player_id), None)
    if player is None:
        abort(404, _("There is no such player in this tournament."))
    name = player.name
    registration.withdraw(tournament, name)
    flash(_("%(name)s plays no further round.", name=name), "info")
    return redirect(url_for("tournaments.show", tournament_id=tournament.id))


@bp.post("/turniere/<n:tournament_id>/auslosen")
@login_required
def draw(tournament_id: int):
    tournament = own(tournament_id)
    chosen = request.form.get("seating", "random")
    if chosen not in ("random", "standings"):
        abort(400, _("This button is not known here: reload the page."))
    seating: Seating = "standings" if chosen == "standings" else "random"
    try:
        command = DrawRound(
            seating, keep_apart="club" if request.form.get("keep_apart") == "club" else None
        )
        round_ = draws.draw_round(tournament, command)
    except RuleError as exc:
        flash(say_all(exc.fields), "error")
        return redirect(url_for("tournaments.show", tournament_id=tournament.id))
    flash(
        ngettext(
            "Round %(number)s is drawn: %(num)d table.",
            "Round %(number)s is drawn: %(num)d tables.",
            len(round_.tables),
            number=round_.number,
        ),
        "info",
    )
    if round_.clubs_together:
        pairs = ", ".join(f"{a} – {b}" for a, b in round_.clubs_together)
        flash(
            _(
                "Club-mates still at one table (the numbers allow no better): %(pairs)s",
                pairs=pairs,
            ),
            "error",
        )
    return redirect(url_for("tournaments.show", tournament_id=tournament.id))


@bp.post("/turniere/<n:tournament_id>/runde/<n:number>/tauschen")
@login_required
def swap(tournament_id: int, number: int):
    tournament = own(tournament_id)
    round_ = round_of(tournament, number)
    form = SwapForm()
    names = options((n, n) for t in round_.tables for n in t.session.players)
    form.a.choices = form.b.choices = names
    if form.validate_on_submit():
        try:
            ops.swap_players(round_, tournament_commands.swap_players(form.a.data, form.b.data))
        except RuleError as exc:
            flash(say_all(exc.fields), "error")
        else:
            flash(_("%(a)s and %(b)s have swapped seats.", a=form.a.data, b=form.b.data), "info")
    return redirect(url_for("tournaments.show", tournament_id=tournament.id))


@bp.post("/turniere/<n:tournament_id>/runde/<n:number>/schliessen")
@login_required
def close_round(tournament_id: int, number: int):
    """Close a round. While a table has hands still to play, one more tap confirms it."""
    tournament = own(tournament_id)
    round_ = round_of(tournament, number)
    unfinished = [t for t in round_.tables if not t.session.done and not t.session.closed]
    if unfinished and request.form.get("bestaetigt") != "ja" and not round_.closed:
        return render_template(
            "tournaments/confirm_close_round.html",
            tournament=tournament,
            round_=round_,
            unfinished=unfinished,
        )
    ops.close_round(round_)
    flash(_("Round %(number)s is closed.", number=number), "info")
    return redirect(url_for("tournaments.show", tournament_id=tournament.id))


@bp.get("/turniere/<n:tournament_id>/runde/<n:number>/tische", endpoint="tables")
@login_required
def table_codes(tournament_id: int, number: int):
    """A page per round with each table's QR code, to print or show at the tables."""
    tournament = own(tournament_id)
    return render_template(
        "tournaments/tables.html", tournament=tournament, round_=round_of(tournament, number)
    )


STANDINGS = RecentPages(max_age=0.5)
"""The standings pages rendered last: for each tournament and language at most two looks
at the database a second, and a render only when something changed, however many watch
and however fast hands come in."""


@bp.get("/turnier/<key>/stand")
def standings(key: str):
    """The live standings: public by the tournament's key, big type. They follow the
    tables live (static/js/live.js asks with the ETag: `304` while nothing changed)."""
    tournament: Tournament | None = None
    version: tuple[int, ...] = ()

    def look() -> str:
        nonlocal tournament, version
        try:
            tournament = ops.get_public(key)
        except NotFound:
            abort(404, _("There are no such tournament standings."))
        version = ops.live_version(tournament)
        return live_etag("standings", *version)

    def render(etag: str) -> str:
        assert tournament is not None  # looked up by look()
        return render_template(
            "tournaments/standings.html",
            tournament=tournament,
            standings=standings_at(tournament, version),
            reasons=director.reasons(tournament),
            current=ops.current_round(tournament),
            game=GAMES[tournament.game],
            etag=etag,
            **tournament_pdf.rules_of(tournament),
        )

    return recent_page(STANDINGS, live_etag("standings", key), look, render=render)


def pdf_response(body: bytes, filename: str) -> Response:
    return Response(
        body,
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{filename}"'},
    )


@bp.get("/turniere/<n:tournament_id>/archiv.json")
@login_required
def archive(tournament_id: int):
    """The tournament's whole history as one file (`scorer.services.tournament_archives`),
    for another server."""
    tournament = own(tournament_id)
    document = tournament_archives.tournament_archive(tournament)
    return archive_response(document, tournament.name, tournament.day.isoformat())


@bp.get("/turniere/<n:tournament_id>/tabelle.pdf")
@login_required
@PDFS
def standings_pdf(tournament_id: int):
    tournament = own(tournament_id)
    return pdf_response(
        tournament_pdf.standings_pdf(tournament, file_language(), desk()),
        f"tabelle-{tournament.id}.pdf",
    )


@bp.get("/turniere/<n:tournament_id>/runde/<n:number>/tische.pdf")
@login_required
@PDFS
def assignments_pdf(tournament_id: int, number: int):
    round_ = round_of(own(tournament_id), number)
    return pdf_response(
        tournament_pdf.assignments_pdf(round_, file_language(), desk()),
        f"tische-runde-{number}.pdf",
    )


@bp.get("/turniere/<n:tournament_id>/runde/<n:number>/spielzettel.pdf")
@login_required
@PDFS
def blank_sheets_pdf(tournament_id: int, number: int):
    round_ = round_of(own(tournament_id), number)
    return pdf_response(
        tournament_pdf.blank_sheets_pdf(round_, file_language(), desk()),
        f"spielzettel-runde-{number}.pdf",
    )
