"""Tournaments end to end (RULES.md §5): the JSON API with HTTP Basic auth, the organiser's
web pages, the public live standings, the `flask scorer create-organiser` command and the
rate limit on the login.

The headline test plays a 40-player, 4-round tournament through the API, hand by hand
through the table session API, and checks the standings against a recomputation made here
from the recorded hands with the domain's `tournament_score` and a tie-break of our own.
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from itertools import combinations

import pytest
import sqlalchemy as sa

from scorer.domain import Hand
from scorer.domain.tournament import UNIT_PARAMS, tournament_rules
from scorer.extensions import limiter
from scorer.store.database import db
from scorer.store.models import Tournament
from tests.conftest import SETUP_CODE, DefaultFields, dispose, make_app
from tests.support.pdfs import pdf_text
from tests.support.tournaments import (
    API,
    GAME,
    PASSWORD,
    SYSTEM,
    active_players,
    basic,
    create,
    created,
    draw,
    log_in,
    organiser,
    play_round,
    play_table,
    post_hand,
    read_round,
    session_of,
)

# --- helpers --------------------------------------------------------------------------------


def pairs_met(rounds: list[list[list[str]]]) -> int:
    """Repeat meetings: each pair at a table counts once for every earlier round in which the
    same two already shared a table."""
    seen: Counter[frozenset[str]] = Counter()
    total = 0
    for tables in rounds:
        pairs = [frozenset(p) for table in tables for p in combinations(table, 2)]
        total += sum(seen[p] for p in pairs)
        seen.update(pairs)
    return total


def plain_draw(players: list[str], sizes: list[int], rng: random.Random) -> list[list[str]]:
    """Shuffle and cut: the draw a bowl of paper slips would give."""
    order = list(players)
    rng.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def tournament_score(rules, players_at_table, hand: Hand) -> dict[str, int]:
    """The points each player at the table makes with `hand`, worked out here without the
    ledger: scored with no pot cap, the pot's side dropped, counted in the system's units
    (at a table of four the dealer sits out with 0)."""
    table = list(players_at_table)
    active = [name for name in table if name != hand.dealer] if len(table) == 4 else table
    net = rules.score(active, hand, pot_cents=None).net(table)
    unit = next((rules.params[p] for p in UNIT_PARAMS if p in rules.params), 1)
    assert all(net[name] % unit == 0 for name in table)
    return {name: net[name] // unit for name in table}


def recompute_standings(client, tournament: dict, rounds: list[dict], params: dict) -> dict:
    """The standings computed here from every recorded hand: the table sessions' hands scored
    with `tournament_score`, wins as declarer counted from the card points (tie: a loss), and
    ranked by total, wins as declarer, the last round played, then a shared place."""
    rules = tournament_rules(tournament["game"], tournament["system"], params)
    names = [p["name"] for p in tournament["players"]]
    per_round = {name: [0] * tournament["rounds"] for name in names}
    wins = dict.fromkeys(names, 0)
    last_played = 0
    for round_ in rounds:
        number = round_["number"]
        for table in round_["tables"]:
            session = session_of(client, table["key"])
            for entry in session["hands"]:
                hand = Hand.from_json(entry["hand"], dealer=entry["dealer"])
                points = tournament_score(rules, session["players"], hand)
                for name, value in points.items():
                    per_round[name][number - 1] += value
                if hand.points >= hand.bid:
                    wins[hand.declarer] += 1
                last_played = max(last_played, number)

    def key(name: str) -> tuple[int, int, int]:
        last = per_round[name][last_played - 1] if last_played else 0
        return (-sum(per_round[name]), -wins[name], -last)

    ordered = sorted(names, key=lambda n: (key(n), n.casefold()))
    result: dict[str, dict] = {}
    previous = None
    for position, name in enumerate(ordered, start=1):
        place = result[previous]["place"] if previous and key(previous) == key(name) else position
        result[name] = {
            "place": place,
            "total": sum(per_round[name]),
            "per_round": per_round[name],
            "wins_as_declarer": wins[name],
        }
        previous = name
    return result


# --- the headline: 40 players, 4 rounds, every hand through the API -------------------------


def test_forty_players_four_rounds_end_to_end(app, client):
    auth = organiser(app)
    rng = random.Random(20260314)
    names = [f"Spieler {i:02d}" for i in range(1, 41)]
    params: dict = {}
    tournament = created(client, auth, names, rounds=4, deals=1, params=params)
    tid = tournament["id"]
    assert [p["name"] for p in tournament["players"]] == names
    assert tournament["deals_per_player"] == 1

    drawn: list[dict] = []
    for number in range(1, 5):
        round_ = draw(client, auth, tid)
        assert round_["number"] == number
        assert not round_["closed"]
        assert round_["byes"] == []
        seated = [name for table in round_["tables"] for name in table["players"]]
        assert sorted(seated) == sorted(names), "everyone seated exactly once"
        assert all(len(t["players"]) in (3, 4) for t in round_["tables"])
        for table in round_["tables"]:
            assert table["hands_planned"] == len(table["players"]) * 1
            assert table["hands"] == 0
            assert not table["done"]

        # Drawing again while this round is open is a conflict.
        assert (
            client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth).status_code == 409
        )

        *first_tables, last_table = round_["tables"]
        for table in first_tables:
            play_table(client, table["key"], table["hands_planned"], rng)
        play_table(client, last_table["key"], last_table["hands_planned"] - 1, rng)
        assert not read_round(client, auth, tid, number)["closed"]
        play_table(client, last_table["key"], 1, rng)

        after = read_round(client, auth, tid, number)
        assert after["closed"], "the round closes by itself when every table is done"
        assert all(t["done"] and t["hands"] == t["hands_planned"] for t in after["tables"])
        for table in after["tables"]:
            assert session_of(client, table["key"])["closed"]
        extra = post_hand(
            client,
            last_table["key"],
            {"declarer": last_table["players"][1], "contract": "frage", "points": 70},
        )
        assert extra.status_code == 409
        assert extra.get_json()["error"]["code"] == "conflict"
        drawn.append(after)

    # Every round has been drawn.
    assert client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth).status_code == 409

    # The standings against a recomputation from the recorded hands.
    response = client.get(f"{API}/tournaments/{tid}/standings", headers=auth)
    assert response.status_code == 200
    standings = response.get_json()
    expected = recompute_standings(client, tournament, drawn, params)
    assert sorted(s["player"] for s in standings) == sorted(names)
    got = {
        s["player"]: {
            "place": s["place"],
            "total": s["total"],
            "per_round": s["per_round"],
            "wins_as_declarer": s["wins_as_declarer"],
        }
        for s in standings
    }
    assert got == expected
    assert [s["place"] for s in standings] == sorted(s["place"] for s in standings)
    assert all(s["last_round"] == s["per_round"][-1] for s in standings)
    assert sum(s["wins_as_declarer"] for s in standings) > 0
    assert len({s["total"] for s in standings}) > 5, "the random hands spread the field"

    # Fewer repeat meetings than a bowl of paper slips typically gives.
    rounds_tables = [[t["players"] for t in r["tables"]] for r in drawn]
    sizes = [len(t) for t in rounds_tables[0]]
    sim = random.Random(7)
    plain = [pairs_met([plain_draw(names, sizes, sim) for _ in range(4)]) for _ in range(300)]
    average = sum(plain) / len(plain)
    assert pairs_met(rounds_tables) < average / 2, (pairs_met(rounds_tables), average)


# --- API: authentication and ownership ------------------------------------------------------


def test_api_needs_http_basic_auth_of_an_organiser(app, client):
    organiser(app)
    for path in (f"{API}/tournaments", f"{API}/tournaments/1", f"{API}/tournaments/1/standings"):
        response = client.get(path)
        assert response.status_code == 401
        assert response.get_json()["error"]["code"] == "unauthorized"
    assert (
        client.get(f"{API}/tournaments", headers=basic("orga@example.org", "falsch")).status_code
        == 401
    )
    assert client.get(f"{API}/tournaments", headers=basic("niemand@example.org")).status_code == 401
    assert create(client, {}, ["A", "B", "C"]).status_code == 401
    assert create(client, basic("orga@example.org", "falsch"), ["A", "B", "C"]).status_code == 401
    assert client.get(f"{API}/tournaments", headers=basic("orga@example.org")).status_code == 200
    # HTTP Basic leaves no login behind in the cookie jar.
    assert client.get(f"{API}/tournaments").status_code == 401


def test_api_works_with_csrf_protection_on(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    try:
        auth = organiser(app)
        client = app.test_client()
        tournament = created(client, auth, ["A", "B", "C"], params={"unit_cents": 50})
        assert tournament["params"]["unit_cents"] == 1
        (table,) = draw(client, auth, tournament["id"])["tables"]
        hand = {"declarer": "A", "contract": "frage", "points": 61}
        assert post_hand(client, table["key"], hand).status_code == 201
        # The web form without its token is refused.
        assert client.post("/veranstalter/anmelden", data={"email": "x"}).status_code == 400
    finally:
        dispose(app)


def test_an_organiser_sees_only_their_own_tournaments(app, client):
    first = organiser(app, "erste@example.org", "Erste")
    second = organiser(app, "zweite@example.org", "Zweite")
    tid = created(client, first, ["A", "B", "C", "D"])["id"]
    assert [t["id"] for t in client.get(f"{API}/tournaments", headers=first).get_json()] == [tid]
    assert client.get(f"{API}/tournaments", headers=second).get_json() == []
    for method, path in (
        ("get", f"{API}/tournaments/{tid}"),
        ("get", f"{API}/tournaments/{tid}/standings"),
        ("post", f"{API}/tournaments/{tid}/rounds"),
        ("delete", f"{API}/tournaments/{tid}/players/A"),
    ):
        body = {"json": {}} if method == "post" else {}
        response = getattr(client, method)(path, headers=second, **body)
        assert response.status_code == 404, (method, path)
        assert response.get_json()["error"]["code"] == "not_found"
    response = client.post(f"{API}/tournaments/{tid}/players", json={"name": "E"}, headers=second)
    assert response.status_code == 404
    # Nothing was changed by the second organiser.
    data = client.get(f"{API}/tournaments/{tid}", headers=first).get_json()
    assert [p["name"] for p in data["players"]] == ["A", "B", "C", "D"]
    assert data["rounds_drawn"] == []


def test_public_standings_by_key_need_no_auth(app, client):
    auth = organiser(app)
    tournament = created(client, auth, ["A", "B", "C"])
    response = client.get(f"{API}/standings/{tournament['key']}")
    assert response.status_code == 200, response.get_json()
    assert sorted(s["player"] for s in response.get_json()) == ["A", "B", "C"]


def test_public_standings_of_an_unknown_key_are_404(app, client):
    response = client.get(f"{API}/standings/no-such-key-0123456789abcdef")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


# --- API: validation and conflicts ----------------------------------------------------------


BAD_CREATES = [
    ({"players": ["A", "B"]}, "players"),
    ({"players": ["A", "B", "a"]}, "players"),
    ({"players": "Anton\nBerta\n\nAnton\nCharlotte"}, "players"),
    ({"players": [1, 2, 3]}, "players"),
    ({"game": "schafkopf"}, "game"),
    ({"system": "euro-pro-spiel"}, "system"),
    ({"game": "strohmandeln", "system": "beck"}, "game"),
    ({"rounds": 0}, "rounds"),
    ({"rounds": 99}, "rounds"),
    ({"rounds": "4"}, "rounds"),
    ({"deals_per_player": 0}, "deals_per_player"),
    ({"name": ""}, "name"),
    ({"date": "14.03.2026"}, "date"),
    ({"params": {"nonsense": 1}}, "params.nonsense"),
    ({"params": {"tie": "maybe"}}, "params.tie"),
]


def test_create_rejects_bad_requests_with_field_messages(app, client):
    auth = organiser(app)
    for change, field in BAD_CREATES:
        body = {
            "name": "Turnier",
            "game": GAME,
            "system": SYSTEM,
            "rounds": 3,
            "players": ["Anton", "Berta", "Charlotte", "Dieter"],
            **change,
        }
        response = client.post(f"{API}/tournaments", json=body, headers=auth)
        assert response.status_code == 422, (change, response.get_json())
        error = response.get_json()["error"]
        assert error["code"] == "validation", change
        assert error["fields"][field], (change, error)
    assert client.get(f"{API}/tournaments", headers=auth).get_json() == []


def test_create_messages_name_the_problem(app, client):
    auth = organiser(app)
    few = create(client, auth, ["A", "B"]).get_json()["error"]["fields"]["players"]
    assert any("at least 3" in m for m in few)
    twice = create(client, auth, ["Anton", "Berta", "anton"]).get_json()["error"]["fields"]
    assert any("look alike" in m and "anton" in m for m in twice["players"])
    german = client.post(
        f"{API}/tournaments",
        json={"name": "T", "date": "2026-03-14", "game": GAME, "system": SYSTEM, "players": ["A"]},
        headers={**auth, "Accept-Language": "de"},
    )
    assert "mindestens 3 Spieler" in str(german.get_json()["error"]["fields"]["players"])
    two = create(client, auth, ["A", "B", "C"], game="strohmandeln", system="beck")
    assert any("two-player" in m for m in two.get_json()["error"]["fields"]["game"])
    assert create(client, auth, ["A", "B", "C"], rounds=0).get_json()["error"]["fields"][
        "rounds"
    ] == ["must be a whole number 1..20"]
    german_rounds = client.post(
        f"{API}/tournaments",
        json={
            "name": "T",
            "date": "2026-03-14",
            "game": GAME,
            "system": SYSTEM,
            "players": ["A", "B", "C"],
            "rounds": 21,
            "deals_per_player": 0,
        },
        headers={**auth, "Accept-Language": "de"},
    ).get_json()["error"]["fields"]
    assert german_rounds["rounds"] == ["muss eine ganze Zahl von 1 bis 20 sein"]
    assert german_rounds["deals_per_player"] == ["muss eine ganze Zahl von 1 bis 20 sein"]


def test_malformed_json_is_400_not_500(app, client):
    auth = organiser(app)
    response = client.post(
        f"{API}/tournaments", data="{nope", content_type="application/json", headers=auth
    )
    assert response.status_code == 400


def test_draw_conflicts_and_swaps(app, client):
    auth = organiser(app)
    names = ["Anton", "Berta", "Charlotte", "Dieter", "Emil", "Franz", "Gerda"]
    tid = created(client, auth, names, rounds=1)["id"]
    round_ = draw(client, auth, tid)
    assert [len(t["players"]) for t in round_["tables"]] == [4, 3]

    again = client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth)
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "conflict"

    # Before any hand: two players at different tables swap seats.
    a = round_["tables"][0]["players"][0]
    b = round_["tables"][1]["players"][0]
    swap = f"{API}/tournaments/{tid}/rounds/1/swap"
    response = client.post(swap, json={"a": a, "b": b}, headers=auth)
    assert response.status_code == 200, response.get_json()
    swapped = response.get_json()["tables"]
    assert b in swapped[0]["players"] and a in swapped[1]["players"]
    session = session_of(client, swapped[0]["key"])
    assert session["players"] == swapped[0]["players"]

    # Unseated names and a swap of a player with himself are 422.
    response = client.post(swap, json={"a": a, "b": "Niemand"}, headers=auth)
    assert response.status_code == 422
    assert response.get_json()["error"]["fields"]["players"]
    response = client.post(swap, json={"a": a, "b": a}, headers=auth)
    assert response.status_code == 422
    assert client.post(swap, json={"a": a}, headers=auth).status_code == 422
    assert (
        client.post(
            f"{API}/tournaments/{tid}/rounds/2/swap", json={"a": a, "b": b}, headers=auth
        ).status_code
        == 404
    )

    # After a hand has been recorded the seats are fixed.
    key = swapped[1]["key"]
    hand = {"declarer": session_of(client, key)["players"][0], "contract": "frage", "points": 70}
    assert post_hand(client, key, hand).status_code == 201
    response = client.post(swap, json={"a": a, "b": b}, headers=auth)
    assert response.status_code == 409
    assert read_round(client, auth, tid, 1)["tables"] == [
        {**t, "hands": t["hands"] + (1 if t["key"] == key else 0)} for t in swapped
    ]

    # Close the only round; a further round cannot be drawn, nor a late entry added.
    assert (
        client.post(f"{API}/tournaments/{tid}/rounds/1/close", json={}, headers=auth).status_code
        == 200
    )
    assert (
        client.post(f"{API}/tournaments/{tid}/rounds/1/close", json={}, headers=auth).status_code
        == 409
    )
    beyond = client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth)
    assert beyond.status_code == 409
    assert "1 rounds have been drawn" in beyond.get_json()["error"]["message"]
    late = client.post(f"{API}/tournaments/{tid}/players", json={"name": "Zenzi"}, headers=auth)
    assert late.status_code == 409
    assert client.get(f"{API}/tournaments/{tid}/rounds/7", headers=auth).status_code == 404


def test_a_round_closed_early_closes_its_tables(app, client):
    auth = organiser(app)
    tid = created(client, auth, [f"P{i}" for i in range(8)], rounds=2)["id"]
    round_ = draw(client, auth, tid)
    key = round_["tables"][0]["key"]
    play_table(client, key, 1, random.Random(1))

    response = client.post(f"{API}/tournaments/{tid}/rounds/1/close", json={}, headers=auth)
    assert response.status_code == 200
    closed = response.get_json()
    assert closed["closed"]
    assert [t["hands"] for t in closed["tables"]] == [1, 0]
    assert not any(t["done"] for t in closed["tables"])
    for table in closed["tables"]:
        session = session_of(client, table["key"])
        assert session["closed"]
        hand = {"declarer": active_players(session)[0], "contract": "frage", "points": 80}
        response = post_hand(client, table["key"], hand)
        assert response.status_code == 409
        assert response.get_json()["error"]["code"] == "conflict"
    # The hand that was in counts; the next round can be drawn.
    standings = client.get(f"{API}/tournaments/{tid}/standings", headers=auth).get_json()
    assert sum(abs(s["per_round"][0]) for s in standings) > 0
    assert draw(client, auth, tid)["number"] == 2


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("de", "Ein Turniertisch wird mit seiner Runde geschlossen"),
        ("en", "A tournament table is closed with its round"),
    ],
)
def test_a_tournament_table_is_closed_only_by_its_round(app, client, language, text):
    """Its key is in every player's hand: a table ended early by it would end for good."""
    auth = organiser(app)
    tid = created(client, auth, [f"P{i}" for i in range(8)], rounds=2)["id"]
    key = draw(client, auth, tid)["tables"][0]["key"]
    headers = {"Accept-Language": language}
    for hands in (0, 1):
        play_table(client, key, hands, random.Random(hands))
        answer = client.post(f"{API}/sessions/{key}/close", headers=headers)
        assert answer.status_code == 409, answer.get_json()
        assert text.lower() in answer.get_json()["error"]["message"].lower()
        for method in (client.get, client.post):
            page = method(f"/t/{key}/schliessen", headers=headers)
            assert page.status_code == 409
            assert text.lower() in page.get_data(as_text=True).lower()
        assert not session_of(client, key)["closed"]
    closed = client.post(f"{API}/tournaments/{tid}/rounds/1/close", json={}, headers=auth)
    assert closed.status_code == 200 and session_of(client, key)["closed"]


