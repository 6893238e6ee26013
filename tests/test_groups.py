"""Stammtisch groups through the API: evenings with changing players, the Haferl carried
over, seasons shared out, standings, statistics, one settle-up for many evenings; money
conserved (members' nets + the group's Haferl = 0) after every operation."""

from __future__ import annotations

import pytest

from scorer.domain.season import share_out
from scorer.domain.settle import settle
from tests.support.groups import (
    API,
    BIG,
    FOUR,
    FRAGE_LOST,
    FRAGE_WON,
    close,
    create_group,
    evening,
    paid_lines_and_version,
    play,
)


def group(client, key: str) -> dict:
    response = client.get(f"{API}/groups/{key}")
    assert response.status_code == 200
    return response.get_json()


def settlement(client, session_key: str) -> dict[str, int]:
    return client.get(f"{API}/sessions/{session_key}/settlement").get_json()["balances"]


def conserved(client, key: str) -> int:
    """Members' nets (closed evenings' settle-ups, shares of closed seasons) plus the
    group's Haferl; open evenings count with what they hold. Must be 0."""
    data = group(client, key)
    total = data["pot_cents"]
    for ev in data["evenings"]:
        if ev["closed"]:
            total += sum(c for p, c in settlement(client, ev["key"]).items() if p != "pot")
        else:
            session = client.get(f"{API}/sessions/{ev['key']}").get_json()
            total += sum(session["balances"].values())  # players and the pot it holds
    for season in data["closed_seasons"]:
        total += sum(season["shares"].values())
    return total


def test_a_season_with_the_haferl_carried_over(client):
    created = create_group(client)
    key = created["key"]
    assert created["pot_cents"] == 0 and created["season"] == 1
    assert len(key) >= 22 and created["members"] == FOUR

    # Evening 1: all four; stakes 4 × 50 = 200 in the Haferl.
    first = evening(client, key, FOUR)
    assert first["group"] == key and first["balances"]["pot"] == 200
    state = play(client, first, [FRAGE_WON, FRAGE_LOST, FRAGE_WON])
    left = state["balances"]["pot"]
    assert conserved(client, key) == 0
    close(client, first)
    assert group(client, key)["pot_cents"] == left  # the remainder went back
    assert conserved(client, key) == 0

    # Evening 2: Dieter stays home, Emil comes (a new member). The Haferl is carried in:
    # no stake is paid.
    assert client.get(f"{API}/sessions/{first['key']}").get_json()["group"] == key
    second = evening(client, key, ["Anton", "Berta", "Emil"])
    assert second["balances"] == {"Anton": 0, "Berta": 0, "Emil": 0, "pot": left}
    data = group(client, key)
    assert data["pot_cents"] == 0 and "Emil" in data["members"]
    assert conserved(client, key) == 0
    state = play(client, second, [FRAGE_WON, BIG, FRAGE_LOST])
    assert conserved(client, key) == 0
    close(client, second)
    assert group(client, key)["pot_cents"] == state["balances"]["pot"]
    assert conserved(client, key) == 0

    # A closed evening cannot be edited; the first cannot be reopened (its Haferl was
    # carried on), the last can: it takes its Haferl back, and gives it again at close.
    hand = {"declarer": "Anton", **FRAGE_WON, "version": 1}
    assert client.put(f"{API}/sessions/{second['key']}/hands/1", json=hand).status_code == 409
    assert client.post(f"/t/{first['key']}/oeffnen").status_code == 302
    assert client.get(f"{API}/sessions/{first['key']}").get_json()["closed"] is True
    assert client.post(f"/t/{second['key']}/oeffnen").status_code == 302
    assert group(client, key)["pot_cents"] == 0
    assert conserved(client, key) == 0
    edited = client.put(
        f"{API}/sessions/{second['key']}/hands/1",
        json={"declarer": "Anton", "contract": "frage", "points": 95, "version": 1},
    )
    assert edited.status_code == 200, edited.get_json()
    assert conserved(client, key) == 0
    voided = client.delete(f"{API}/sessions/{second['key']}/hands/2?version=1")
    assert voided.status_code == 204
    assert conserved(client, key) == 0
    close(client, second)
    assert conserved(client, key) == 0
    remainder = client.get(f"{API}/sessions/{second['key']}").get_json()["balances"]["pot"]
    assert group(client, key)["pot_cents"] == remainder  # re-settled with the edit and void

    # The standings are the sum of the evenings' settle-ups.
    lines = client.get(f"{API}/groups/{key}/standings").get_json()
    nets: dict[str, int] = {}
    for ev in (first, second):
        for player, cents in settlement(client, ev["key"]).items():
            if player != "pot":
                nets[player] = nets.get(player, 0) + cents
    assert {line["player"]: line["net_cents"] for line in lines} == nets
    assert [line["place"] for line in lines] == list(range(1, len(lines) + 1))
    assert lines == sorted(lines, key=lambda line: -line["net_cents"])
    anton = next(line for line in lines if line["player"] == "Anton")
    assert anton["evenings"] == 2 and anton["hands"] >= 3

    # The season closes: the Haferl is shared out equally among its five players.
    pot = group(client, key)["pot_cents"]
    closed = client.post(f"{API}/groups/{key}/season/close")
    assert closed.status_code == 200
    shares = closed.get_json()["shares"]
    assert sum(shares.values()) == pot
    assert shares == share_out(pot, ["Anton", "Berta", "Charlotte", "Dieter", "Emil"])
    data = group(client, key)
    assert data["pot_cents"] == 0 and data["season"] == 2
    assert conserved(client, key) == 0
    season_one = client.get(f"{API}/groups/{key}/standings?season=1").get_json()
    assert {line["player"]: line["net_cents"] for line in season_one} == {
        p: nets[p] + shares[p] for p in nets
    }
    assert client.get(f"{API}/groups/{key}/standings?season=3").status_code == 400

    # Season 2 starts afresh: stakes again.
    third = evening(client, key, FOUR[:3])
    assert third["balances"]["pot"] == 150
    assert group(client, key)["evenings"][-1]["season"] == 2


