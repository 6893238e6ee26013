"""Tournament API: create, players, draw, tables, standings (HTTP Basic auth as the
organiser; the standings are also public by the tournament's key)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import current_app, jsonify, request, url_for

from scorer.api import answers, bodies
from scorer.api.blueprint import bp
from scorer.api.contract import WRITES, described, read_body
from scorer.api.errors import ApiError, error_response
from scorer.auth import credentials
from scorer.domain import RuleError, tournament_commands
from scorer.domain.message import msg
from scorer.domain.tournament import Standing
from scorer.domain.tournament_commands import Door, DrawRound, prize_plan
from scorer.extensions import limiter, rate_limits_off
from scorer.i18n.catalogue import say_error
from scorer.live import RecentPages, live_etag, recent_page
from scorer.services import draws, series
from scorer.services import tournaments as ops
from scorer.services.standings_at import standings_at
from scorer.store.errors import NotFound
from scorer.store.models import Organiser, Tournament, TournamentRound


@bp.errorhandler(ops.TournamentError)
def tournament_conflict(exc: ops.TournamentError):
    return error_response(409, "conflict", say_error(exc))


def organiser() -> Organiser:
    """The organiser named by HTTP Basic credentials. The web login's cookie does not
    count here: a page the organiser visits could otherwise write with it."""
    try:
        who = credentials.from_basic_auth()
    except credentials.TooManyFailures as exc:
        raise ApiError(
            429,
            "too_many_requests",
            msg("too many wrong passwords from this address: wait"),
            headers={"Retry-After": str(exc.retry_after)},
        ) from None
    if who is None:
        raise ApiError(
            401,
            "unauthorized",
            msg("log in as an organiser (HTTP Basic: e-mail, password)"),
            headers={"WWW-Authenticate": 'Basic realm="Haferl"'},
        )
    return who


def own(tournament_id: int) -> Tournament:
    return ops.get_tournament(
        organiser(), tournament_id, for_write=request.method not in ("GET", "HEAD")
    )


def tournament_to_json(t: Tournament) -> dict[str, Any]:
    return answers.Tournament(
        id=t.id,
        key=t.key,
        name=t.name,
        date=t.day.isoformat(),
        game=t.game,
        system=t.system,
        params=t.params,
        rounds=t.rounds,
        deals_per_player=t.deals_per_player,
        players=[
            answers.TournamentPlayer(
                name=p.name,
                joined_round=p.joined_round,
                withdrawn_after=p.withdrawn_after,
                club=p.club,
                checked_in=p.checked_in,
                waiting=p.waiting,
                fee=p.fee,
                fixed_table=p.fixed_table,
            )
            for p in t.players
        ],
        rounds_drawn=[round_answer(r) for r in t.round_list],
        standings_url=url_for("tournaments.standings", key=t.key, _external=True),
        tie_breaks=list(t.tie_breaks),
        finished=t.finished,
        finished_at=t.finished_at.isoformat() + "Z" if t.finished_at else None,
        check_in=t.check_in,
        registration_open=t.registration_open,
        cap=t.cap,
        registration_url=url_for("tournaments.register", key=t.key, _external=True),
        missed_round_points=t.missed_round_points,
        entry_fee_cents=t.entry_fee_cents,
        prize_plan=t.prize_plan,
        series=t.series_id,
        final=t.final,
    ).as_json()


def round_to_json(r: TournamentRound) -> dict[str, Any]:
    return round_answer(r).as_json()


def round_answer(r: TournamentRound) -> answers.Round:
    return answers.Round(
        number=r.number,
        seed=r.seed,
        closed=r.closed,
        byes=r.byes,
        seating=r.seating,
        keep_apart=r.keep_apart,
        clubs_together=[list(pair) for pair in r.clubs_together],
        tables=[
            answers.RoundTable(
                number=t.number,
                players=t.session.players,
                key=t.session.key,
                url=url_for("table.table", key=t.session.key, _external=True),
                hands=t.session.live_hands,
                hands_planned=t.session.hands_planned,
                done=t.session.done,
            )
            for t in r.tables
        ],
    )


def standings_to_json(t: Tournament, rows: list[Standing] | None = None) -> list[dict[str, Any]]:
    """The standings (`rows`, or the tournament's now), one row per player: the total with
    the director's `adjustment` in it, and `final` once the tournament is finished."""
    return [
        answers.Standing(
            place=s.place,
            player=s.player,
            total=s.total,
            adjustment=s.adjustment,
            carried=s.carried,
            wins_as_declarer=s.wins_as_declarer,
            losses_as_declarer=s.losses_as_declarer,
            per_round=s.per_round,
            last_round=s.last_round,
            final=t.finished,
        ).as_json()
        for s in (ops.tournament_standings(t) if rows is None else rows)
    ]


AS_ORGANISER = (401, 404)
"""An organiser's request about a tournament: wrong credentials, or not theirs."""


@bp.post("/tournaments")
@described(
    "Create a tournament",
    {201: ("The tournament", answers.Tournament)},
    body=bodies.NewTournament,
    refusals=(*WRITES, 401),
    basic=True,
)
@limiter.limit("30 per minute", exempt_when=rate_limits_off)
def create_tournament():
    who = organiser()
    body = read_body(bodies.NewTournament)
    try:
        day = date.fromisoformat(body.date) if body.date is not None else date.today()
    except ValueError:
        raise RuleError.one("date", msg("must be a date like 2026-12-24")) from None
    command = tournament_commands.new_tournament(
        name=body.name,
        day=day,
        game=body.game,
        system=body.system,
        params=body.params,
        rounds=body.rounds,
        players=body.players,
        deals_per_player=body.deals_per_player,
        tie_breaks=body.tie_breaks,
        final=body.final,
        door=Door(
            check_in=body.check_in,
            registration_open=body.registration_open,
            cap=body.cap,
            missed_round_points=body.missed_round_points,
            entry_fee_cents=body.entry_fee_cents,
            prize_plan=prize_plan(
                body.entry_fee_cents,
                # A fixed pool sent alone: no share of the fees on top of it.
                pool_percent=None
                if body.pool_cents is not None and "pool_percent" not in body.model_fields_set
                else body.pool_percent,
                pool_cents=body.pool_cents,
                prizes=body.prizes,
            ),
        ),
    )
    cup = series.own_series(who, body.series) if body.series is not None else None
    series.check_final(cup, body.final)
    tournament = ops.create_tournament(who, command, series=cup)
    return jsonify(tournament_to_json(tournament)), 201


@bp.get("/tournaments")
@described(
    "The organiser's tournaments",
    {200: ("List", [answers.Tournament])},
    refusals=(401,),
    basic=True,
)
def list_tournaments():
    return jsonify([tournament_to_json(t) for t in ops.tournaments_of(organiser())])


@bp.get("/tournaments/<n:tournament_id>")
@described(
    "A tournament", {200: ("Tournament", answers.Tournament)}, refusals=AS_ORGANISER, basic=True
)
def read_tournament(tournament_id: int):
    return jsonify(tournament_to_json(own(tournament_id)))


@bp.post("/tournaments/<n:tournament_id>/rounds")
@described(
    "Draw the next round: at random or by the standings, club-mates apart, fixed tables",
    {201: ("The round", answers.Round)},
    body=bodies.Draw,
    refusals=(*WRITES, *AS_ORGANISER, 409),
    basic=True,
)
def draw_round(tournament_id: int):
    tournament = own(tournament_id)
    body = read_body(bodies.Draw)
    command = DrawRound(body.seating, keep_apart=body.keep_apart, fixed=body.fixed or {})
    round_ = draws.draw_round(tournament, command)
    return jsonify(round_to_json(round_)), 201


@bp.get("/tournaments/<n:tournament_id>/rounds/<n:number>")
@described(
    "A round with its tables", {200: ("Round", answers.Round)}, refusals=AS_ORGANISER, basic=True
)
def read_round(tournament_id: int, number: int):
    return jsonify(round_to_json(ops.get_round(own(tournament_id), number)))


@bp.post("/tournaments/<n:tournament_id>/rounds/<n:number>/swap")
@described(
    "Swap two players before the round starts",
    {200: ("The round", answers.Round)},
    body=bodies.Swap,
    refusals=(*WRITES, *AS_ORGANISER, 409),
    basic=True,
)
def swap(tournament_id: int, number: int):
    round_ = ops.get_round(own(tournament_id), number)
    body = read_body(bodies.Swap)
    ops.swap_players(round_, tournament_commands.swap_players(body.a, body.b))
    return jsonify(round_to_json(round_))


@bp.post("/tournaments/<n:tournament_id>/rounds/<n:number>/close")
@described(
    "Close a round (send `{}` as application/json)",
    {200: ("The round", answers.Round)},
    body=bodies.Nothing,
    refusals=(*WRITES, *AS_ORGANISER, 409),
    basic=True,
)
def close_round(tournament_id: int, number: int):
    round_ = ops.get_round(own(tournament_id), number)
    ops.close_round(round_)
    return jsonify(round_to_json(round_))


@bp.get("/tournaments/<n:tournament_id>/standings")
@described("Standings", {200: ("Standings", [answers.Standing])}, refusals=AS_ORGANISER, basic=True)
def standings(tournament_id: int):
    return jsonify(standings_to_json(own(tournament_id)))


PUBLIC_STANDINGS = RecentPages(max_age=0.5)
"""The public standings JSON given last, as the standings page is kept (`RecentPages`)."""


@bp.get("/standings/<tournament_key>")
@described(
    "Public standings of a tournament",
    {200: ("Standings", [answers.Standing]), 304: ("Not changed since If-None-Match", None)},
    refusals=(404,),
)
def public_standings(tournament_key: str):
    """A projector that asks with If-None-Match gets 304 while nothing changed."""
    tournament: Tournament | None = None
    version: tuple[int, ...] = ()

    def look() -> str:
        nonlocal tournament, version
        try:
            tournament = ops.get_public(tournament_key)
        except NotFound:
            raise ApiError(404, "not_found", msg("no such tournament")) from None
        version = ops.live_version(tournament)
        return live_etag("standings-json", *version)

    def render(etag: str) -> str:
        assert tournament is not None  # looked up by look()
        rows = standings_at(tournament, version)
        return current_app.json.dumps(standings_to_json(tournament, rows)) + "\n"

    name = live_etag("standings-json", tournament_key)
    return recent_page(PUBLIC_STANDINGS, name, look, render=render, mimetype="application/json")