def test_late_entry_and_withdrawal_between_rounds(app, client):
    auth = organiser(app)
    rng = random.Random(5)
    names = ["Anton", "Berta", "Charlotte", "Dieter", "Emil", "Franz", "Gerda", "Hans"]
    tid = created(client, auth, names, rounds=3)["id"]
    first = draw(client, auth, tid)
    play_round(client, first, rng, favour="Berta")
    assert read_round(client, auth, tid, 1)["closed"]

    players = f"{API}/tournaments/{tid}/players"
    response = client.post(players, json={"name": "  Zenzi  "}, headers=auth)
    assert response.status_code == 201
    assert response.get_json() == {
        "name": "Zenzi",
        "joined_round": 2,
        "club": None,
        "checked_in": True,
        "waiting": False,
        "fee": "unpaid",
    }
    assert client.post(players, json={"name": "berta"}, headers=auth).status_code == 422
    assert client.post(players, json={"name": ""}, headers=auth).status_code == 422
    assert client.post(players, json={"name": 7}, headers=auth).status_code == 422
    assert client.delete(f"{players}/Berta", headers=auth).status_code == 204
    assert client.delete(f"{players}/Niemand", headers=auth).status_code == 404

    data = client.get(f"{API}/tournaments/{tid}", headers=auth).get_json()
    entries = {p["name"]: p for p in data["players"]}
    assert entries["Zenzi"]["joined_round"] == 2
    assert entries["Berta"]["withdrawn_after"] == 1

    later = []
    for number in (2, 3):
        round_ = draw(client, auth, tid)
        seated = sorted(n for t in round_["tables"] for n in t["players"])
        assert seated == sorted([*(n for n in names if n != "Berta"), "Zenzi"]), number
        play_round(client, round_, rng)
        later.append(round_)
        if number == 2:
            # A late entry who withdraws before his first round is gone altogether.
            assert client.post(players, json={"name": "Xaver"}, headers=auth).status_code == 201
            assert client.delete(f"{players}/Xaver", headers=auth).status_code == 204

    standings = {
        s["player"]: s
        for s in client.get(f"{API}/tournaments/{tid}/standings", headers=auth).get_json()
    }
    assert set(standings) == {*names, "Zenzi"}
    berta_table = next(t for t in first["tables"] if "Berta" in t["players"])
    berta_points = session_of(client, berta_table["key"])["balances"]["Berta"]
    assert berta_points > 0, "Berta declared and won whenever she played"
    assert standings["Berta"]["per_round"] == [berta_points, 0, 0]
    assert standings["Berta"]["total"] == berta_points
    assert standings["Berta"]["wins_as_declarer"] >= 2
    zenzi = [
        sum(session_of(client, t["key"])["balances"].get("Zenzi", 0) for t in r["tables"])
        for r in later
    ]
    assert standings["Zenzi"]["per_round"] == [0, *zenzi]
    tournament = client.get(f"{API}/tournaments/{tid}", headers=auth).get_json()
    assert "Xaver" not in [p["name"] for p in tournament["players"]]
    expected = recompute_standings(client, tournament, [first, *later], {})
    for name, line in expected.items():
        assert {k: standings[name][k] for k in line} == line, name


