"""The event's seating through the API and the organiser's page: a round seated by the
standings, club-mates kept apart (and told when the numbers do not allow it), a player who
keeps a table, the refusals (each changes nothing: no round, no fixed table, no log line),
and the projector's page for a round seated by the standings."""

from __future__ import annotations

import itertools
import random

import pytest

from scorer.domain.seating import seat
from tests.support.tournaments import API, created, draw, log_in, organiser, play_round

EIGHT = ["Anna", "Bert", "Cilli", "Done", "Emil", "Fanny", "Gustl", "Hias"]


@pytest.fixture
def auth(app):
    return organiser(app)


def drawing(client, auth, tid, body):
    """The next round asked for with `body`; the answer, whatever it is."""
    return client.post(f"{API}/tournaments/{tid}/rounds", json=body, headers=auth)


def drawn(client, auth, tid, body) -> dict:
    """The next round drawn with `body` (201); the round."""
    answer = drawing(client, auth, tid, body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def close(client, auth, tid, number):
    answer = client.post(f"{API}/tournaments/{tid}/rounds/{number}/close", json={}, headers=auth)
    assert answer.status_code == 200, answer.get_json()


def adjust(client, auth, tid, player, points):
    body = {"player": player, "points": points, "reason": "Setzung im Test"}
    answer = client.post(f"{API}/tournaments/{tid}/adjustments", json=body, headers=auth)
    assert answer.status_code == 201, answer.get_json()


def tournament_json(client, auth, tid) -> dict:
    return client.get(f"{API}/tournaments/{tid}", headers=auth).get_json()


def log_json(client, auth, tid) -> list[dict]:
    return client.get(f"{API}/tournaments/{tid}/log", headers=auth).get_json()


def standings_order(client, auth, tid) -> list[str]:
    rows = client.get(f"{API}/tournaments/{tid}/standings", headers=auth).get_json()
    return [row["player"] for row in rows]


def tables_of(round_: dict) -> list[list[str]]:
    return [table["players"] for table in round_["tables"]]


def table_of(round_: dict, name: str) -> int:
    return next(t["number"] for t in round_["tables"] if name in t["players"])


def poured(order: list[str], sizes: list[int]) -> list[list[str]]:
    """`order` filled into tables of `sizes` in turn: ranks 1-4 at table 1, and so on."""
    bounds = list(itertools.accumulate(sizes, initial=0))
    return [order[a:b] for a, b in itertools.pairwise(bounds)]


def with_clubs(client, auth, clubs: dict[str, str | None], **kwargs) -> dict:
    """A tournament at the door: each player registered with his club and checked in."""
    t = created(client, auth, [], **kwargs)
    for name, club in clubs.items():
        body = {"name": name} if club is None else {"name": name, "club": club}
        registered = client.post(f"{API}/tournaments/{t['id']}/players", json=body, headers=auth)
        assert registered.status_code == 201, registered.get_json()
        path = f"{API}/tournaments/{t['id']}/players/{name}/check-in"
        assert client.post(path, json={}, headers=auth).status_code == 200
    return t


def clashes(tables: list[list[str]], clubs: dict[str, str | None]) -> list[list[str]]:
    """The pairs of club-mates sharing a table, in table order."""
    return [
        [a, b]
        for table in tables
        for a, b in itertools.combinations(table, 2)
        if clubs[a] is not None and clubs[a] == clubs[b]
    ]


# --- seated by the standings --------------------------------------------------------------


def test_standings_seat_the_leaders_at_table_one_where_the_draw_would_mix(client, auth):
    t = created(client, auth, EIGHT, rounds=2)
    round_1 = draw(client, auth, t["id"])
    first, second = tables_of(round_1)
    # Table 1 of round 1 leads, in reverse seating order; table 2 trails, in seating order.
    for points, name in zip([40, 30, 20, 10], reversed(first), strict=True):
        adjust(client, auth, t["id"], name, points)
    for points, name in zip([-10, -20, -30, -40], second, strict=True):
        adjust(client, auth, t["id"], name, points)
    close(client, auth, t["id"], 1)
    ranking = standings_order(client, auth, t["id"])
    assert ranking == [*reversed(first), *second]

    round_2 = drawn(client, auth, t["id"], {"seating": "standings"})
    assert round_2["seating"] == "standings" and round_2["keep_apart"] is None
    assert tables_of(round_2) == [list(reversed(first)), second] == poured(ranking, [4, 4])
    # What `{}` would have drawn for the same seed mixes the tables of round 1 (two of
    # each at a table), where the standings keep both of them whole.
    at_random = seat(EIGHT, [[first, second]], round_2["seed"], mode="random").tables
    assert at_random != tables_of(round_2)
    assert all(len(set(table) & set(first)) == 2 for table in at_random)
    line = log_json(client, auth, t["id"])[-1]
    assert (line["action"], line["seating"], line["tables"]) == (
        "draw",
        "standings",
        tables_of(round_2),
    )


def test_standings_after_a_played_round_fill_the_four_then_the_three(client, auth):
    names = EIGHT[:7]
    t = created(client, auth, names, rounds=2)
    round_1 = draw(client, auth, t["id"])
    play_round(client, round_1, random.Random(7))  # the round closes with its last hand
    ranking = standings_order(client, auth, t["id"])
    round_2 = drawn(client, auth, t["id"], {"seating": "standings"})
    assert tables_of(round_2) == poured(ranking, [4, 3])


def test_the_page_seats_by_the_standings_when_asked(app, client, auth):
    app.config["WTF_CSRF_ENABLED"] = False
    t = created(client, auth, EIGHT, rounds=2)
    draw(client, auth, t["id"])
    for points, name in zip(range(80, 0, -10), reversed(EIGHT), strict=True):
        adjust(client, auth, t["id"], name, points)
    close(client, auth, t["id"], 1)
    assert log_in(client).status_code == 302
    page = client.post(f"/turniere/{t['id']}/auslosen", data={"seating": "standings"})
    assert page.status_code == 302
    round_2 = tournament_json(client, auth, t["id"])["rounds_drawn"][1]
    assert round_2["seating"] == "standings"
    assert tables_of(round_2) == [EIGHT[:3:-1], EIGHT[3::-1]]


# --- club-mates apart -------------------------------------------------------------------


def test_four_clubs_of_three_sit_one_of_each_club_at_every_table(client, auth):
    clubs = {f"{club}{i}": club for club in ("Au", "Bad", "Chieming", "Dorfen") for i in (1, 2, 3)}
    t = with_clubs(client, auth, clubs, rounds=2)
    round_ = drawn(client, auth, t["id"], {"keep_apart": "club"})
    assert [len(table) for table in tables_of(round_)] == [4, 4, 4]
    for table in tables_of(round_):
        assert sorted(clubs[name] for name in table) == ["Au", "Bad", "Chieming", "Dorfen"]
    assert round_["keep_apart"] == "club" and round_["clubs_together"] == []
    line = log_json(client, auth, t["id"])[-1]
    assert (line["action"], line["keep_apart"]) == ("draw", "club")


def test_three_clubs_of_four_at_three_tables_leave_one_pair_at_each(client, auth):
    """Four seats, three clubs: every table has two of one club, and no more than that."""
    clubs = {f"{club}{i}": club for club in ("Au", "Bad", "Chieming") for i in (1, 2, 3, 4)}
    t = with_clubs(client, auth, clubs, rounds=2)
    round_ = drawn(client, auth, t["id"], {"keep_apart": "club"})
    together = round_["clubs_together"]
    assert together == clashes(tables_of(round_), clubs)
    assert len(together) == 3
    assert sorted(table_of(round_, a) for a, _ in together) == [1, 2, 3]


def test_six_of_one_club_among_eight_the_page_says_who_still_sits_together(app, client, auth):
    app.config["WTF_CSRF_ENABLED"] = False
    clubs: dict[str, str | None] = {name: "TC Au" for name in EIGHT[:6]}
    clubs |= {"Gustl": "SV Bad", "Hias": None}
    t = with_clubs(client, auth, clubs, rounds=2)
    assert log_in(client).status_code == 302
    page = client.post(
        f"/turniere/{t['id']}/auslosen",
        data={"seating": "random", "keep_apart": "club"},
        follow_redirects=True,
    )
    assert page.status_code == 200
    round_ = tournament_json(client, auth, t["id"])["rounds_drawn"][0]
    assert round_["keep_apart"] == "club"
    together = round_["clubs_together"]
    assert together == clashes(tables_of(round_), clubs)
    assert len(together) == 6  # three of the club at each table: 3 + 3 pairs, the fewest
    pairs = ", ".join(f"{a} – {b}" for a, b in together)
    text = page.get_data(as_text=True)
    assert "Runde 1 ist ausgelost" in text
    assert (
        "Vereinskollegen noch an einem Tisch (die Zahlen lassen es nicht anders zu): " + pairs
    ) in text


def test_the_page_leaves_club_mates_together_when_not_asked_and_says_nothing(app, client, auth):
    app.config["WTF_CSRF_ENABLED"] = False
    clubs: dict[str, str | None] = {name: "TC Au" for name in EIGHT[:6]}
    clubs |= {"Gustl": "SV Bad", "Hias": None}
    t = with_clubs(client, auth, clubs, rounds=2)
    log_in(client)
    page = client.post(
        f"/turniere/{t['id']}/auslosen", data={"seating": "random"}, follow_redirects=True
    )
    round_ = tournament_json(client, auth, t["id"])["rounds_drawn"][0]
    assert round_["keep_apart"] is None and round_["clubs_together"] == []
    assert "Vereinskollegen" not in page.get_data(as_text=True)


# --- a fixed table ------------------------------------------------------------------------


def test_a_fixed_table_holds_in_later_draws_until_cleared(client, auth):
    t = created(client, auth, EIGHT, rounds=4)
    draw(client, auth, t["id"])
    adjust(client, auth, t["id"], "Anna", 100)  # the leader: table 1 by the standings
    close(client, auth, t["id"], 1)
    leader_first = standings_order(client, auth, t["id"])
    assert leader_first[0] == "Anna"

    round_2 = drawn(client, auth, t["id"], {"seating": "standings", "fixed": {"Anna": 2}})
    assert table_of(round_2, "Anna") == 2
    # She swaps with the one nearest her in rank at table 2 (the fifth).
    ranked = leader_first
    assert tables_of(round_2) == [[*ranked[1:4], ranked[4]], ["Anna", *ranked[5:]]]
    players = {p["name"]: p for p in tournament_json(client, auth, t["id"])["players"]}
    assert players["Anna"]["fixed_table"] == 2
    assert all(p["fixed_table"] is None for name, p in players.items() if name != "Anna")
    close(client, auth, t["id"], 2)

    round_3 = drawn(client, auth, t["id"], {"seating": "standings"})  # not said again
    assert table_of(round_3, "Anna") == 2
    close(client, auth, t["id"], 3)

    round_4 = drawn(client, auth, t["id"], {"seating": "standings", "fixed": {"Anna": None}})
    assert table_of(round_4, "Anna") == 1
    assert tables_of(round_4) == poured(standings_order(client, auth, t["id"]), [4, 4])
    players = {p["name"]: p for p in tournament_json(client, auth, t["id"])["players"]}
    assert players["Anna"]["fixed_table"] is None
    fixed_lines = [
        (line["player"], line["table"])
        for line in log_json(client, auth, t["id"])
        if line["action"] == "fixed_table"
    ]
    assert fixed_lines == [("Anna", 2), ("Anna", None)]


def test_a_fixed_table_holds_in_a_random_draw_too(client, auth):
    t = created(client, auth, EIGHT, rounds=2)
    round_1 = draw(client, auth, t["id"])
    close(client, auth, t["id"], 1)
    round_2 = drawn(client, auth, t["id"], {"fixed": {"Anna": 2}})
    assert table_of(round_2, "Anna") == 2
    expected = seat(EIGHT, [tables_of(round_1)], round_2["seed"], fixed={"Anna": 2})
    assert tables_of(round_2) == expected.tables


# --- refusals -------------------------------------------------------------------------------


REFUSED = [
    ({"seating": "x"}, 422, "seating"),
    ({"seating": None}, 422, "seating"),
    ({"keep_apart": "verein"}, 422, "keep_apart"),
    ({"fixed": {"Nobody": 1}}, 404, None),
    ({"fixed": {"Anna": 2, "Nobody": 1}}, 404, None),  # Anna's table is set, then refused
    ({"fixed": {"Anna": 99}}, 422, "fixed"),  # eight players: tables 1 and 2 only
    ({"fixed": {"Bert": 1, "Anna": 3}}, 422, "fixed"),
    ({"seating": "standings", "fixed": {"Anna": 99}}, 422, "fixed"),
    ({"fixed": {name: 1 for name in EIGHT[:5]}}, 422, "fixed"),  # table 1 seats four
    ({"fixed": {"Anna": 0}}, 422, "fixed"),
    ({"fixed": {"Anna": 100_000}}, 422, "fixed"),
    ({"fixed": {"Anna": True}}, 422, "fixed"),
    ({"fixed": {"Anna": "2"}}, 422, "fixed"),
    ({"fixed": ["Anna"]}, 422, "fixed"),
]
"""Draws refused (the body, the status, the field named): each changes nothing."""


def test_a_refused_draw_changes_nothing(client, auth):
    t = created(client, auth, EIGHT, rounds=3)
    draw(client, auth, t["id"])
    close(client, auth, t["id"], 1)
    before, log_before = tournament_json(client, auth, t["id"]), log_json(client, auth, t["id"])
    for body, status, field in REFUSED:
        answer = drawing(client, auth, t["id"], body)
        assert answer.status_code == status, (body, answer.get_json())
        error = answer.get_json()["error"]
        assert error["message"], body
        assert field is None or field in error["fields"], (body, error)
        after = tournament_json(client, auth, t["id"])
        assert len(after["rounds_drawn"]) == 1, body
        assert [p["fixed_table"] for p in after["players"]] == [None] * len(EIGHT), body
        assert after == before, body
        assert log_json(client, auth, t["id"]) == log_before, body
    # The tournament draws its next round as if nothing had been asked.
    round_2 = drawn(client, auth, t["id"], {})
    assert round_2["number"] == 2
    assert (
        tables_of(round_2)
        == seat(EIGHT, [tables_of(before["rounds_drawn"][0])], round_2["seed"]).tables
    )


def test_a_refused_draw_keeps_a_fixed_table_set_before(client, auth):
    t = created(client, auth, EIGHT, rounds=3)
    draw(client, auth, t["id"])
    close(client, auth, t["id"], 1)
    drawn(client, auth, t["id"], {"fixed": {"Anna": 2}})
    close(client, auth, t["id"], 2)
    log_before = log_json(client, auth, t["id"])
    refused = drawing(client, auth, t["id"], {"fixed": {"Anna": None, "Bert": 7}})
    assert refused.status_code == 422
    players = {p["name"]: p for p in tournament_json(client, auth, t["id"])["players"]}
    assert players["Anna"]["fixed_table"] == 2 and players["Bert"]["fixed_table"] is None
    assert log_json(client, auth, t["id"]) == log_before
    assert table_of(drawn(client, auth, t["id"], {}), "Anna") == 2


def test_a_draw_refused_for_an_open_round_stores_no_fixed_table(client, auth):
    t = created(client, auth, EIGHT, rounds=3)
    draw(client, auth, t["id"])
    log_before = log_json(client, auth, t["id"])
    refused = drawing(client, auth, t["id"], {"fixed": {"Anna": 2}})
    assert refused.status_code == 409
    players = tournament_json(client, auth, t["id"])["players"]
    assert all(p["fixed_table"] is None for p in players)
    assert log_json(client, auth, t["id"]) == log_before


# --- the projector ------------------------------------------------------------------------


def test_the_projector_and_the_table_cards_show_a_round_seated_by_the_standings(client, auth):
    t = created(client, auth, EIGHT[:7], rounds=2)
    draw(client, auth, t["id"])
    for points, name in zip(range(70, 0, -10), EIGHT[:7], strict=True):
        adjust(client, auth, t["id"], name, points)
    close(client, auth, t["id"], 1)
    round_2 = drawn(client, auth, t["id"], {"seating": "standings"})
    assert tables_of(round_2) == [EIGHT[:4], EIGHT[4:7]]
    page = client.get(f"/turnier/{t['key']}/runde/2/sitzplan")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for name in EIGHT[:7]:
        assert name in text
    assert "Hias" not in text
    log_in(client)
    cards = client.get(f"/turniere/{t['id']}/runde/2/karten.pdf")
    assert cards.status_code == 200 and cards.mimetype == "application/pdf"
    assert cards.data.startswith(b"%PDF")
