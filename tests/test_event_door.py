"""The event's door through the API: a tournament made with no players, registration with a
cap and a waiting list, check-in at the desk and by phone, late check-ins, no-shows, the
log, and the refusals (each changes nothing)."""

from __future__ import annotations

import random
import re

import pytest

from scorer.services import tournaments as ops
from scorer.store.database import db
from scorer.store.models import Tournament
from tests.conftest import DefaultFields
from tests.support.tournaments import API, created, draw, log_in, organiser, play_round


@pytest.fixture
def auth(app):
    return organiser(app)


def register(client, auth, tid, name, club=None):
    body = {"name": name} if club is None else {"name": name, "club": club}
    return client.post(f"{API}/tournaments/{tid}/players", json=body, headers=auth)


def check_in(client, auth, tid, name, **body):
    return client.post(f"{API}/tournaments/{tid}/players/{name}/check-in", json=body, headers=auth)


def tournament_json(client, auth, tid):
    return client.get(f"{API}/tournaments/{tid}", headers=auth).get_json()


def test_a_tournament_made_with_no_players_has_a_desk_and_draws_only_who_checked_in(client, auth):
    t = created(client, auth, [], rounds=2)
    assert t["check_in"] is True and t["players"] == []
    for name in ["Anna", "Bert", "Cilli", "Done", "Emil"]:
        assert register(client, auth, t["id"], name).status_code == 201
    for name in ["Anna", "Bert", "Cilli", "Done"]:
        assert check_in(client, auth, t["id"], name).status_code == 200
    round_ = draw(client, auth, t["id"])
    seated = {name for table in round_["tables"] for name in table["players"]}
    assert seated == {"Anna", "Bert", "Cilli", "Done"}  # Emil never came: never seated
    standings = client.get(f"{API}/tournaments/{t['id']}/standings", headers=auth).get_json()
    assert "Emil" not in {row["player"] for row in standings}


def test_a_player_checked_in_after_round_one_is_drawn_from_round_two_only(app, client, auth):
    t = created(client, auth, [], rounds=3, missed_round_points=-10)
    for name in ["Anna", "Bert", "Cilli", "Done", "Emil"]:
        register(client, auth, t["id"], name)
    for name in ["Anna", "Bert", "Cilli", "Done"]:
        check_in(client, auth, t["id"], name)
    round_1 = draw(client, auth, t["id"])
    answer = check_in(client, auth, t["id"], "Emil", paid=True)
    assert answer.status_code == 200 and answer.get_json()["joined_round"] == 2
    assert "Emil" not in {n for table in round_1["tables"] for n in table["players"]}
    play_round(client, round_1, random.Random(1))
    round_2 = draw(client, auth, t["id"])
    assert "Emil" in {n for table in round_2["tables"] for n in table["players"]} | set(
        round_2["byes"]
    )
    rows = client.get(f"{API}/tournaments/{t['id']}/standings", headers=auth).get_json()
    emil = next(row for row in rows if row["player"] == "Emil")
    assert emil["adjustment"] == -10  # the missed round, as the tournament set it
    # Undoing a check-in is refused once the player has been drawn.
    assert (
        client.delete(
            f"{API}/tournaments/{t['id']}/players/Emil/check-in", headers=auth
        ).status_code
        == 409
    )


