"""Tournament API: create, players, draw, tables, standings (HTTP Basic auth as the
organiser; the standings are also public by the tournament's key)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import current_app, jsonify, request, url_for

from scorer.api.blueprint import bp
from scorer.api.errors import ApiError, error_response
from scorer.api.schema import json_body
from scorer.auth import credentials
from scorer.domain import RuleError
from scorer.domain.message import msg
from scorer.domain.tournament import DEFAULT_TIE_BREAKS
from scorer.extensions import limiter, rate_limits_off
from scorer.i18n.catalogue import say_error
from scorer.live import RecentPages, live_etag, recent_page
from scorer.services import tournaments as ops
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
    return {
        "id": t.id,
        "key": t.key,
        "name": t.name,
        "date": t.day.isoformat(),
        "game": t.game,
        "system": t.system,
        "params": t.params,
        "rounds": t.rounds,
        "deals_per_player": t.deals_per_player,
        "players": [
            {"name": p.name, "joined_round": p.joined_round, "withdrawn_after": p.withdrawn_after}
            for p in t.players
        ],
        "rounds_drawn": [round_to_json(r) for r in t.round_list],
        "standings_url": url_for("tournaments.standings", key=t.key, _external=True),
        "tie_breaks": list(t.tie_breaks),
        "finished": t.finished,
        "finished_at": t.finished_at.isoformat() + "Z" if t.finished_at else None,
    }


def round_to_json(r: TournamentRound) -> dict[str, Any]:
    return {
        "number": r.number,
        "seed": r.seed,
        "closed": r.closed,
        "byes": r.byes,
        "tables": [
            {
                "number": t.number,
                "players": t.session.players,
                "key": t.session.key,
                "url": url_for("table.table", key=t.session.key, _external=True),
                "hands": t.session.live_hands,
                "hands_planned": t.session.hands_planned,
                "done": t.session.done,
            }
            for t in r.tables
        ],
    }


def standings_to_json(t: Tournament) -> list[dict[str, Any]]:
    """The standings, one row per player: the total with the director's `adjustment` in
    it, and `final` once the tournament is finished."""
    return [
        {
            "place": s.place,
            "player": s.player,
            "total": s.total,
            "adjustment": s.adjustment,
            "wins_as_declarer": s.wins_as_declarer,
            "losses_as_declarer": s.losses_as_declarer,
            "per_round": s.per_round,
            "last_round": s.last_round,
            "final": t.finished,
        }
        for s in ops.tournament_standings(t)
    ]


@bp.post("/tournaments")
@limiter.limit("30 per minute", exempt_when=rate_limits_off)
def create_tournament():
    who = organiser()
    data = json_body()
    raw_day = data.get("date")
    try:
        day = date.fromisoformat(raw_day) if isinstance(raw_day, str) else date.today()
    except ValueError:
        raise RuleError.one("date", msg("must be a date like 2026-12-24")) from None
    players = ops.parse_player_list(data.get("players"))
    tournament = ops.create_tournament(
        who,
        data.get("name", ""),
        day,
        data.get("game"),
        data.get("system"),
        data.get("params"),
        data.get("rounds", 4),
        players,
        data.get("deals_per_player", ops.DEFAULT_DEALS),
        data.get("tie_breaks", list(DEFAULT_TIE_BREAKS)),
    )
    return jsonify(tournament_to_json(tournament)), 201


@bp.get("/tournaments")
def list_tournaments():
    return jsonify([tournament_to_json(t) for t in ops.tournaments_of(organiser())])


@bp.get("/tournaments/<n:tournament_id>")
def read_tournament(tournament_id: int):
    return jsonify(tournament_to_json(own(tournament_id)))


@bp.post("/tournaments/<n:tournament_id>/players")
def add_player(tournament_id: int):
    tournament = own(tournament_id)
    data = json_body()
    name = data.get("name")
    if not isinstance(name, str):
        raise RuleError.one("name", msg("must have 1..%(limit)s characters", limit=40))
    player = ops.add_player(tournament, name)
    return jsonify({"name": player.name, "joined_round": player.joined_round}), 201


@bp.delete("/tournaments/<n:tournament_id>/players/<name>")
def withdraw_player(tournament_id: int, name: str):
    ops.withdraw_player(own(tournament_id), name)
    return "", 204


@bp.post("/tournaments/<n:tournament_id>/rounds")
def draw_round(tournament_id: int):
    round_ = ops.draw_round(own(tournament_id))
    return jsonify(round_to_json(round_)), 201


@bp.get("/tournaments/<n:tournament_id>/rounds/<n:number>")
def read_round(tournament_id: int, number: int):
    return jsonify(round_to_json(ops.get_round(own(tournament_id), number)))


@bp.post("/tournaments/<n:tournament_id>/rounds/<n:number>/swap")
def swap(tournament_id: int, number: int):
    round_ = ops.get_round(own(tournament_id), number)
    data = json_body()
    a, b = data.get("a"), data.get("b")
    if not isinstance(a, str) or not isinstance(b, str) or a == b:
        raise RuleError.one("a", msg("name two different seated players as 'a' and 'b'"))
    ops.swap_players(round_, a, b)
    return jsonify(round_to_json(round_))


@bp.post("/tournaments/<n:tournament_id>/rounds/<n:number>/close")
def close_round(tournament_id: int, number: int):
    round_ = ops.get_round(own(tournament_id), number)
    ops.close_round(round_)
    return jsonify(round_to_json(round_))


@bp.get("/tournaments/<n:tournament_id>/standings")
def standings(tournament_id: int):
    return jsonify(standings_to_json(own(tournament_id)))


PUBLIC_STANDINGS = RecentPages(max_age=0.5)
"""The public standings JSON given last, as the standings page is kept (`RecentPages`)."""


@bp.get("/standings/<tournament_key>")
def public_standings(tournament_key: str):
    """A projector that asks with If-None-Match gets 304 while nothing changed."""
    tournament: Tournament | None = None

    def look() -> str:
        nonlocal tournament
        try:
            tournament = ops.get_public(tournament_key)
        except NotFound:
            raise ApiError(404, "not_found", msg("no such tournament")) from None
        return live_etag("standings-json", *ops.live_version(tournament))

    def render(etag: str) -> str:
        assert tournament is not None  # looked up by look()
        return current_app.json.dumps(standings_to_json(tournament)) + "\n"

    name = live_etag("standings-json", tournament_key)
    return recent_page(PUBLIC_STANDINGS, name, look, render, "application/json")
