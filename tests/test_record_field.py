"""The field of any real event: a tournament of 1,500 players is created, drawn (every
player at one table), played at a table, and its standings, round and tables pages carry
every name; one more player is refused in the organiser's words."""

from __future__ import annotations

import base64
import re

from scorer.domain.limits import MAX_TOURNAMENT_PLAYERS
from scorer.services.accounts import create_organiser
from scorer.store.database import db

API = "/api/v1"
FIELD = 1500


def organiser(app) -> dict[str, str]:
    with app.app_context():
        create_organiser(
            "Orga", "orga@example.org", "geheim123", hashing=app.config["PASSWORD_HASH"]
        )
        db.session.commit()
    token = base64.b64encode(b"orga@example.org:geheim123").decode()
    return {"Authorization": f"Basic {token}"}


def tournament(client, auth, players: list[str]):
    body = {
        "name": "Rekordturnier",
        "date": "2026-03-14",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 3,
        "deals_per_player": 1,
        "players": players,
    }
    return client.post(f"{API}/tournaments", json=body, headers=auth)


def test_a_field_of_1500_players_is_drawn_played_and_shown(app, client):
    assert MAX_TOURNAMENT_PLAYERS == FIELD
    auth = organiser(app)
    names = [f"Spielerin {i:04d}" for i in range(1, FIELD + 1)]
    too_many = tournament(client, auth, [*names, "Spieler 1501"])
    assert too_many.status_code == 422
    assert too_many.get_json()["error"]["fields"]["players"] == ["at most 1500 players"]
    made = tournament(client, auth, names)
    assert made.status_code == 201, made.get_json()
    tid, key = made.get_json()["id"], made.get_json()["key"]
    drawn = client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth)
    assert drawn.status_code == 201
    tables = drawn.get_json()["tables"]
    seated = [name for table in tables for name in table["players"]]
    assert sorted(seated) == names and len(tables) == FIELD // 4
    first = tables[0]
    table = client.get(f"{API}/sessions/{first['key']}").get_json()
    declarer = next(p for p in table["players"] if p != table["next_dealer"])
    hand = {"declarer": declarer, "contract": "frage", "points": 70}
    assert client.post(f"{API}/sessions/{first['key']}/hands", json=hand).status_code == 201
    standings = client.get(f"{API}/tournaments/{tid}/standings", headers=auth).get_json()
    assert len(standings) == FIELD and standings[0]["player"] == declarer
    page = client.get(f"/turnier/{key}/stand").get_data(as_text=True)
    assert all(name in page for name in names)
    signed_in = {"email": "orga@example.org", "password": "geheim123"}
    assert client.post("/veranstalter/anmelden", data=signed_in).status_code == 302
    listed = client.get(f"/turniere/{tid}/runde/1/tische").get_data(as_text=True)
    assert all(name in listed for name in names)
    codes = re.findall(r"<img [^>]*/qr\.svg[^>]*>", listed)  # fetched as they come into view
    assert len(codes) == FIELD // 4 and all('loading="lazy"' in code for code in codes)