def test_the_haferl_shared_by_evenings_attended():
    assert share_out(100, ["A", "B", "C"], {"A": 2, "B": 1, "C": 1}) == {"A": 50, "B": 25, "C": 25}
    # 101 cents by 3:1:1 — 60.6, 20.2, 20.2: the odd cent goes to the largest remainder.
    assert share_out(101, ["A", "B", "C"], {"A": 3, "B": 1, "C": 1}) == {"A": 61, "B": 20, "C": 20}
    assert share_out(10, ["A", "B", "C"]) == {"A": 4, "B": 3, "C": 3}
    assert share_out(0, []) == {}
    with pytest.raises(ValueError):
        share_out(5, [])


def test_two_tables_of_one_group_on_one_evening(client):
    key = create_group(client, members=[f"P{i}" for i in range(8)])["key"]
    opener = evening(client, key, ["P0", "P1", "P2", "P3"])
    play(client, opener, [FRAGE_WON])
    close(client, opener)
    carried = group(client, key)["pot_cents"]
    assert carried > 0
    table_a = evening(client, key, ["P0", "P1", "P2", "P3"])
    table_b = evening(client, key, ["P4", "P5", "P6", "P7"])
    assert table_a["balances"]["pot"] == carried  # the first to start takes the Haferl
    assert table_b["balances"]["pot"] == 200  # the second pays its stakes
    play(client, table_a, [FRAGE_WON, FRAGE_LOST])
    play(client, table_b, [BIG])
    assert conserved(client, key) == 0
    close(client, table_b)
    close(client, table_a)
    assert conserved(client, key) == 0