def test_withdrawing_everyone_but_two_leaves_no_round_to_draw(app, client):
    auth = organiser(app)
    tid = created(client, auth, ["A", "B", "C", "D"], rounds=2)["id"]
    draw(client, auth, tid)
    assert (
        client.post(f"{API}/tournaments/{tid}/rounds/1/close", json={}, headers=auth).status_code
        == 200
    )
    for name in ("C", "D"):
        assert (
            client.delete(f"{API}/tournaments/{tid}/players/{name}", headers=auth).status_code
            == 204
        )
    response = client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth)
    assert response.status_code == 409
    assert "at least 3" in response.get_json()["error"]["message"]


# --- ties in the standings, through the API -------------------------------------------------


def play_three(
    client, auth, rounds: list[list[tuple[str, str, int, int]]], trump=None, **kwargs
) -> list:
    """A tournament of Anna, Michl and Zenzi (one table of three, three hands a round):
    the hands of each round as (declarer, contract, points, bid); returns the standings."""
    tid = created(client, auth, ["Anna", "Michl", "Zenzi"], rounds=len(rounds), **kwargs)["id"]
    for hands in rounds:
        (table,) = draw(client, auth, tid)["tables"]
        for declarer, contract, points, bid in hands:
            hand = {"declarer": declarer, "contract": contract, "points": points, "bid": bid}
            if trump:
                hand["trump"] = trump
            assert post_hand(client, table["key"], hand).status_code == 201
    response = client.get(f"{API}/tournaments/{tid}/standings", headers=auth)
    assert response.status_code == 200
    return [
        (s["place"], s["player"], s["total"], s["wins_as_declarer"], s["last_round"])
        for s in response.get_json()
    ]