def test_registration_beyond_the_cap_waits_and_moves_up_when_a_place_comes_free(client, auth):
    t = created(client, auth, [], cap=3)
    names = ["A1", "B2", "C3", "D4", "E5", "F6"]
    answers = [register(client, auth, t["id"], n).get_json() for n in names]
    assert [a["waiting"] for a in answers] == [False, False, False, True, True, True]
    assert client.delete(f"{API}/tournaments/{t['id']}/players/B2", headers=auth).status_code == 204
    players = {p["name"]: p for p in tournament_json(client, auth, t["id"])["players"]}
    assert "B2" not in players
    assert players["D4"]["waiting"] is False and players["E5"]["waiting"] is True  # first come
    # At the door the desk seats a waiting player while fewer than the cap are checked in
    # (a no-show's place); a registered player keeps his place whatever the count.
    for name in ["A1", "C3"]:
        assert check_in(client, auth, t["id"], name).status_code == 200
    assert check_in(client, auth, t["id"], "E5").status_code == 200  # 2 of 3 were in
    assert check_in(client, auth, t["id"], "F6").status_code == 409  # 3 of 3 are in
    assert check_in(client, auth, t["id"], "D4").status_code == 200
    players = {p["name"]: p for p in tournament_json(client, auth, t["id"])["players"]}
    assert players["F6"]["waiting"] and not players["F6"]["checked_in"]
    assert not players["E5"]["waiting"] and players["E5"]["checked_in"]


def test_look_alike_names_are_one_name_and_refusals_change_nothing(app, client, auth):
    t = created(client, auth, [])
    assert register(client, auth, t["id"], "Müller Sepp", "TC Au").status_code == 201
    before = tournament_json(client, auth, t["id"])
    for body in (
        {"name": "müller  sepp"},
        {"name": ""},
        {"name": "X", "club": 7},
        {"name": "Y", "club": "c" * 61},
        {"name": "Pot"},
    ):
        answer = client.post(f"{API}/tournaments/{t['id']}/players", json=body, headers=auth)
        assert answer.status_code == 422, body
    assert check_in(client, auth, t["id"], "Müller Sepp", paid="yes").status_code == 422
    assert check_in(client, auth, t["id"], "Nobody").status_code == 404
    after = tournament_json(client, auth, t["id"])
    assert after["players"] == before["players"]
    with app.app_context():
        log = [line.action for line in ops.director.log_of(db.session.get(Tournament, t["id"]))]
    assert log == ["enter"]


def test_check_in_fees_are_ticked_and_the_log_keeps_each(app, client, auth):
    t = created(client, auth, [], entry_fee_cents=1500)
    for name in ["Anna", "Bert", "Cilli"]:
        register(client, auth, t["id"], name)
    assert check_in(client, auth, t["id"], "Anna", paid=True).get_json()["fee"] == "paid"
    assert check_in(client, auth, t["id"], "Bert").get_json()["fee"] == "unpaid"
    assert check_in(client, auth, t["id"], "Cilli", waived=True).get_json()["fee"] == "waived"
    cash = client.get(f"{API}/tournaments/{t['id']}/cash", headers=auth).get_json()
    assert cash["received_cents"] == 1500 and cash["unpaid"] == ["Bert"]
    assert cash["waived"] == ["Cilli"]
    undone = client.delete(f"{API}/tournaments/{t['id']}/players/Anna/check-in", headers=auth)
    assert undone.status_code == 200 and undone.get_json()["checked_in"] is False
    cash = client.get(f"{API}/tournaments/{t['id']}/cash", headers=auth).get_json()
    assert cash["received_cents"] == 0  # her money went back with the undo
    with app.app_context():
        log = [line.action for line in ops.director.log_of(db.session.get(Tournament, t["id"]))]
    assert log == ["enter"] * 3 + ["check_in"] * 3 + ["check_out"]


def test_a_player_checks_himself_in_on_his_phone_with_the_desks_code(app, client, auth):
    app.config["WTF_CSRF_ENABLED"] = False
    t = created(client, auth, [])
    register(client, auth, t["id"], "Anna Huber")
    with app.app_context():
        code = db.session.get(Tournament, t["id"]).desk_code
    url = f"/turnier/{t['key']}/da"
    wrong = "0000" if code != "0000" else "1111"
    refused = client.post(url, data={"name": "Anna Huber", "code": wrong})
    assert refused.status_code == 422 and "Code" in refused.get_data(as_text=True)
    unknown = client.post(url, data={"name": "Niemand", "code": code})
    assert unknown.status_code == 404
    assert not tournament_json(client, auth, t["id"])["players"][0]["checked_in"]
    done = client.post(url, data={"name": "anna  huber", "code": code})
    assert done.status_code == 200 and "Anna Huber" in done.get_data(as_text=True)
    player = tournament_json(client, auth, t["id"])["players"][0]
    assert player["checked_in"] and player["fee"] == "unpaid"
    with app.app_context():
        line = ops.director.log_of(db.session.get(Tournament, t["id"]))[-1]
    assert (line.action, line.by) == ("check_in", "player")


