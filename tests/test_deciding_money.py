"""Tests that decide three money rules, each on a case where the wrong rule gives other cents:

- A season's Haferl shared by evenings attended: the odd cents go to the largest remainders
  (`season.share_out` through `groups.planned_shares`), here members listed last, not to
  the first members listed.
- A group that shares the Haferl by evenings attended (`share_by: "evenings"`): each
  player's share is in proportion to the evenings he sat at in the season being closed,
  not equal, not counting other seasons, nothing for a member who did not come.
- A tournament archive whose table carries rules of its own: on import the table is scored
  by the tournament's rules (`tournament_archives.import_tournament`), so the standings are
  those the tournament's rules give, whatever system or amounts the table's entry says.

Every expected amount is worked out by hand; the arithmetic is in a comment.
"""

from __future__ import annotations

import base64
import copy

import pytest

from scorer.services.accounts import create_organiser
from scorer.store.database import db

API = "/api/v1"


# --- helpers: a group through the API -------------------------------------------------------


def new_group(client, members: list[str], stake: int, share_by: str = "evenings") -> str:
    body = {
        "name": "Freitagsrunde",
        "game": "haferltarock",
        "system": "parlett-units",
        "params": {"stake_cents": stake},
        "members": members,
        "share_by": share_by,
    }
    response = client.post(f"{API}/groups", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["key"]


def evening_played(client, key: str, players: list[str]) -> dict:
    """An evening of `players` started and closed with no hand: it only takes (the first
    of a season: fills) the Haferl and gives it back, and counts as attended."""
    response = client.post(f"{API}/groups/{key}/evenings", json={"players": players})
    assert response.status_code == 201, response.get_json()
    session = response.get_json()
    assert client.post(f"{API}/sessions/{session['key']}/close").status_code == 200
    return session


def pot_of(client, key: str) -> int:
    response = client.get(f"{API}/groups/{key}")
    assert response.status_code == 200
    return response.get_json()["pot_cents"]


def season_closed(client, key: str) -> dict[str, int]:
    response = client.post(f"{API}/groups/{key}/season/close")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["shares"]


# --- 1. the odd cents go to the largest remainders ------------------------------------------


def test_odd_cents_go_to_the_largest_remainders_not_the_first_listed(client):
    members = ["Anton", "Berta", "Charlotte", "Dieter", "Emil"]
    key = new_group(client, members[:4], stake=25)
    # Evening 1: four stakes of 25 ct fill the Haferl with 100; evening 2 carries it on.
    evening_played(client, key, ["Anton", "Berta", "Charlotte", "Dieter"])
    evening_played(client, key, ["Charlotte", "Dieter", "Emil"])  # Emil joins as a member
    assert client.get(f"{API}/groups/{key}").get_json()["members"] == members
    assert pot_of(client, key) == 100

    shares = season_closed(client, key)
    # Evenings attended 1:1:2:2:1 (total 7). Anton, Berta, Emil: 100/7 = 14 r 2; Charlotte,
    # Dieter: 200/7 = 28 r 4. 14·3 + 28·2 = 98, 2 cents left → the largest remainders:
    # Charlotte and Dieter (4), listed third and fourth. Anton and Berta, listed first,
    # get none (in listing order they would have had 15 each, Charlotte and Dieter 28).
    assert shares == {"Anton": 14, "Berta": 14, "Charlotte": 29, "Dieter": 29, "Emil": 14}
    assert sum(shares.values()) == 100
    assert pot_of(client, key) == 0


# --- 2. the Haferl shared by evenings attended ----------------------------------------------


def test_the_haferl_is_shared_by_the_evenings_each_attended_this_season(client):
    key = new_group(client, ["Anton", "Berta", "Charlotte", "Dieter", "Emil"], stake=50)
    # Season 1: Dieter, Anton and Berta; the 150 ct of stakes shared 50 each.
    evening_played(client, key, ["Dieter", "Anton", "Berta"])
    assert season_closed(client, key) == {"Anton": 50, "Berta": 50, "Dieter": 50}

    # Season 2 starts afresh: four stakes of 50 ct, 200 in the Haferl, carried on after.
    evening_played(client, key, ["Anton", "Berta", "Charlotte", "Dieter"])
    evening_played(client, key, ["Anton", "Berta", "Charlotte"])
    assert pot_of(client, key) == 200

    shares = season_closed(client, key)
    # This season's evenings attended: Anton 2, Berta 2, Charlotte 2, Dieter 1 (total 7);
    # Emil, a member, came to none. 400/7 = 57 r 1 for each of the three, Dieter 200/7 =
    # 28 r 4: 57·3 + 28 = 199, the odd cent to Dieter's larger remainder.
    # Shared equally it would be 50 each; with season 1's evening counted too (Anton 3,
    # Berta 3, Charlotte 2, Dieter 2 of 10) 60, 60, 40, 40; with Emil in, a share for him.
    assert shares == {"Anton": 57, "Berta": 57, "Charlotte": 57, "Dieter": 29}
    assert sum(shares.values()) == 200
    assert pot_of(client, key) == 0

    standings = client.get(f"{API}/groups/{key}/standings?season=2").get_json()
    assert {line["player"]: line["net_cents"] for line in standings} == {
        # The stakes paid this season (50 each at the first evening) and the share back.
        "Anton": -50 + 57,
        "Berta": -50 + 57,
        "Charlotte": -50 + 57,
        "Dieter": -50 + 29,
    }


# --- 3. a tournament archive: the tournament's rules decide ---------------------------------


def organiser_auth(app) -> dict[str, str]:
    with app.app_context():
        create_organiser(
            "Orga", "orga@example.org", "geheim123", hashing=app.config["PASSWORD_HASH"]
        )
        db.session.commit()
    token = base64.b64encode(b"orga@example.org:geheim123").decode()
    return {"Authorization": f"Basic {token}"}


def tournament_played(client, auth) -> int:
    """A one-round tournament of three at one table, its three hands played (by the
    tournament's rules: parlett-units with a unit of one point)."""
    body = {
        "name": "Turnier",
        "date": "2026-03-14",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 1,
        "deals_per_player": 1,
        "players": ["Anton", "Berta", "Charlotte"],
    }
    response = client.post(f"{API}/tournaments", json=body, headers=auth)
    assert response.status_code == 201, response.get_json()
    tid = response.get_json()["id"]
    drawn = client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth)
    assert drawn.status_code == 201, drawn.get_json()
    table = drawn.get_json()["tables"][0]["key"]
    for hand in (
        {"declarer": "Anton", "contract": "frage", "points": 70},
        {"declarer": "Berta", "contract": "hand", "points": 80},
        {"declarer": "Charlotte", "contract": "frage", "points": 50},
    ):
        response = client.post(f"{API}/sessions/{table}/hands", json=hand)
        assert response.status_code == 201, response.get_json()
    return tid


