"""The tournament director's API (API.md, "Tournament director"): adjustments, the finish
and the log, as the tournament's organiser (HTTP Basic). Corrections are the sessions'
ordinary hand edit and strike-out, with the organiser's credentials once a round closed."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request

from scorer.api.blueprint import bp
from scorer.api.schema import json_body
from scorer.api.tournaments import organiser, own, tournament_to_json
from scorer.services import director
from scorer.store.models import Organiser, TournamentAdjustment, TournamentLog


def stamp(moment: Any) -> str | None:
    return moment.isoformat() + "Z" if moment is not None else None


def adjustment_to_json(a: TournamentAdjustment) -> dict[str, Any]:
    return {
        "id": a.id,
        "player": a.player,
        "points": a.points,
        "reason": a.reason,
        "by": a.by,
        "at": stamp(a.at),
        "taken_back_at": stamp(a.taken_back_at),
    }


def log_line_to_json(line: TournamentLog) -> dict[str, Any]:
    return {"at": stamp(line.at), "by": line.by, "action": line.action, **line.data}


def correcting_organiser() -> Organiser | None:
    """Who corrects a hand: the organiser named by HTTP Basic credentials where the request
    sends them (wrong ones are refused, 401), else nobody but the table's key."""
    if "Authorization" not in request.headers:
        return None
    return organiser()


@bp.get("/tournaments/<n:tournament_id>/adjustments")
def list_adjustments(tournament_id: int):
    return jsonify([adjustment_to_json(a) for a in own(tournament_id).adjustments])


@bp.post("/tournaments/<n:tournament_id>/adjustments")
def add_adjustment(tournament_id: int):
    data = json_body()
    adjustment = director.adjust(
        own(tournament_id), data.get("player"), data.get("points"), data.get("reason")
    )
    return jsonify(adjustment_to_json(adjustment)), 201


@bp.delete("/tournaments/<n:tournament_id>/adjustments/<n:adjustment_id>")
def take_back_adjustment(tournament_id: int, adjustment_id: int):
    return jsonify(adjustment_to_json(director.take_back(own(tournament_id), adjustment_id)))


@bp.post("/tournaments/<n:tournament_id>/finish")
def finish(tournament_id: int):
    tournament = own(tournament_id)
    director.finish(tournament)
    return jsonify(tournament_to_json(tournament))


@bp.get("/tournaments/<n:tournament_id>/log")
def tournament_log(tournament_id: int):
    return jsonify([log_line_to_json(line) for line in director.log_of(own(tournament_id))])