def test_players_sign_themselves_up_only_while_registration_is_open(app, client, auth):
    app.config["WTF_CSRF_ENABLED"] = False
    t = created(client, auth, [])
    url = f"/turnier/{t['key']}/anmelden"
    assert "geschlossen" in client.get(url).get_data(as_text=True)
    assert client.post(url, data={"name": "Anna"}).status_code == 409
    opened = client.post(
        f"{API}/tournaments/{t['id']}/registration", json={"open": True, "cap": 3}, headers=auth
    )
    assert opened.status_code == 204
    for name in ["Anna", "Bert", "Cilli"]:
        assert client.post(url, data={"name": name, "club": "TC Au"}).status_code == 200
    waiting = client.post(url, data={"name": "Done"})
    assert waiting.status_code == 200 and "Warteliste" in waiting.get_data(as_text=True)
    again = client.post(url, data={"name": "anna"})
    assert again.status_code == 422
    players = tournament_json(client, auth, t["id"])["players"]
    assert [(p["name"], p["club"], p["waiting"]) for p in players] == [
        ("Anna", "TC Au", False),
        ("Bert", "TC Au", False),
        ("Cilli", "TC Au", False),
        ("Done", None, True),
    ]


def test_a_tournament_made_with_its_players_has_them_all_present_as_before(client, auth):
    t = created(client, auth, ["A", "B", "C", "D"])
    assert t["check_in"] is False
    assert all(p["checked_in"] for p in t["players"])
    late = register(client, auth, t["id"], "E").get_json()
    assert late["checked_in"] is True


def test_a_list_with_a_desk_is_the_registrations_and_nobody_is_present_yet(client, auth):
    """The registrations brought along (`"check_in": true` with the list): the desk checks
    them in as they come, and only who came is drawn."""
    t = created(client, auth, ["Anna", "Bert", "Cilli", "Done", "Emil"], check_in=True)
    assert t["check_in"] is True
    assert [p["checked_in"] for p in t["players"]] == [False] * 5
    for name in ["Anna", "Bert", "Cilli", "Done"]:
        assert check_in(client, auth, t["id"], name).status_code == 200
    seated = {n for table in draw(client, auth, t["id"])["tables"] for n in table["players"]}
    assert seated == {"Anna", "Bert", "Cilli", "Done"}


# --- the pages ---------------------------------------------------------------------------


def new_event_by_form(client, fee: str, prizes: str):
    page = client.get("/turniere/neu?game=haferltarock&system=parlett-units")
    parser = DefaultFields()
    parser.feed(page.get_data(as_text=True))
    data = {
        **parser.values,
        "game": "haferltarock",
        "system": "parlett-units",
        "name": "Cup",
        "day": "2026-12-12",
        "rounds": "2",
        "deals": "1",
        "players": "",
        "entry_fee": fee,
        "prizes": prizes,
    }
    return client.post("/turniere/neu", data=data)


def test_the_new_tournament_form_takes_no_players_a_fee_in_euros_and_prizes(app, client, auth):
    app.config["WTF_CSRF_ENABLED"] = False
    log_in(client)
    for fee, prizes in (("15,5", "60 60"), ("1,234", "30"), ("zehn", ""), ("10", "viel")):
        refused = new_event_by_form(client, fee, prizes)
        assert refused.status_code == 422, (fee, prizes)
    assert client.get(f"{API}/tournaments", headers=auth).get_json() == []
    made = new_event_by_form(client, "7,50 €", "50 30 20")
    assert made.status_code == 302
    t = client.get(f"{API}/tournaments", headers=auth).get_json()[0]
    assert t["check_in"] and t["entry_fee_cents"] == 750 and t["players"] == []
    assert t["prize_plan"]["prizes"] == {"percent": [50, 30, 20]}


