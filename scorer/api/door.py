"""The event's door in the API (HTTP Basic as the organiser): registering players and
withdrawing them, checking them in at the desk (and undoing it before they are drawn),
opening the public registration, the charity pot and the treasurer's cash."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from scorer.api import answers, bodies
from scorer.api.blueprint import bp
from scorer.api.contract import WRITES, described, read_body
from scorer.api.tournaments import AS_ORGANISER, own
from scorer.domain import tournament_commands
from scorer.domain.prizes import Fee
from scorer.domain.tournament_commands import CheckIn
from scorer.services import cash, registration
from scorer.store.models import TournamentPlayer


def player_answer(player: TournamentPlayer) -> dict[str, Any]:
    return answers.NewPlayer(
        name=player.name,
        joined_round=player.joined_round,
        club=player.club,
        checked_in=player.checked_in,
        waiting=player.waiting,
        fee=player.fee,
    ).as_json()


@bp.post("/tournaments/<n:tournament_id>/players")
@described(
    "Register a player (before a later draw: a late entry); beyond the cap he waits",
    {201: ("The player", answers.NewPlayer)},
    body=bodies.Player,
    refusals=(*WRITES, *AS_ORGANISER, 409),
    basic=True,
)
def add_player(tournament_id: int):
    tournament = own(tournament_id)
    body = read_body(bodies.Player)
    player = registration.register(tournament, tournament_commands.register(body.name, body.club))
    return jsonify(player_answer(player)), 201


@bp.delete("/tournaments/<n:tournament_id>/players/<name>")
@described(
    "A withdrawal after the current round (one never drawn leaves the list)",
    {204: ("Withdrawn", None)},
    refusals=AS_ORGANISER,
    basic=True,
)
def withdraw_player(tournament_id: int, name: str):
    registration.withdraw(own(tournament_id), name)
    return "", 204


@bp.post("/tournaments/<n:tournament_id>/players/<name>/check-in")
@described(
    "Check a player in at the desk, with his entry fee paid, unpaid or waived",
    {200: ("The player", answers.NewPlayer)},
    body=bodies.CheckIn,
    refusals=(*WRITES, *AS_ORGANISER, 409),
    basic=True,
)
def check_in(tournament_id: int, name: str):
    tournament = own(tournament_id)
    body = read_body(bodies.CheckIn)
    fee: Fee = "waived" if body.waived else "paid" if body.paid else "unpaid"
    player = registration.check_in(tournament, CheckIn(name, fee))
    return jsonify(player_answer(player))


@bp.delete("/tournaments/<n:tournament_id>/players/<name>/check-in")
@described(
    "Undo a check-in before the player was drawn",
    {200: ("The player", answers.NewPlayer)},
    refusals=(*AS_ORGANISER, 409),
    basic=True,
)
def undo_check_in(tournament_id: int, name: str):
    player = registration.undo_check_in(own(tournament_id), name)
    return jsonify(player_answer(player))


@bp.post("/tournaments/<n:tournament_id>/registration")
@described(
    "Open or close the public registration page, with the cap",
    {204: ("Done", None)},
    body=bodies.Registration,
    refusals=(*WRITES, *AS_ORGANISER, 409),
    basic=True,
)
def set_registration(tournament_id: int):
    tournament = own(tournament_id)
    body = read_body(bodies.Registration)
    command = tournament_commands.set_registration(is_open=body.open, cap=body.cap)
    registration.set_registration(tournament, command)
    return "", 204


@bp.post("/tournaments/<n:tournament_id>/charity")
@described(
    "A gift to the charity pot",
    {201: ("The cash", answers.Cash)},
    body=bodies.Gift,
    refusals=(*WRITES, *AS_ORGANISER, 409),
    basic=True,
)
def give(tournament_id: int):
    tournament = own(tournament_id)
    body = read_body(bodies.Gift)
    command = tournament_commands.give_to_charity(body.giver, body.cents)
    registration.give_to_charity(tournament, command)
    return jsonify(cash_answer(cash.till(tournament))), 201


@bp.get("/tournaments/<n:tournament_id>/cash")
@described(
    "The treasurer's sum: fees received, unpaid, the pool, the prizes, the rest, charity",
    {200: ("The cash", answers.Cash)},
    refusals=AS_ORGANISER,
    basic=True,
)
def read_cash(tournament_id: int):
    return jsonify(cash_answer(cash.till(own(tournament_id))))


def cash_answer(till: cash.Till) -> dict[str, Any]:
    money = till.cash
    return answers.Cash(
        received_cents=money.received_cents,
        fees_cents=money.fees_cents,
        unpaid=till.unpaid,
        waived=till.waived,
        pool_cents=money.pool_cents,
        prizes=[
            answers.Prize(place=p.place, player=p.player, cents=p.cents, goods=list(p.goods))
            for p in money.prizes
        ],
        remainder_cents=money.remainder_cents,
        charity_cents=money.charity_cents,
        final=till.final,
    ).as_json()
