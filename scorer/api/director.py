"""The tournament director's API (API.md, "Tournament director"): adjustments, the finish
and the log, as the tournament's organiser (HTTP Basic). Corrections are the sessions'
ordinary hand edit and strike-out, with the organiser's credentials once a round closed."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request

from scorer.api import answers, bodies
from scorer.api.blueprint import bp
from scorer.api.contract import WRITES, described, validated
from scorer.api.schema import json_body
from scorer.api.tournaments import AS_ORGANISER, organiser, own, tournament_to_json
from scorer.domain import tournament_commands
from scorer.services import director, policies
from scorer.store.models import Organiser, TournamentAdjustment, TournamentLog


def stamp(moment: Any) -> str | None:
    return moment.isoformat() + "Z" if moment is not None else None


def adjustment_to_json(a: TournamentAdjustment) -> dict[str, Any]:
    return answers.Adjustment(
        id=a.id,
        player=a.player,
        points=a.points,
        reason=a.reason,
        by=a.by,
        at=stamp(a.at),
        taken_back_at=stamp(a.taken_back_at),
    ).as_json()


def log_line_to_json(line: TournamentLog) -> dict[str, Any]:
    return answers.LogLine(at=stamp(line.at), by=line.by, action=line.action, **line.data).as_json()


def correcting_organiser() -> Organiser | None:
    """Who corrects a hand: the organiser named by HTTP Basic credentials where the request
    sends them (wrong ones are refused, 401), else nobody but the table's key."""
    if "Authorization" not in request.headers:
        return None
    return organiser()


CHANGES = (*WRITES, *AS_ORGANISER, 409)


@bp.get("/tournaments/<n:tournament_id>/adjustments")
@described(
    "The director's adjustments, taken back ones too",
    {200: ("Adjustments", [answers.Adjustment])},
    refusals=AS_ORGANISER,
    basic=True,
)
def list_adjustments(tournament_id: int):
    return jsonify([adjustment_to_json(a) for a in own(tournament_id).adjustments])


@bp.post("/tournaments/<n:tournament_id>/adjustments")
@described(
    "An adjustment or penalty in points, with its reason",
    {201: ("The adjustment", answers.Adjustment)},
    body=bodies.NewAdjustment,
    refusals=CHANGES,
    basic=True,
)
def add_adjustment(tournament_id: int):
    data = json_body()  # read before the tournament is locked
    tournament = own(tournament_id)
    policies.require_running(tournament)  # a finished tournament: 409 whatever the body
    body = validated(bodies.NewAdjustment, data)
    command = tournament_commands.adjust(
        body.player,
        body.points,
        reason=body.reason,
        players=[p.name for p in tournament.players],
    )
    adjustment = director.adjust(tournament, command)
    return jsonify(adjustment_to_json(adjustment)), 201


@bp.delete("/tournaments/<n:tournament_id>/adjustments/<n:adjustment_id>")
@described(
    "Take an adjustment back",
    {200: ("The adjustment", answers.Adjustment)},
    refusals=CHANGES,
    basic=True,
)
def take_back_adjustment(tournament_id: int, adjustment_id: int):
    return jsonify(adjustment_to_json(director.take_back(own(tournament_id), adjustment_id)))


@bp.post("/tournaments/<n:tournament_id>/finish")
@described(
    "The results become final (send `{}` as application/json)",
    {200: ("The tournament", answers.Tournament)},
    body=bodies.Nothing,
    refusals=CHANGES,
    basic=True,
)
def finish(tournament_id: int):
    tournament = own(tournament_id)
    director.finish(tournament)
    return jsonify(tournament_to_json(tournament))


@bp.get("/tournaments/<n:tournament_id>/log")
@described(
    "The tournament's log, oldest first",
    {200: ("Log", [answers.LogLine])},
    refusals=AS_ORGANISER,
    basic=True,
)
def tournament_log(tournament_id: int):
    return jsonify([log_line_to_json(line) for line in director.log_of(own(tournament_id))])
