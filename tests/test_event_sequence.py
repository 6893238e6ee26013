"""A whole event through the API, as an organiser's script would run it: made empty, 30
registered with clubs, 27 checked in (2 of them unpaid), round 1 drawn with club-mates
apart, played, round 2 seated by the standings, played, finished, and the cash. Each call's
status is checked; the sequence and the cash answer are written to
tests/artifacts/event-sequence.txt (the closing note quotes it)."""

from __future__ import annotations

import json
import random
from itertools import pairwise

from tests.support.browser import ARTIFACTS
from tests.support.tournaments import API, organiser, play_round

CLUBS = [
    "TC Au",
    "Tarockrunde Laim",
    "Stammtisch Giesing",
    "Haferlfreunde Hadern",
    "TSV Pasing",
    "Kartlerrunde Sendling",
    "Tarockclub Dachau",
]


def test_an_event_from_the_empty_tournament_to_the_cash(app, client):
    auth = organiser(app)
    lines: list[str] = []

    def call(method: str, path: str, body=None, expect: int = 200):
        answer = client.open(f"{API}{path}", method=method, json=body, headers=auth)
        shown = "" if body is None else " " + json.dumps(body, ensure_ascii=False)
        lines.append(f"{method} {path}{shown} → {answer.status_code}")
        assert answer.status_code == expect, (path, answer.get_json())
        return answer.get_json()

    t = call(
        "POST",
        "/tournaments",
        {
            "name": "Haferl-Cup",
            "date": "2026-12-12",
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": 2,
            "deals_per_player": 1,
            "players": [],
            "entry_fee_cents": 1500,
            "prizes": {"percent": [30, 25, 15, 10]},
        },
        201,
    )
    tid = t["id"]
    names = [f"Spieler {i:02d}" for i in range(1, 31)]
    for index, name in enumerate(names):
        call(
            "POST",
            f"/tournaments/{tid}/players",
            {"name": name, "club": CLUBS[index % len(CLUBS)]},
            201,
        )
    present = names[:27]
    for name in present:
        call(
            "POST",
            f"/tournaments/{tid}/players/{name}/check-in",
            {"paid": name not in names[25:27]},
        )
    round_1 = call("POST", f"/tournaments/{tid}/rounds", {"keep_apart": "club"}, 201)
    seated = [n for table in round_1["tables"] for n in table["players"]]
    assert sorted(seated) == sorted(present)  # the three no-shows are never seated
    clubs = {name: CLUBS[names.index(name) % len(CLUBS)] for name in names}
    for table in round_1["tables"]:
        assert len({clubs[n] for n in table["players"]}) == len(table["players"])
    assert round_1["clubs_together"] == []
    play_round(client, round_1, random.Random(3))
    lines.append(f"(round 1 played: {sum(t['hands_planned'] for t in round_1['tables'])} hands)")
    standings = call("GET", f"/tournaments/{tid}/standings")
    round_2 = call("POST", f"/tournaments/{tid}/rounds", {"seating": "standings"}, 201)
    order = [row["player"] for row in standings]
    poured = [n for table in round_2["tables"] for n in table["players"]]
    assert [order.index(n) for n in poured] == sorted(order.index(n) for n in poured)
    play_round(client, round_2, random.Random(4))
    lines.append(f"(round 2 played: {sum(t['hands_planned'] for t in round_2['tables'])} hands)")
    call("POST", f"/tournaments/{tid}/finish", {})
    cash = call("GET", f"/tournaments/{tid}/cash")
    assert cash["received_cents"] == 25 * 1500
    assert cash["unpaid"] == names[25:27] and cash["final"] is True
    paid = sum(p["cents"] for p in cash["prizes"])
    assert paid + cash["remainder_cents"] + cash["charity_cents"] == cash["received_cents"]
    final = call("GET", f"/tournaments/{tid}/standings")
    places = [row["place"] for row in final]
    assert all(a <= b for a, b in pairwise(places))
    lines.append("cash: " + json.dumps(cash, ensure_ascii=False, indent=1))
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "event-sequence.txt").write_text("\n".join(lines) + "\n")
