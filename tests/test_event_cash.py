"""The event's money through the API: fees ticked at the door, the pool, the prizes on the
standings (a tie on a paid place), the charity pot, the sum that always adds up, the
treasurer's sheet, and prizes that are final with the finish."""

from __future__ import annotations

import pytest

from scorer.domain.tournament import drawn_order
from tests.support.pdfs import pdf_text, until_printed
from tests.support.tournaments import API, created, draw, log_in, organiser


@pytest.fixture
def auth(app):
    return organiser(app)


def cash_of(client, auth, tid):
    answer = client.get(f"{API}/tournaments/{tid}/cash", headers=auth)
    assert answer.status_code == 200
    return answer.get_json()


def adjust(client, auth, tid, player, points):
    body = {"player": player, "points": points, "reason": "Wertung"}
    answer = client.post(f"{API}/tournaments/{tid}/adjustments", json=body, headers=auth)
    assert answer.status_code == 201, answer.get_json()


def assert_adds_up(cash):
    prizes = sum(p["cents"] for p in cash["prizes"])
    assert prizes + cash["remainder_cents"] + cash["charity_cents"] == cash["received_cents"]


def test_tied_places_share_their_prizes_and_the_odd_cent_goes_by_the_drawn_order(app, client, auth):
    names = ["Anna", "Bert", "Cilli", "Done", "Emil", "Fritz", "Gabi", "Hans"]
    t = created(
        client, auth, [], rounds=1, entry_fee_cents=1001, prizes={"percent": [40, 30, 20, 10]}
    )
    for name in names:
        client.post(f"{API}/tournaments/{t['id']}/players", json={"name": name}, headers=auth)
        body = {"paid": name != "Hans"}
        client.post(f"{API}/tournaments/{t['id']}/players/{name}/check-in", json=body, headers=auth)
    draw(client, auth, t["id"])
    # No hand played: the adjustments make the totals. Cilli and Bert tie on place 2.
    for name, points in [("Anna", 30), ("Cilli", 20), ("Bert", 20), ("Done", 10)]:
        adjust(client, auth, t["id"], name, points)
    cash = cash_of(client, auth, t["id"])
    assert cash["received_cents"] == 7 * 1001 and cash["unpaid"] == ["Hans"]
    assert cash["pool_cents"] == 7007
    # Place 1: 40 % of 7007 = 2802 (floor); places 2 and 3 (30 % + 20 % = 2102 + 1401 = 3503)
    # are shared by the two tied: 1751 each and one odd cent.
    first_of_the_tied = min(["Bert", "Cilli"], key=lambda n: drawn_order(t_seed(app, t), n))
    by_player = {p["player"]: p for p in cash["prizes"]}
    assert by_player["Anna"]["cents"] == 2802 and by_player["Anna"]["place"] == 1
    assert {by_player["Bert"]["place"], by_player["Cilli"]["place"]} == {2}
    assert by_player[first_of_the_tied]["cents"] == 1752
    other = "Cilli" if first_of_the_tied == "Bert" else "Bert"
    assert by_player[other]["cents"] == 1751
    assert by_player["Done"]["cents"] == 700 and by_player["Done"]["place"] == 4
    assert cash["remainder_cents"] == 7007 - 2802 - 3503 - 700
    assert_adds_up(cash)


def t_seed(app, t) -> int:
    from scorer.store.database import db
    from scorer.store.models import Tournament

    with app.app_context():
        return db.session.get(Tournament, t["id"]).seed


def test_the_charity_pot_stays_apart_and_the_sum_adds_up(client, auth):
    t = created(client, auth, [], entry_fee_cents=1500, pool_percent=80, prizes={"percent": [100]})
    for name in ["Anna", "Bert", "Cilli"]:
        client.post(f"{API}/tournaments/{t['id']}/players", json={"name": name}, headers=auth)
        client.post(
            f"{API}/tournaments/{t['id']}/players/{name}/check-in",
            json={"paid": True},
            headers=auth,
        )
    gift = client.post(
        f"{API}/tournaments/{t['id']}/charity", json={"giver": "Wirt", "cents": 5000}, headers=auth
    )
    assert gift.status_code == 201
    cash = gift.get_json()
    assert cash["received_cents"] == 4500 + 5000 and cash["charity_cents"] == 5000
    assert cash["pool_cents"] == 3600  # 80 % of the fees, never of the gifts
    assert cash["remainder_cents"] == 900
    assert_adds_up(cash)
    for body in (
        {"giver": "X", "cents": 0},
        {"giver": "X", "cents": True},
        {"giver": "", "cents": 5},
    ):
        refused = client.post(f"{API}/tournaments/{t['id']}/charity", json=body, headers=auth)
        assert refused.status_code == 422, body
    assert cash_of(client, auth, t["id"]) == cash


