"""A Stammtisch group through the API (the test client): the group, an evening of its
members, hands played and the evening closed; and what the group's history holds."""

from __future__ import annotations

from sqlalchemy import func, select

from scorer.store.database import db
from scorer.store.models import Group, GroupEvent

API = "/api/v1"
FOUR = ["Anton", "Berta", "Charlotte", "Dieter"]
FRAGE_WON = {"contract": "frage", "points": 70}
FRAGE_LOST = {"contract": "frage", "points": 50}
BIG = {"contract": "frage", "points": 120}


def create_group(client, **extra) -> dict:
    """A group of FOUR at Haferltarock, 50 cents a stake; the API's answer."""
    body = {
        "name": "Freitagsrunde",
        "game": "haferltarock",
        "system": "parlett-units",
        "params": {"stake_cents": 50},
        "members": FOUR,
        **extra,
    }
    response = client.post(f"{API}/groups", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def evening(client, key: str, players, **extra) -> dict:
    """An evening of the group started with `players`; its session."""
    response = client.post(f"{API}/groups/{key}/evenings", json={"players": players, **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play(client, session: dict, hands: list[dict]) -> dict:
    """`hands` recorded at the evening (a hand without a declarer: the first who plays);
    the session after them."""
    key = session["key"]
    for hand in hands:
        state = client.get(f"{API}/sessions/{key}").get_json()
        declarer = hand.get("declarer") or next(
            p for p in state["players"] if p != state["sitting_out_next"]
        )
        response = client.post(f"{API}/sessions/{key}/hands", json={**hand, "declarer": declarer})
        assert response.status_code == 201, response.get_json()
    return client.get(f"{API}/sessions/{key}").get_json()


def close(client, session: dict) -> None:
    assert client.post(f"{API}/sessions/{session['key']}/close").status_code == 200


def paid_lines_and_version(app, key: str) -> tuple[int, int]:
    """How many "paid" lines the group's history holds, and the group's version."""
    with app.app_context():
        found = db.session.scalar(select(Group).where(Group.key == key))
        lines = db.session.scalar(
            select(func.count())
            .select_from(GroupEvent)
            .where(GroupEvent.group_id == found.id, GroupEvent.action == "paid")
        )
        return lines, found.version