def test_equal_players_share_the_place(app, client):
    auth = organiser(app)
    # Frage won with 61: one unit from the Haferl; lost with 60: one unit to each defender.
    standings = play_three(
        client,
        auth,
        [[("Zenzi", "frage", 61, 61), ("Anna", "frage", 61, 61), ("Michl", "frage", 60, 61)]],
        params={"unit_cents": 50},  # whatever the unit, in a tournament it is one point
    )
    assert standings == [(1, "Anna", 2, 1, 2), (1, "Zenzi", 2, 1, 2), (3, "Michl", -1, 0, -1)]


def test_a_tie_goes_to_more_wins_as_declarer(app, client):
    auth = organiser(app)
    standings = play_three(
        client,
        auth,
        # Zenzi +2 (won 66), then −1 (lost 60: Anna and Michl +1 each); Michl +1 (won 61).
        [[("Zenzi", "frage", 66, 61), ("Zenzi", "frage", 60, 61), ("Michl", "frage", 61, 61)]],
    )
    assert standings == [(1, "Michl", 2, 1, 2), (2, "Zenzi", 1, 1, 1), (3, "Anna", 1, 0, 1)]


def test_then_to_the_better_last_round(app, client):
    auth = organiser(app)
    standings = play_three(
        client,
        auth,
        [
            [("Anna", "frage", 61, 61), ("Michl", "frage", 61, 61), ("Michl", "frage", 61, 61)],
            [("Zenzi", "frage", 61, 61), ("Michl", "frage", 61, 61), ("Michl", "frage", 61, 61)],
        ],
    )
    assert standings == [(1, "Michl", 4, 4, 2), (2, "Zenzi", 1, 1, 1), (3, "Anna", 1, 1, 0)]