def test_a_fixed_pool_pays_its_prizes_whatever_the_fees(client, auth):
    t = created(
        client,
        auth,
        [],
        rounds=1,
        entry_fee_cents=500,
        pool_cents=10000,
        prizes={"cents": [6000, 4000]},
    )
    for name in ["Anna", "Bert", "Cilli"]:
        client.post(f"{API}/tournaments/{t['id']}/players", json={"name": name}, headers=auth)
        client.post(
            f"{API}/tournaments/{t['id']}/players/{name}/check-in",
            json={"paid": True},
            headers=auth,
        )
    draw(client, auth, t["id"])
    adjust(client, auth, t["id"], "Cilli", 5)
    adjust(client, auth, t["id"], "Anna", 3)
    cash = cash_of(client, auth, t["id"])
    assert cash["pool_cents"] == 10000 and cash["received_cents"] == 1500
    assert [(p["player"], p["cents"]) for p in cash["prizes"]] == [("Cilli", 6000), ("Anna", 4000)]
    assert cash["remainder_cents"] == 1500 - 10000  # the club adds what the fees do not cover
    assert_adds_up(cash)
    both = client.post(
        f"{API}/tournaments",
        json={
            "name": "T",
            "game": "haferltarock",
            "system": "parlett-units",
            "pool_cents": 100,
            "pool_percent": 50,
        },
        headers=auth,
    )
    assert both.status_code == 422


@pytest.mark.parametrize(
    "body",
    [
        {"entry_fee_cents": -1},
        {"entry_fee_cents": True},
        {"pool_percent": 101},
        {"prizes": {"percent": [60, 50]}},
        {"prizes": {"cents": [-5]}},
        {"prizes": "viel"},
        {"cap": 2},
    ],
)
def test_a_tournament_with_impossible_money_is_refused(client, auth, body):
    answer = client.post(
        f"{API}/tournaments",
        json={"name": "T", "game": "haferltarock", "system": "parlett-units", **body},
        headers=auth,
    )
    assert answer.status_code == 422, body
    assert client.get(f"{API}/tournaments", headers=auth).get_json() == []


def test_the_treasurers_sheet_lists_who_paid_the_prizes_and_the_signatures(app, client, auth):
    t = created(client, auth, [], rounds=1, entry_fee_cents=1500, prizes={"percent": [60, 40]})
    for name in ["Anna", "Bert", "Cilli", "Done"]:
        client.post(f"{API}/tournaments/{t['id']}/players", json={"name": name}, headers=auth)
        body = {"paid": name != "Done"}
        client.post(f"{API}/tournaments/{t['id']}/players/{name}/check-in", json=body, headers=auth)
    draw(client, auth, t["id"])
    adjust(client, auth, t["id"], "Cilli", 5)
    log_in(client)
    pdf = until_printed(client, f"/turniere/{t['id']}/kasse.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = pdf_text(pdf.data)
    assert "Kassenblatt" in text and "Nicht bezahlt: Done" in text
    assert "45,00" in text  # received: three fees of 15 €
    assert "27,00" in text  # Cilli's 60 % of the pool
    assert "Kassier" in text and "Turnierleitung" in text


def test_prizes_are_final_with_the_finish(client, auth):
    t = created(client, auth, [], rounds=1, entry_fee_cents=1000, prizes={"percent": [100]})
    for name in ["Anna", "Bert", "Cilli"]:
        client.post(f"{API}/tournaments/{t['id']}/players", json={"name": name}, headers=auth)
        client.post(
            f"{API}/tournaments/{t['id']}/players/{name}/check-in",
            json={"paid": True},
            headers=auth,
        )
    draw(client, auth, t["id"])
    adjust(client, auth, t["id"], "Bert", 3)
    assert cash_of(client, auth, t["id"])["final"] is False
    closed = client.post(f"{API}/tournaments/{t['id']}/rounds/1/close", json={}, headers=auth)
    assert closed.status_code == 200
    finished = client.post(f"{API}/tournaments/{t['id']}/finish", json={}, headers=auth)
    assert finished.status_code == 200
    cash = cash_of(client, auth, t["id"])
    assert cash["final"] is True and cash["prizes"] == [
        {"place": 1, "player": "Bert", "cents": 3000, "goods": []}
    ]
    late = client.post(
        f"{API}/tournaments/{t['id']}/players/Anna/check-in", json={"paid": False}, headers=auth
    )
    assert late.status_code == 409
    assert cash_of(client, auth, t["id"]) == cash
