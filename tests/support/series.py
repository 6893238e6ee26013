"""A cup through the API (the test client, HTTP Basic): a series, its tournaments made of
adjustments (no hand played) and finished, the public series table, a short season; and a
club's finished tournament of played rounds, for what is published of it."""

from __future__ import annotations

import random

from tests.support.tournaments import API, created, draw, play_round

CLUB = ["Anna", "Bert", "Cilli", "Done", "Ede", "Fritz"]
"""The players of `finished_tournament`."""


def new_series(client, auth, **body):
    """A series asked for (`body` on top of a cup of five scoring places); the answer."""
    sent = {"name": "Haferl-Cup 2027", "cup_points": [100, 90, 82, 76, 70], **body}
    return client.post(f"{API}/series", json=sent, headers=auth)


def tournament_in(client, auth, series_id, name, totals: dict[str, int], *, final=False):
    """A one-round tournament of the series, its totals made by adjustments (no hand
    played), closed and finished unless it is the final (then only drawn)."""
    body = {
        "name": name,
        "date": "2027-01-10",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 1,
        "deals_per_player": 1,
        "players": list(totals),
        "series": series_id,
        "final": final,
    }
    made = client.post(f"{API}/tournaments", json=body, headers=auth)
    assert made.status_code == 201, made.get_json()
    tid = made.get_json()["id"]
    assert client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth).status_code == 201
    for player, points in totals.items():
        if points:
            adjustment = {"player": player, "points": points, "reason": "Wertung"}
            answer = client.post(
                f"{API}/tournaments/{tid}/adjustments", json=adjustment, headers=auth
            )
            assert answer.status_code == 201
    if not final:
        finish(client, auth, tid)
    return tid


def finish(client, auth, tid):
    """The tournament's one round closed and the tournament finished."""
    assert (
        client.post(f"{API}/tournaments/{tid}/rounds/1/close", json={}, headers=auth).status_code
        == 200
    )
    assert client.post(f"{API}/tournaments/{tid}/finish", json={}, headers=auth).status_code == 200


def series_table(client, key):
    """The series' public table (its rows)."""
    answer = client.get(f"{API}/series/{key}/standings")
    assert answer.status_code == 200
    return answer.get_json()


def a_season(client, auth) -> dict:
    """A cup counting each player's best result, of two finished tournaments; the series."""
    cup = new_series(client, auth, best_of=1).get_json()
    tournament_in(client, auth, cup["id"], "Auftakt", {"Anna": 30, "Bert": 20, "Cilli": 10})
    tournament_in(client, auth, cup["id"], "Herbst", {"Bert": 30, "Cilli": 20, "Done": 5})
    return cup


def finished_tournament(client, auth, *, rounds=2, finish=True) -> int:
    """The `CLUB`'s tournament of `rounds` played rounds, finished unless `finish` is False."""
    tid = created(client, auth, CLUB, rounds=rounds)["id"]
    rng = random.Random(7)
    for _ in range(rounds):
        play_round(client, draw(client, auth, tid), rng)  # the last hand closes the round
    if finish:
        done = client.post(f"{API}/tournaments/{tid}/finish", json={}, headers=auth)
        assert done.status_code == 200, done.get_json()
    return tid