@pytest.mark.parametrize(
    ("game", "system"), [("haferltarock", "levels"), ("tarok", "fixed-direct")]
)
def test_a_draw_is_no_win_as_declarer(app, client, game, system):
    """Where 60–60 is a draw nobody scores, and the declarer has not won: three draws leave
    three players equal, sharing first place."""
    auth = organiser(app)
    hands = [("Zenzi", "frage", 60, 61), ("Zenzi", "frage", 60, 61), ("Anna", "frage", 60, 61)]
    standings = play_three(
        client, auth, [hands], trump="eichel", game=game, system=system, params={"tie": "draw"}
    )
    assert standings == [(1, "Anna", 0, 0, 0), (1, "Michl", 0, 0, 0), (1, "Zenzi", 0, 0, 0)]


def test_on_a_draw_system_a_win_still_breaks_the_tie(app, client):
    auth = organiser(app)
    # Michl draws with 60 and wins with 61; Zenzi loses with 59. Michl leads on points and
    # wins; Anna gains from Zenzi's loss; a draw counted as a win would not change this
    # order, but the wins column shows it.
    standings = play_three(
        client,
        auth,
        [[("Michl", "frage", 60, 61), ("Zenzi", "frage", 59, 61), ("Michl", "frage", 61, 61)]],
        game="haferltarock",
        system="levels",
        params={"tie": "draw"},
    )
    assert [(place, player, wins) for place, player, _, wins, _ in standings] == [
        (1, "Michl", 1),
        (2, "Anna", 0),
        (3, "Zenzi", 0),
    ]


# --- web pages ------------------------------------------------------------------------------


