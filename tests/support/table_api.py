"""A table through the JSON API (the test client): a session made, read, a hand recorded,
corrected, struck out, and the API's errors."""

from __future__ import annotations

from typing import Any

from scorer.store.database import db

API = "/api/v1"
PLAYERS = ["Anton", "Berta", "Charlotte", "Dieter"]
A, B, C, D = PLAYERS


def session_body(**overrides: Any) -> dict[str, Any]:
    """A new session's body: four players at Haferltarock, Dieter deals first."""
    body: dict[str, Any] = {
        "name": "Stammtisch",
        "game": "haferltarock",
        "system": "parlett-units",
        "params": {},
        "players": list(PLAYERS),
        "first_dealer": D,
    }
    body.update(overrides)
    return body


def create(client, **overrides: Any) -> dict[str, Any]:
    """A session made (`session_body` with `overrides`); the API's answer."""
    response = client.post(f"{API}/sessions", json=session_body(**overrides))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def read(client, key: str) -> dict[str, Any]:
    response = client.get(f"{API}/sessions/{key}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def frage(declarer: str, points: int, **extra: Any) -> dict[str, Any]:
    return {"declarer": declarer, "contract": "frage", "points": points, **extra}


def hand_game(declarer: str, points: int, bid: int = 61, **extra: Any) -> dict[str, Any]:
    return {"declarer": declarer, "contract": "hand", "points": points, "bid": bid, **extra}


def record(client, key: str, hand: dict[str, Any], **headers: str) -> dict[str, Any]:
    """A hand recorded (201); the stored hand."""
    response = client.post(f"{API}/sessions/{key}/hands", json=hand, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def put(client, key: str, number: int, hand: dict[str, Any], version: Any):
    """Hand `number` corrected at `version`; the answer."""
    return client.put(f"{API}/sessions/{key}/hands/{number}", json={**hand, "version": version})


def delete(client, key: str, number: int, version: Any):
    """Hand `number` struck out at `version`; the answer."""
    return client.delete(f"{API}/sessions/{key}/hands/{number}?version={version}")


def assert_error(
    response, status: int, code: str | None = None, field: str | None = None, case: Any = None
):
    """The response is an API error with `status`, `code` and a message for `field`."""
    seen = (case, response.status_code, response.get_data(as_text=True)[:300])
    assert response.status_code == status, seen
    body = response.get_json()
    assert isinstance(body, dict) and "error" in body, seen
    assert isinstance(body["error"]["message"], str), seen
    if code is not None:
        assert body["error"]["code"] == code, seen
    if field is not None:
        assert field in body["error"].get("fields", {}), seen


def count_rows(app, model) -> int:
    """How many rows of `model` are stored."""
    with app.app_context():
        return db.session.query(model).count()