def test_one_settle_up_for_many_evenings(app, client):
    key = create_group(client, settle="collected")["key"]
    sessions = []
    for players in (FOUR, ["Anton", "Berta", "Emil"], FOUR[:3]):
        session = evening(client, key, players)
        play(client, session, [FRAGE_WON, BIG, FRAGE_LOST])
        close(client, session)
        sessions.append(session)
    collected = client.get(f"{API}/groups/{key}/settlement").get_json()
    assert collected["evenings"] == [s["key"] for s in sessions]
    expected: dict[str, int] = {}
    for session in sessions:
        for account, cents in settlement(client, session["key"]).items():
            expected[account] = expected.get(account, 0) + cents
    expected = {a: c for a, c in expected.items() if c}
    assert collected["balances"] == expected
    assert sum(collected["balances"].values()) == 0
    # The fewest transfers: exactly those of the summed balances, the Haferl a party.
    assert collected["transfers"] == [
        {"from": t.payer, "to": t.payee, "cents": t.cents} for t in settle(expected)
    ]
    assert len(collected["transfers"]) <= len(expected) - 1
    paid = client.post(f"{API}/groups/{key}/settlement/close").get_json()["paid"]
    assert paid == collected["evenings"]
    again = client.get(f"{API}/groups/{key}/settlement").get_json()
    assert again == {"evenings": [], "balances": {}, "transfers": []}
    # Paid again (a second tablet, a double tap): nothing left to pay, nothing written.
    before = paid_lines_and_version(app, key)
    second = client.post(f"{API}/groups/{key}/settlement/close")
    assert (second.status_code, second.get_json()) == (200, {"paid": []})
    assert paid_lines_and_version(app, key) == before
    assert before[0] == 1
    # A paid evening cannot be reopened.
    assert client.post(f"/t/{sessions[-1]['key']}/oeffnen").status_code == 302
    assert client.get(f"{API}/sessions/{sessions[-1]['key']}").get_json()["closed"] is True


def test_a_rename_shows_everywhere(client):
    key = create_group(client)["key"]
    session = evening(client, key, FOUR, first_dealer="Dieter")
    play(client, session, [{**FRAGE_WON, "declarer": "Anton"}, FRAGE_LOST])
    before = client.get(f"{API}/sessions/{session['key']}").get_json()
    response = client.put(f"{API}/groups/{key}/members/Anton", json={"name": "Toni"})
    assert response.status_code == 200, response.get_json()
    assert "Toni" in response.get_json()["members"]
    after = client.get(f"{API}/sessions/{session['key']}").get_json()
    assert "Toni" in after["players"] and "Anton" not in after["players"]
    assert after["hands"][0]["hand"]["declarer"] == "Toni"
    assert after["balances"]["Toni"] == before["balances"]["Anton"]
    close(client, session)
    lines = client.get(f"{API}/groups/{key}/standings").get_json()
    assert "Toni" in {line["player"] for line in lines}
    clash = client.put(f"{API}/groups/{key}/members/Toni", json={"name": "berta"})
    assert clash.status_code == 422


def test_a_players_statistics(client):
    key = create_group(client)["key"]
    session = evening(client, key, ["Anton", "Berta", "Charlotte"], first_dealer="Charlotte")
    play(
        client,
        session,
        [
            {**FRAGE_WON, "declarer": "Anton"},
            {"contract": "hand", "points": 80, "declarer": "Anton", "doublings": 1},
            {**FRAGE_LOST, "declarer": "Berta"},
        ],
    )
    close(client, session)
    stats = client.get(f"{API}/groups/{key}/players/Anton").get_json()
    assert stats["declared"] == 2
    assert stats["win_rate_by_contract"]["frage"] == {"declared": 1, "won": 1, "rate": 1.0}
    assert stats["average_points_as_declarer"] == 75.0
    assert stats["kontra_won"] == 1
    assert stats["biggest_win_cents"] > 0
    assert stats["balance_after_evening"][0] == 0 and len(stats["balance_after_evening"]) == 2
    assert client.get(f"{API}/groups/{key}/players/Nobody").status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "skat"}, "game"),
        ({"settle": "weekly"}, "settle"),
        ({"share_by": "luck"}, "share_by"),
        ({"carry_pot": "yes"}, "carry_pot"),
        ({"members": ["A", "a"]}, "members"),
        ({"members": "Anton"}, "members"),
    ],
)
def test_bad_groups_are_refused_with_the_field_named(client, body, field):
    response = client.post(
        f"{API}/groups",
        json={"game": "haferltarock", "system": "parlett-units", "members": FOUR, **body},
    )
    assert response.status_code == 422
    assert field in response.get_json()["error"]["fields"]


def test_an_unknown_group_is_404_and_an_open_evening_blocks_the_season_close(client):
    assert client.get(f"{API}/groups/no-such-group-key-0123456789").status_code == 404
    key = create_group(client)["key"]
    assert client.post(f"{API}/groups/{key}/season/close").status_code == 409  # no evening
    evening(client, key, FOUR)
    assert client.post(f"{API}/groups/{key}/season/close").status_code == 409  # one open
