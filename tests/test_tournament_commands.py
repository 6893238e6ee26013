"""The command that makes a tournament (scorer.domain.tournament_commands): its builder
refuses every bad field at once and decides the door's check-in, and the API's body and
the organiser's form make the same tournament from the same choices."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from scorer.domain import RuleError, tournament_commands
from scorer.domain.limits import (
    MAX_CLUB_NAME,
    MAX_DEALS_PER_PLAYER,
    MAX_TOURNAMENT_NAME,
    MAX_TOURNAMENT_ROUNDS,
)
from scorer.domain.tournament_commands import Adjust, Door, GiveToCharity, Register, SwapPlayers
from scorer.store.database import db
from scorer.store.models import Tournament
from tests.conftest import DefaultFields
from tests.support.tournaments import API, create, created, draw, log_in, organiser

RULES = {"game": "haferltarock", "system": "parlett-units", "params": None}
DAY = date(2026, 12, 12)
FIVE = ["Anna", "Bert", "Cilli", "Done", "Emil"]


def made(**changes):
    return tournament_commands.new_tournament(
        **{"name": "Cup", "day": DAY, "players": FIVE, **RULES, **changes}
    )


def test_every_bad_field_is_refused_at_once():
    with pytest.raises(RuleError) as refused:
        made(name="  ", rounds=0, deals_per_player=99, tie_breaks=["wins", "wins"], players="Anna")
    said = {field: [m.english() for m in ms] for field, ms in refused.value.fields.items()}
    assert said == {
        "players": ["a tournament needs at least 3 players"],
        "name": [f"must have 1..{MAX_TOURNAMENT_NAME} characters"],
        "rounds": [f"must be a whole number 1..{MAX_TOURNAMENT_ROUNDS}"],
        "deals_per_player": [f"must be a whole number 1..{MAX_DEALS_PER_PLAYER}"],
        "tie_breaks": ["each tie-break may be chosen once"],
    }


def test_a_game_of_two_is_no_tournament():
    with pytest.raises(RuleError) as refused:
        made(game="strohmandeln", system="beck")
    assert list(refused.value.fields) == ["game"]


def test_the_door_checks_in_when_nobody_is_listed_unless_told():
    assert made().door.check_in is False
    assert made(players="").door.check_in is True
    assert made(players=" \n, ").players == ()
    assert made(door=Door(check_in=True)).door.check_in is True
    assert made(players=[], door=Door(check_in=False)).door.check_in is False


def test_a_pasted_list_is_folded_like_every_name():
    command = made(name="  Der   Cup ", players="Anna,  Bert \n\nCilli")
    assert command.name == "Der Cup" and command.players == ("Anna", "Bert", "Cilli")


def stored(app, tournament_id: int) -> tuple:
    with app.app_context():
        t = db.session.get(Tournament, tournament_id)
        row = (t.name, t.day, t.game, t.system, t.params, t.rounds, t.deals_per_player)
        row += (t.tie_breaks, t.check_in, t.entry_fee_cents, t.prize_plan)
        row += (tuple((p.name, p.checked_in) for p in t.players),)
        db.session.remove()
    return row


def test_the_form_and_the_api_make_the_same_tournament(app, client):
    auth = organiser(app)
    by_api = created(
        client,
        auth,
        "Anna\nBert, Cilli",
        name=" Der  Cup ",
        date="2026-12-12",
        rounds=2,
        entry_fee_cents=750,
        prizes={"percent": [50, 30, 20]},
    )
    app.config["WTF_CSRF_ENABLED"] = False
    log_in(client)
    page = client.get("/turniere/neu?game=haferltarock&system=parlett-units")
    parser = DefaultFields()
    parser.feed(page.get_data(as_text=True))
    form = {**parser.values, **RULES, "params": ""}
    form |= {"name": " Der  Cup ", "day": "2026-12-12", "rounds": "2", "deals": "1"}
    form |= {"players": "Anna\nBert, Cilli", "entry_fee": "7,50", "prizes": "50 30 20"}
    response = client.post("/turniere/neu", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    with app.app_context():
        by_form = db.session.scalar(select(Tournament.id).order_by(Tournament.id.desc()))
        db.session.remove()
    assert by_form != by_api["id"]
    assert stored(app, by_form) == stored(app, by_api["id"])
    assert stored(app, by_form)[0] == "Der Cup"


def test_tie_breaks_sent_as_null_are_refused_and_nothing_is_made(app, client):
    auth = organiser(app)
    refused = create(client, auth, FIVE, tie_breaks=None)
    assert refused.status_code == 422
    assert refused.get_json()["error"]["fields"] == {"tie_breaks": ["must be a list of tie-breaks"]}
    assert client.get(f"{API}/tournaments", headers=auth).get_json() == []


def fields_of(build) -> dict[str, list[str]]:
    with pytest.raises(RuleError) as refused:
        build()
    return {field: [m.english() for m in ms] for field, ms in refused.value.fields.items()}


def test_a_registration_folds_the_name_and_a_blank_club_is_none():
    assert tournament_commands.register("  Anna  Maria ", "  ") == Register("Anna Maria", None)
    assert tournament_commands.register("Bert", " TC  Au ") == Register("Bert", "TC Au")
    refused = fields_of(lambda: tournament_commands.register(" ", "x" * (MAX_CLUB_NAME + 1)))
    assert list(refused) == ["name", "club"]
    assert "name of the pot" in fields_of(lambda: tournament_commands.register("POT"))["name"][0]


def test_the_cap_the_gift_and_the_adjustment_say_every_bad_field_at_once():
    assert list(fields_of(lambda: tournament_commands.set_registration(is_open=True, cap=2))) == [
        "cap"
    ]
    assert tournament_commands.set_registration(is_open=False, cap=None).cap is None
    assert list(fields_of(lambda: tournament_commands.give_to_charity(" ", 0))) == [
        "giver",
        "cents",
    ]
    assert tournament_commands.give_to_charity(" Bank ", 500) == GiveToCharity("Bank", 500)
    refused = fields_of(lambda: tournament_commands.adjust("Zora", 0, reason=" ", players=FIVE))
    assert list(refused) == ["player", "points", "reason"]
    assert tournament_commands.adjust("Anna", -3, reason=" late ", players=FIVE) == Adjust(
        "Anna", -3, "late"
    )


def test_a_swap_of_one_player_with_himself_is_refused_by_the_builder():
    assert tournament_commands.swap_players("Anna", "Bert") == SwapPlayers("Anna", "Bert")
    refused = fields_of(lambda: tournament_commands.swap_players("Anna", "Anna"))
    assert refused == {"a": ["name two different seated players as 'a' and 'b'"]}


def test_the_page_says_so_when_a_player_is_swapped_with_himself(app, client):
    """The organiser's swap form used to do nothing, silently; it says what the API says."""
    auth = organiser(app)
    tournament = created(client, auth, FIVE[:4], rounds=2)
    draw(client, auth, tournament["id"])
    app.config["WTF_CSRF_ENABLED"] = False
    log_in(client)
    url = f"/turniere/{tournament['id']}/runde/1/tauschen"
    sent = client.post(url, data={"a": "Anna", "b": "Anna"}, headers={"Accept-Language": "en"})
    assert sent.status_code == 302
    page = client.get(sent.headers["Location"], headers={"Accept-Language": "en"})
    assert "two different seated players" in page.get_data(as_text=True).replace("&#39;", "'")