def totals(client, auth, tid: int) -> dict[str, int]:
    response = client.get(f"{API}/tournaments/{tid}/standings", headers=auth)
    assert response.status_code == 200
    return {line["player"]: line["total"] for line in response.get_json()}


# Points by the tournament's rules (one unit = one point):
#   Anton's Frage won with 70: 1 + (70 − 61) // 5 = 2 units from the Haferl → Anton +2;
#   Berta's hand game won with 80 over 61: 2 + 2·3 = 8 from each defender → Berta +16,
#   Anton −8, Charlotte −8;
#   Charlotte's Frage lost with 50: 1 + (60 − 50) // 5 = 3 units to each defender, one
#   defender's from her, the other's from the Haferl → Anton +3, Berta +3, Charlotte −3.
# Anton 2 − 8 + 3 = −3, Berta 16 + 3 = 19, Charlotte −8 − 3 = −11. With the table's own
# unit of 10 every total would be ten times that.
BY_THE_TOURNAMENTS_RULES = {"Anton": -3, "Berta": 19, "Charlotte": -11}


@pytest.mark.parametrize(
    "own_rules",
    [
        {"params_changed": {"unit_cents": 10}},
        {"system": "levels", "params": {}},
    ],
    ids=["own-unit", "own-system"],
)
def test_a_tournament_tables_own_rules_in_an_archive_do_not_score_it(app, client, own_rules):
    auth = organiser_auth(app)
    tid = tournament_played(client, auth)
    assert totals(client, auth, tid) == BY_THE_TOURNAMENTS_RULES
    tournament = client.get(f"{API}/tournaments/{tid}", headers=auth).get_json()
    document = client.get(f"{API}/tournaments/{tid}/archive.json", headers=auth).get_json()

    spoiled = copy.deepcopy(document)
    table = spoiled["rounds"][0]["tables"][0]["table"]
    if "params_changed" in own_rules:
        table["params"] = {**table["params"], **own_rules["params_changed"]}
    else:
        table["system"], table["params"] = own_rules["system"], own_rules["params"]
    assert (table["system"], table["params"]) != (tournament["system"], tournament["params"])

    response = client.post(f"{API}/tournaments/import", json=spoiled, headers=auth)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()
    assert (made["system"], made["params"]) == (tournament["system"], tournament["params"])
    assert totals(client, auth, made["id"]) == BY_THE_TOURNAMENTS_RULES

    # The imported table itself plays by the tournament's rules, not by its entry's.
    round_one = client.get(f"{API}/tournaments/{made['id']}/rounds/1", headers=auth).get_json()
    key = round_one["tables"][0]["key"]
    export = client.get(f"{API}/sessions/{key}/export.json").get_json()
    assert (export["system"], export["params"]) == (tournament["system"], tournament["params"])
    assert {p: c for p, c in export["balances"].items() if p != "pot"} == (BY_THE_TOURNAMENTS_RULES)
