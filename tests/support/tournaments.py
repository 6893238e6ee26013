"""A tournament through the API with HTTP Basic auth (the test client): an organiser, a
tournament created and drawn, its tables played with random valid hands, and the
organiser's login to the web pages."""

from __future__ import annotations

import base64
import random

from scorer.services.accounts import create_organiser

GAME, SYSTEM = "haferltarock", "parlett-units"
PASSWORD = "geheim123"
API = "/api/v1"


def basic(email: str, password: str = PASSWORD) -> dict[str, str]:
    """The HTTP Basic header of an account."""
    token = base64.b64encode(f"{email}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def organiser(app, email: str = "orga@example.org", name: str = "Orga") -> dict[str, str]:
    """An organiser account; returns the HTTP Basic header that authenticates as it."""
    with app.app_context():
        create_organiser(name, email, PASSWORD, hashing=app.config["PASSWORD_HASH"])
    return basic(email)


def create(client, auth, players, *, rounds=4, deals=1, name="Turnier", **extra):
    """A tournament asked for (`extra` on top of the body); the answer, whatever it is."""
    body = {
        "name": name,
        "date": "2026-03-14",
        "game": GAME,
        "system": SYSTEM,
        "rounds": rounds,
        "deals_per_player": deals,
        "players": players,
        **extra,
    }
    return client.post(f"{API}/tournaments", json=body, headers=auth)


def created(client, auth, players, **kwargs) -> dict:
    """A tournament made (`create`, 201); the API's answer."""
    response = create(client, auth, players, **kwargs)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def draw(client, auth, tid: int) -> dict:
    """The next round drawn; the round."""
    response = client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def read_round(client, auth, tid: int, number: int) -> dict:
    """Round `number` as the API gives it."""
    response = client.get(f"{API}/tournaments/{tid}/rounds/{number}", headers=auth)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def session_of(client, key: str) -> dict:
    """A table's session as the API gives it."""
    response = client.get(f"{API}/sessions/{key}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def active_players(session: dict) -> list[str]:
    """Who plays the next hand: at a table of four the dealer sits out."""
    players = session["players"]
    if len(players) == 4:
        return [p for p in players if p != session["next_dealer"]]
    return list(players)


def random_hand(rng: random.Random, active: list[str]) -> dict:
    """A random valid Frage or Hand of one of `active`."""
    hand = {
        "declarer": rng.choice(active),
        "contract": rng.choice(["frage", "hand"]),
        "points": rng.randint(0, 120),
    }
    if hand["contract"] == "hand" and rng.random() < 0.3:
        hand["bid"] = rng.choice(range(66, 117, 5))
    return hand


def post_hand(client, key: str, hand: dict):
    """A hand sent to a table; the answer, whatever it is."""
    return client.post(f"{API}/sessions/{key}/hands", json=hand)


def play_table(client, key: str, count: int, rng: random.Random, favour: str | None = None):
    """Record `count` random valid hands at a table, each for the dealer the session names;
    `favour` declares (and wins a Frage with 120) whenever he is active."""
    for _ in range(count):
        session = session_of(client, key)
        active = active_players(session)
        if favour in active:
            hand = {"declarer": favour, "contract": "frage", "points": 120}
        else:
            hand = random_hand(rng, active)
        response = post_hand(client, key, hand)
        assert response.status_code == 201, (hand, response.get_json())
        record = response.get_json()
        assert record["dealer"] == session["next_dealer"]
        if len(session["players"]) == 4:
            assert record["sitting_out"] == session["next_dealer"]


def play_round(client, round_: dict, rng: random.Random, favour: str | None = None) -> None:
    """Every table of the round played to its planned hands (`play_table`)."""
    for table in round_["tables"]:
        play_table(client, table["key"], table["hands_planned"] - table["hands"], rng, favour)


def log_in(client, email: str = "orga@example.org", password: str = PASSWORD):
    """The organiser's login form sent; the answer (302 when signed in)."""
    return client.post("/veranstalter/anmelden", data={"email": email, "password": password})