def test_the_desks_taps_check_in_tick_the_fee_and_undo(app, client, auth):
    app.config["WTF_CSRF_ENABLED"] = False
    t = created(client, auth, [], entry_fee_cents=1000)
    for name in ["Anna", "Bert"]:
        register(client, auth, t["id"], name)
    log_in(client)
    page = client.get(f"/turniere/{t['id']}/einlass").get_data(as_text=True)
    assert "0 von 2 da" in page and "Da, 10,00 € bezahlt" in page
    with app.app_context():
        ids = {p.name: p.id for p in db.session.get(Tournament, t["id"]).players}
    tap = f"/turniere/{t['id']}/einlass"
    assert client.post(f"{tap}/{ids['Anna']}", data={"action": "unpaid"}).status_code == 302
    assert client.post(f"{tap}/{ids['Anna']}", data={"action": "waived"}).status_code == 302
    assert client.post(f"{tap}/{ids['Bert']}", data={"action": "paid"}).status_code == 302
    assert client.post(f"{tap}/{ids['Bert']}", data={"action": "steal"}).status_code == 400
    assert client.post(f"{tap}/99999", data={"action": "paid"}).status_code == 404
    players = {p["name"]: p for p in tournament_json(client, auth, t["id"])["players"]}
    assert players["Anna"]["fee"] == "waived" and players["Bert"]["fee"] == "paid"
    page = client.get(tap).get_data(as_text=True)
    assert "2 von 2 da" in page and "1 bezahlt" in page
    assert client.post(f"{tap}/{ids['Bert']}", data={"action": "undo"}).status_code == 302
    assert not tournament_json(client, auth, t["id"])["players"][1]["checked_in"]
    desk = client.post(f"{tap}/neu", data={"name": "Cilli", "club": "TC Au"})
    assert desk.status_code == 302
    cilli = tournament_json(client, auth, t["id"])["players"][2]
    assert (cilli["name"], cilli["club"], cilli["checked_in"]) == ("Cilli", "TC Au", True)
    assert client.post(f"{tap}/neu", data={"name": "cilli"}).status_code == 302
    assert len(tournament_json(client, auth, t["id"])["players"]) == 3  # a look-alike: refused


def test_the_desk_offers_the_names_of_earlier_tournaments_as_letters_are_typed(app, client, auth):
    created(client, auth, ["Josef Huber", "Anna Bauer", "Bert Maier"])
    t = created(client, auth, [])
    register(client, auth, t["id"], "Anna Bauer")
    log_in(client)
    page = client.get(f"/turniere/{t['id']}/einlass").get_data(as_text=True)
    offered = re.findall(r'<option value="([^"]+)">', page.split('id="known-players"')[1])
    assert offered == ["Bert Maier", "Josef Huber"]  # Anna is registered already


def test_a_late_entry_at_the_desk_without_a_name_is_said_so_and_nobody_is_registered(
    app, client, auth
):
    """The desk's form sent without a name (a browser that ignores `required`): the bar
    says the name is missing, in the reader's words; no 500, nobody new."""
    t = created(client, auth, [], entry_fee_cents=1000)
    app.config["WTF_CSRF_ENABLED"] = False
    log_in(client)
    sent = client.post(f"/turniere/{t['id']}/einlass/neu", data={"name": "", "club": ""})
    assert sent.status_code == 302
    page = client.get(sent.headers["Location"]).get_data(as_text=True)
    assert "Name fehlt" in page, page[:3000]
    assert tournament_json(client, auth, t["id"])["players"] == []