def web_tournament(client, players: list[str], rounds: int = 3, deals: int = 2) -> int:
    """Create a tournament through the web form; returns its id."""
    page = client.get(f"/turniere/neu?game={GAME}&system={SYSTEM}")
    assert page.status_code == 200
    parser = DefaultFields()
    parser.feed(page.get_data(as_text=True))
    assert "param_unit_cents" not in parser.values, "units are points: not asked"
    data = {
        "game": GAME,
        "system": SYSTEM,
        "name": "Frühjahrsturnier",
        "day": "2026-03-14",
        "rounds": str(rounds),
        "deals": str(deals),
        "players": "\n".join(players) + "\n\n",
        **parser.values,
    }
    response = client.post("/turniere/neu", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    match = re.search(r"/turniere/(\d+)$", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def test_first_run_sign_up_then_login_only(app, client):
    assert (
        client.get("/veranstalter/anmelden")
        .headers["Location"]
        .endswith("/veranstalter/registrieren")
    )
    page = client.get("/veranstalter/registrieren")
    assert page.status_code == 200
    assert "Erstes Veranstalterkonto" in page.get_data(as_text=True)

    mismatch = client.post(
        "/veranstalter/registrieren",
        data={
            "setup_code": SETUP_CODE,
            "name": "Orga",
            "email": "orga@example.org",
            "password": PASSWORD,
            "confirm": "x",
        },
    )
    assert mismatch.status_code == 422
    assert "stimmen nicht überein" in mismatch.get_data(as_text=True)

    without_code = {"name": "Orga", "email": "o@example.org", "password": PASSWORD}
    for code in ("", "wrong-code"):
        refused = client.post(
            "/veranstalter/registrieren",
            data={**without_code, "confirm": PASSWORD, "setup_code": code},
        )
        assert refused.status_code == 422
        assert "Der Code" in refused.get_data(as_text=True), code
    assert client.get("/veranstalter/registrieren").status_code == 200  # still nobody

    response = client.post(
        "/veranstalter/registrieren",
        data={
            "setup_code": SETUP_CODE,
            "name": "Orga",
            "email": "Orga@Example.org",
            "password": PASSWORD,
            "confirm": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/turniere")
    assert client.get("/turniere").status_code == 200  # logged in

    other = app.test_client()
    again = other.get("/veranstalter/registrieren")
    assert again.status_code == 302
    assert "/veranstalter/anmelden" in again.headers["Location"]
    second = other.post(
        "/veranstalter/registrieren",
        data={
            "setup_code": SETUP_CODE,
            "name": "X",
            "email": "x@example.org",
            "password": PASSWORD,
            "confirm": PASSWORD,
        },
    )
    assert second.status_code == 302
    assert other.get("/veranstalter/anmelden").status_code == 200
    assert log_in(other, "orga@example.org").status_code == 302
    assert log_in(app.test_client(), "x@example.org").status_code == 422


def test_login_with_a_wrong_password_stays_on_the_page(app, client):
    organiser(app)
    response = log_in(client, password="falsch123")
    assert response.status_code == 422
    assert "E-Mail oder Passwort stimmt nicht" in response.get_data(as_text=True)
    assert client.get("/turniere").status_code == 302
    response = log_in(client)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/turniere")
    assert client.get("/turniere").status_code == 200
    # After login a same-site `next` is followed, another host is not.
    fresh = app.test_client()
    response = fresh.post(
        "/veranstalter/anmelden?next=//evil.example/x",
        data={"email": "orga@example.org", "password": PASSWORD},
    )
    assert "evil.example" not in response.headers["Location"]


def test_tournament_pages_need_a_login(app, client):
    for path in ("/turniere", "/turniere/neu", "/turniere/1", "/turniere/1/runde/1/tische"):
        response = client.get(path)
        assert response.status_code == 302, path
        assert "/veranstalter/anmelden" in response.headers["Location"]
    assert client.post("/turniere/1/auslosen").status_code == 302


def test_web_tournament_tables_qr_codes_standings_and_table_page(app, client):
    organiser(app)
    assert log_in(client).status_code == 302
    players = ["Anton", "Berta", "Charlotte", "Dieter", "Emil", "Franz", "Gerda", "Jürgen"]
    players += [f"Gast {i}" for i in range(1, 4)]  # 11 players: tables of 4, 4 and 3
    tid = web_tournament(client, players, rounds=3, deals=2)
    assert "Frühjahrsturnier" in client.get("/turniere").get_data(as_text=True)

    response = client.post(f"/turniere/{tid}/auslosen")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/turniere/{tid}")

    with app.app_context():
        from scorer.store.models import Tournament

        tournament = db.session.get(Tournament, tid)
        key = tournament.key
        assert tournament.deals_per_player == 2
        assert [p.name for p in tournament.players] == players
        tables = [
            (t.session.key, list(t.session.players), t.session.hands_planned)
            for t in tournament.round_list[0].tables
        ]
    assert sorted(len(p) for _, p, _ in tables) == [3, 4, 4]
    assert all(planned == 2 * len(p) for _, p, planned in tables)

    html = client.get(f"/turniere/{tid}/runde/1/tische").get_data(as_text=True)
    qr = re.findall(r'src="/t/([A-Za-z0-9_-]+)/qr\.svg"', html)
    assert sorted(qr) == sorted(k for k, _, _ in tables)

    svg = client.get(f"/t/{tables[0][0]}/qr.svg")
    assert svg.status_code == 200
    assert svg.mimetype == "image/svg+xml"
    assert b"<svg" in svg.data
    assert client.get("/t/not-a-table-key-0123456789/qr.svg").status_code == 404

    # The public live standings: no login, refreshes itself, every player listed.
    public = app.test_client()
    page = public.get(f"/turnier/{key}/stand")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert re.search(r'<meta http-equiv="refresh" content="\d+">', text)
    for name in players:
        assert f"<td><bdi>{name}</bdi></td>" in text, name
    assert public.get("/turnier/no-such-key/stand").status_code == 404

    # A tournament table's page counts hands "of N" and shows points, not euros.
    table_key, table_players, planned = tables[0]
    page = public.get(f"/t/{table_key}").get_data(as_text=True)
    assert f"Spiel 1 · 1. von {planned}" in page
    assert "0 P" in page
    assert "€" not in page
    declarer = active_players(session_of(public, table_key))[0]
    hand = {"declarer": declarer, "contract": "frage", "points": 61}
    assert post_hand(public, table_key, hand).status_code == 201
    page = public.get(f"/t/{table_key}").get_data(as_text=True)
    assert f"Spiel 2 · 2. von {planned}" in page
    assert "+1 P" in page
    assert "€" not in page


def test_web_tournament_page_lists_the_tables(app, client):
    organiser(app)
    assert log_in(client).status_code == 302
    tid = web_tournament(client, [f"Spieler {i}" for i in range(1, 8)], rounds=2, deals=1)
    assert client.get(f"/turniere/{tid}").status_code == 200
    assert client.post(f"/turniere/{tid}/auslosen").status_code == 302
    page = client.get(f"/turniere/{tid}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count("Spiel 0 von 4") == 1
    assert html.count("Spiel 0 von 3") == 1
    assert "Runde 1" in html


def test_web_form_rejects_a_short_player_list(app, client):
    organiser(app)
    log_in(client)
    page = client.get(f"/turniere/neu?game={GAME}&system={SYSTEM}")
    parser = DefaultFields()
    parser.feed(page.get_data(as_text=True))
    data = {
        "game": GAME,
        "system": SYSTEM,
        "name": "Zu klein",
        "day": "2026-03-14",
        "rounds": "3",
        "deals": "4",
        "players": "Anton\nBerta\n",
        **parser.values,
    }
    response = client.post("/turniere/neu", data=data)
    assert response.status_code == 422
    with app.app_context():
        from scorer.store.models import Tournament

        assert db.session.scalar(db.select(db.func.count(Tournament.id))) == 0


# --- the command line -----------------------------------------------------------------------


def test_cli_creates_an_organiser_and_refuses_a_duplicate(app, runner):
    args = ["scorer", "create-organiser", "--name", "X", "--email", "x@example.org"]
    result = runner.invoke(args=[*args, "--password", "geheim123"])
    assert result.exit_code == 0, result.output
    assert "angelegt" in result.output
    client = app.test_client()
    assert client.get(f"{API}/tournaments", headers=basic("x@example.org")).status_code == 200

    result = runner.invoke(args=[*args[:-1], "X@Example.org", "--password", "anderes123"])
    assert result.exit_code != 0
    assert "schon ein Konto" in result.output
    result = runner.invoke(
        args=[
            "scorer",
            "create-organiser",
            "--name",
            "Y",
            "--email",
            "y@example.org",
            "--password",
            "kurz",
        ]
    )
    assert result.exit_code != 0
    assert "mindestens 8 Zeichen" in result.output
    assert (
        client.get(f"{API}/tournaments", headers=basic("y@example.org", "kurz")).status_code == 401
    )


# --- the rate limit on the login ------------------------------------------------------------

LIMITED = {"RATELIMIT_ENABLED": True, "RATE_LIMITS": True}
"""Rate limits on: Flask-Limiter's switch and the app's own `RATE_LIMITS` (tests turn it off)."""


@pytest.fixture
def restore_limiter():
    """The limiter is one object for every app: put back its switch and forget its counts,
    so that the apps of later tests are not limited by the logins made here."""
    enabled = limiter.enabled
    yield
    limiter.reset()
    limiter.enabled = enabled


def test_login_is_rate_limited(tmp_path, restore_limiter):
    app = make_app(tmp_path, **LIMITED)
    try:
        organiser(app)
        client = app.test_client()
        statuses = [log_in(client, password="falsch123").status_code for _ in range(12)]
        assert statuses[:10] == [422] * 10
        assert statuses[10:] == [429, 429]
        # The right password does not get through either while the limit holds.
        assert log_in(client).status_code == 429
        assert client.get("/veranstalter/anmelden").status_code == 200  # only POSTs count
    finally:
        dispose(app)


def test_an_app_without_limits_does_not_switch_off_another_apps_limit(tmp_path, restore_limiter):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    limited = make_app(tmp_path / "a", **LIMITED)
    unlimited = make_app(tmp_path / "b")  # the test default: no rate limits
    try:
        organiser(limited)
        # A second address: on PostgreSQL both apps share the one test database.
        organiser(unlimited, email="zweite@example.org")
        free = [
            log_in(unlimited.test_client(), "zweite@example.org", password="x").status_code
            for _ in range(11)
        ]
        assert free == [422] * 11
        client = limited.test_client()
        statuses = [log_in(client, password="falsch123").status_code for _ in range(11)]
        assert statuses == [422] * 10 + [429]
    finally:
        dispose(unlimited)
        dispose(limited)


def test_a_tournament_table_settles_nothing_and_shows_points(app, client):
    """Points do not sum to zero when a Frage is paid 'from the pot': nothing is settled."""
    auth = organiser(app)
    tid = created(client, auth, [f"P{i}" for i in range(3)], rounds=1)["id"]
    key = draw(client, auth, tid)["tables"][0]["key"]
    declarer = active_players(session_of(client, key))[0]
    # A Frage won with 83: 1 + ⌊22/5⌋ = 5 units = 5 points for the declarer alone.
    assert (
        post_hand(
            client, key, {"declarer": declarer, "contract": "frage", "points": 83}
        ).status_code
        == 201
    )
    settlement = client.get(f"{API}/sessions/{key}/settlement")
    assert settlement.status_code == 200
    assert settlement.get_json()["transfers"] == []
    assert settlement.get_json()["balances"][declarer] == 5
    page = client.get(f"/t/{key}/abrechnung").get_data(as_text=True)
    assert "Punkte an diesem Tisch" in page and "+5 P" in page and " zahlt " not in page


def test_tournament_pdfs_assignments_blank_sheets_and_standings(app, client):
    auth = organiser(app)
    names = [f"Spieler {i}" for i in range(1, 11)] + ["<b>Bär & Co</b>"]
    tid = created(client, auth, names, rounds=2, deals=1)["id"]
    round_one = draw(client, auth, tid)
    assert log_in(client).status_code == 302

    assignments = client.get(f"/turniere/{tid}/runde/1/tische.pdf")
    assert assignments.status_code == 200 and assignments.mimetype == "application/pdf"
    text = pdf_text(assignments.data)
    for table in round_one["tables"]:
        assert f"Tisch {table['number']}" in text
    for name in names:
        assert name in text
    assert "Seite 1 von" in text

    sheets = client.get(f"/turniere/{tid}/runde/1/spielzettel.pdf")
    assert sheets.status_code == 200
    from pypdf import PdfReader

    # One blank sheet a table (each fits one page).
    assert len(PdfReader(io.BytesIO(sheets.data)).pages) == len(round_one["tables"])
    assert "Tisch 3" in pdf_text(sheets.data)

    key = round_one["tables"][0]["key"]
    declarer = active_players(session_of(client, key))[0]
    post_hand(client, key, {"declarer": declarer, "contract": "frage", "points": 83})
    standings = pdf_text(client.get(f"/turniere/{tid}/tabelle.pdf").data)
    assert "1." in standings and declarer in standings and "R2" in standings

    # Another organiser's tournament, and an undrawn round, are 404.
    assert client.get(f"/turniere/{tid}/runde/2/tische.pdf").status_code == 404
    organiser(app, email="zweite@example.org")
    client.post("/veranstalter/abmelden")
    assert log_in(client, "zweite@example.org").status_code == 302
    assert client.get(f"/turniere/{tid}/tabelle.pdf").status_code == 404


def test_session_pdf_is_served_from_the_api_and_linked_from_the_pages(client):
    body = {
        "name": "Stammtisch",
        "game": GAME,
        "system": SYSTEM,
        "players": ["Anton", "Berta", "<b>Bär & Co</b>"],
        "first_dealer": "Anton",
    }
    key = client.post(f"{API}/sessions", json=body).get_json()["key"]
    post_hand(client, key, {"declarer": "Berta", "contract": "hand", "bid": 76, "points": 83})
    response = client.get(f"{API}/sessions/{key}/export.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = pdf_text(response.data)
    assert "<b>Bär & Co</b>" in text and "Seite 1 von" in text
    assert f"/api/v1/sessions/{key}/export.pdf" in client.get(f"/t/{key}").get_data(as_text=True)
    assert client.get(f"{API}/sessions/{'x' * 30}/export.pdf").status_code == 404


def test_closing_a_round_with_hands_to_play_asks_first(app, client):
    auth = organiser(app)
    tid = created(client, auth, [f"Spieler {i}" for i in range(1, 8)], rounds=2, deals=1)["id"]
    first = draw(client, auth, tid)
    assert log_in(client).status_code == 302
    url = f"/turniere/{tid}/runde/1/schliessen"
    asked = client.post(url)
    assert asked.status_code == 200
    html = asked.get_data(as_text=True)
    assert "Runde 1 schließen?" in html and "0 von" in html
    assert 'name="bestaetigt" value="ja"' in html
    assert read_round(client, auth, tid, 1)["closed"] is False
    assert client.post(url, data={"bestaetigt": "ja"}).status_code == 302
    assert read_round(client, auth, tid, 1)["closed"] is True
    assert len(first["tables"]) == 2


def test_live_standings_read_as_players_expect(app, client):
    """Rounds not yet drawn show a dash, negative scores a true minus sign; the PDF too,
    with the time printed on the local clock."""
    auth = organiser(app)
    tournament = created(client, auth, ["Anna", "Bert", "Cora"], rounds=3, deals=1)
    round_one = draw(client, auth, tournament["id"])
    key = round_one["tables"][0]["key"]
    declarer = active_players(session_of(client, key))[0]
    post_hand(client, key, {"declarer": declarer, "contract": "frage", "points": 40})
    html = client.get(f"/turnier/{tournament['key']}/stand").get_data(as_text=True)
    cells = re.findall(r'<td class="num per-round">([^<]*)</td>', html)
    assert cells and cells.count("–") == 2 * 3  # rounds 2 and 3 of three players
    assert re.search(r">−\d+<", html) and not re.search(r">-\d+<", html)
    assert log_in(client).status_code == 302
    text = pdf_text(client.get(f"/turniere/{tournament['id']}/tabelle.pdf").data)
    assert "UTC" not in text and "–" in text and "−" in text


def test_a_tournament_table_confirms_a_hand_in_points(app, client):
    auth = organiser(app)
    tournament = created(client, auth, ["Anna", "Bert", "Cora"], rounds=1, deals=1)
    key = draw(client, auth, tournament["id"])["tables"][0]["key"]
    declarer = active_players(session_of(client, key))[0]
    client.post(
        f"/t/{key}/spiel",
        data={"declarer": declarer, "contract": "frage", "points": "70", "points_of": "declarer"},
    )
    html = client.get(f"/t/{key}").get_data(as_text=True)
    assert re.search(r"Spiel 1 eingetragen: <bdi>[^<]+</bdi> \+\d+ P", html)
    assert "€" not in html


def test_a_finished_tournament_table_says_so_instead_of_counting_on(app, client):
    """After the last planned hand the page says all are in, not "Spiel 4 von 3", and
    offers no entry form."""
    auth = organiser(app)
    tournament = created(client, auth, ["Anna", "Bert", "Cora"], rounds=1, deals=1)
    key = draw(client, auth, tournament["id"])["tables"][0]["key"]
    for _ in range(3):
        declarer = active_players(session_of(client, key))[0]
        assert post_hand(client, key, {"declarer": declarer, "contract": "frage", "points": 61})
    html = client.get(f"/t/{key}").get_data(as_text=True)
    assert "Spiel 4" not in html
    assert "Runde beendet" in html or "alle 3 Spiele eingetragen" in html
    assert 'id="hand-form"' not in html


def test_a_tournament_form_with_another_games_system_is_refused(app, client):
    organiser(app)
    assert log_in(client).status_code == 302
    page = client.get(f"/turniere/neu?game={GAME}&system={SYSTEM}")
    parser = DefaultFields()
    parser.feed(page.get_data(as_text=True))
    data = {
        **parser.values,
        "game": GAME,
        "system": "tapp-points",
        "name": "Frühjahrsturnier",
        "day": "2026-03-14",
        "rounds": "2",
        "deals": "1",
        "players": "\n".join(f"Spieler {i}" for i in range(1, 9)),
    }
    response = client.post("/turniere/neu", data=data)
    assert response.status_code == 422
    assert "ist kein Zahlungssystem von Haferltarock" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 0
        db.session.remove()


@pytest.mark.parametrize("field", ["rounds", "deals"])
def test_a_tournament_form_with_a_number_of_hundreds_of_digits_is_refused(app, client, field):
    organiser(app)
    assert log_in(client).status_code == 302
    parser = DefaultFields()
    parser.feed(client.get(f"/turniere/neu?game={GAME}&system={SYSTEM}").get_data(as_text=True))
    data = {
        **parser.values,
        "game": GAME,
        "system": SYSTEM,
        "name": "Turnier",
        "day": "2026-03-14",
        "rounds": "2",
        "deals": "1",
        "players": "\n".join(f"Spieler {i}" for i in range(1, 9)),
        field: "9" * 400,
    }
    response = client.post("/turniere/neu", data=data)
    assert response.status_code == 422
    assert "höchstens 12 Ziffern" in response.get_data(as_text=True)
