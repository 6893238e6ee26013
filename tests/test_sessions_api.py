"""The session endpoints of API.md ("Sessions") and every error they answer with.

Figures are worked out by hand from RULES.md (parlett-units: a Frage won pays
1 + ⌊(p − 61)/5⌋ units from the Haferl, a hand game 2 + 2·⌊(p − T)/5⌋ units from each
defender; Strohmandeln after Beck: a simple win 2, a defender's win 3 game points).
"""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

import pytest

from scorer.domain import Hand
from scorer.domain.ledger import Ledger
from scorer.domain.model import POT
from scorer.domain.scoring import Rules
from scorer.services import table_reads
from scorer.store import table_rows
from scorer.store.models import HandRecord, TableSession
from tests.support.table_api import (
    API,
    PLAYERS,
    A,
    B,
    C,
    D,
    assert_error,
    count_rows,
    create,
    delete,
    frage,
    hand_game,
    put,
    read,
    record,
    session_body,
)

ON_POSTGRES = bool(os.environ.get("SCORER_TEST_DATABASE_URL"))


# --- helpers --------------------------------------------------------------------------------


def balances_sum_to_zero(session: dict[str, Any]) -> None:
    assert sum(session["balances"].values()) == 0


def apply_transfers(balances: dict[str, int], transfers: list[dict[str, Any]]) -> dict[str, int]:
    after = dict(balances)
    for t in transfers:
        assert t["cents"] > 0
        after[t["from"]] += t["cents"]
        after[t["to"]] -= t["cents"]
    return after


# --- create ---------------------------------------------------------------------------------


def test_create_returns_201_with_the_session_and_takes_the_first_stake(client):
    response = client.post(f"{API}/sessions", json=session_body(params={"unit_cents": 20}))
    assert response.status_code == 201
    session = response.get_json()
    assert session["name"] == "Stammtisch"
    assert session["game"] == "haferltarock"
    assert session["system"] == "parlett-units"
    assert session["players"] == PLAYERS
    assert session["params"]["unit_cents"] == 20
    assert session["params"]["stake_cents"] == 100  # the default, resolved
    assert session["balances"] == {A: -100, B: -100, C: -100, D: -100, POT: 400}
    assert session["round"] == 1
    assert session["next_dealer"] == D
    assert session["closed"] is False
    assert session["hands"] == []
    assert read(client, session["key"]) == session


def test_the_key_is_long_url_safe_and_new_each_time(client):
    keys = {create(client)["key"] for _ in range(5)}
    assert len(keys) == 5
    for key in keys:
        # ≥ 128 bits of base64url: at least 22 characters of [A-Za-z0-9_-].
        assert len(key) >= 22
        assert re.fullmatch(r"[A-Za-z0-9_-]+", key)


def test_a_pocket_system_takes_no_stake(client):
    session = create(client, game="tarok", system="multiples", players=PLAYERS[:3], first_dealer=C)
    assert session["balances"] == {A: 0, B: 0, C: 0, POT: 0}


def test_a_custom_stake_is_taken(client):
    session = create(client, params={"stake_cents": 30}, players=PLAYERS[:3], first_dealer=A)
    assert session["balances"] == {A: -30, B: -30, C: -30, POT: 90}
    assert session["next_dealer"] == A


BAD_SESSIONS = [
    ({"game": "skat"}, "game"),
    ({"game": None}, "game"),
    ({"game": 7}, "game"),
    ({"system": "bierdeckel"}, "system"),
    ({"system": "points-kasse"}, "system"),  # a system of another game
    ({"system": ["parlett-units"]}, "system"),
    ({"params": {"nonsense": 1}}, "params.nonsense"),
    ({"params": {"stake_cents": "many"}}, "params.stake_cents"),
    ({"params": {"stake_cents": 0}}, "params.stake_cents"),
    ({"params": {"stake_cents": 2.5}}, "params.stake_cents"),
    ({"params": {"refill": "yes"}}, "params.refill"),
    ({"params": {"pot_at_end": "burn"}}, "params.pot_at_end"),
    ({"params": {"tie": None}}, "params.tie"),
    ({"params": [1, 2]}, "params"),
    ({"players": ["Anton", "Berta"]}, "players"),
    ({"players": [*PLAYERS, "Emil"]}, "players"),
    ({"players": "Anton, Berta, Charlotte"}, "players"),
    ({"players": ["Anton", "Berta", 3]}, "players"),
    ({"players": ["Anton", "Berta", ""]}, "players"),
    ({"players": ["Anton", "Berta", "x" * 41]}, "players"),
    ({"players": ["Anton", "Berta", "Anton"], "first_dealer": "Anton"}, "players"),
    ({"players": ["Anton", "Berta", "anton"], "first_dealer": "Anton"}, "players"),
    ({"first_dealer": "Zoe"}, "first_dealer"),
    ({"first_dealer": 3}, "first_dealer"),
    ({"name": 42}, "name"),
    ({"name": "x" * 81}, "name"),
    ({"game": "strohmandeln", "system": "beck"}, "players"),  # four for a game of two
    ({"game": "tapp-tarock", "system": "tapp-points"}, "players"),  # tapp is for three
]


def test_create_refuses_a_bad_session(app, client):
    for overrides, field in BAD_SESSIONS:
        response = client.post(f"{API}/sessions", json=session_body(**overrides))
        assert_error(response, 422, "validation", field, case=overrides)
    assert count_rows(app, TableSession) == 0


def test_create_a_strohmandeln_session_of_two(client):
    session = create(client, game="strohmandeln", system="beck", players=[A, B], first_dealer=A)
    assert session["balances"] == {A: 0, B: 0, POT: 0}


def test_a_player_named_pot_is_refused(app, client):
    # "pot" is the account of the Haferl in every balance and net: a player of that name
    # would share it (his stake and winnings would vanish into the pot).
    for name in ["pot", "Pot", " POT "]:
        response = client.post(
            f"{API}/sessions", json=session_body(players=[name, B, C], first_dealer=B)
        )
        assert_error(response, 422, "validation", "players", case=name)
    assert count_rows(app, TableSession) == 0


# --- read -----------------------------------------------------------------------------------


def test_an_unknown_key_is_404_on_every_endpoint(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    for method, path in [
        ("get", ""),
        ("post", "/hands"),
        ("put", "/hands/1"),
        ("delete", "/hands/1?version=1"),
        ("get", "/settlement"),
        ("post", "/close"),
        ("get", "/history"),
    ]:
        body = {**frage(A, 70), "version": 1} if method in ("post", "put") else None
        url = f"{API}/sessions/no-such-key-0123456789abc{path}"
        assert_error(getattr(client, method)(url, json=body), 404, "not_found", case=path)
        # A key that differs from a real one in one character is another key.
        url = f"{API}/sessions/{key[:-1]}{'A' if key[-1] != 'A' else 'B'}{path}"
        assert_error(getattr(client, method)(url, json=body), 404, "not_found", case=path)


# --- record ---------------------------------------------------------------------------------


def test_record_returns_201_with_the_stored_hand(client):
    key = create(client)["key"]
    response = client.post(f"{API}/sessions/{key}/hands", json=frage(A, 70))
    assert response.status_code == 201
    stored = response.get_json()
    assert stored["number"] == 1
    assert stored["version"] == 1
    assert stored["dealer"] == D
    assert stored["hand"]["declarer"] == A
    assert stored["hand"]["points"] == 70
    assert stored["result"] == "won"
    # Frage won with 70: 1 + ⌊9/5⌋ = 2 units = 20 from the Haferl.
    assert stored["net"] == {A: 20, B: 0, C: 0, D: 0, POT: -20}
    assert stored["explanation"] and all("text" in line for line in stored["explanation"])
    session = read(client, key)
    assert session["hands"] == [stored]
    assert session["balances"] == {A: -80, B: -100, C: -100, D: -100, POT: 380}
    assert session["next_dealer"] == A
    balances_sum_to_zero(session)


def test_the_deal_rotates_and_the_dealer_sits_out(client):
    key = create(client)["key"]
    dealers = []
    for _ in range(6):
        dealer = read(client, key)["next_dealer"]
        declarer = PLAYERS[(PLAYERS.index(dealer) + 1) % 4]
        stored = record(client, key, hand_game(declarer, 70))
        dealers.append(stored["dealer"])
        # The dealer sits out: no part in the payments.
        assert stored["net"][dealer] == 0
        assert stored["net"][declarer] == 80
    assert dealers == [D, A, B, C, D, A]
    assert read(client, key)["next_dealer"] == B


def test_an_explicit_dealer_overrides_the_rotation(client):
    key = create(client)["key"]
    stored = record(client, key, {**frage(A, 70), "dealer": B})
    assert stored["dealer"] == B
    assert stored["net"][B] == 0
    assert read(client, key)["next_dealer"] == C


def test_three_players_the_dealer_plays_too(client):
    key = create(client, players=PLAYERS[:3], first_dealer=A)["key"]
    stored = record(client, key, hand_game(A, 70))
    assert stored["dealer"] == A
    assert stored["net"] == {A: 80, B: -40, C: -40, POT: 0}


def test_a_declarer_who_sits_out_is_422_and_nothing_is_stored(app, client):
    key = create(client)["key"]
    before = read(client, key)
    response = client.post(f"{API}/sessions/{key}/hands", json=frage(D, 70))
    assert_error(response, 422, "validation", "declarer")
    # Also with an explicit dealer.
    response = client.post(f"{API}/sessions/{key}/hands", json={**frage(B, 70), "dealer": B})
    assert_error(response, 422, "validation", "declarer")
    assert read(client, key) == before
    assert count_rows(app, HandRecord) == 0


BAD_HANDS = [
    (frage(A, 121), "points"),
    (frage(A, -1), "points"),
    (frage(A, "seventy"), "points"),
    (frage(A, 70.5), "points"),
    ({"declarer": A, "contract": "frage"}, "points"),
    (frage(A, 10**30), "points"),
    (
        {"declarer": A, "contract": "frage", "points": 70, "defender_points": 50},
        "defender_points",
    ),
    ({"declarer": A, "contract": "frage", "defender_points": 121}, "defender_points"),
    (frage(A, 70, contract="bettel"), "contract"),
    (frage(A, 70, contract=None), "contract"),
    (hand_game(A, 70, bid=63), "bid"),
    (hand_game(A, 70, bid=121), "bid"),
    (hand_game(A, 70, bid="durch"), "bid"),  # parlett-units has no Durch
    (frage(A, 70, bid=66), "bid"),  # a pick-up game cannot be bid above 61
    (frage(A, 70, doublings=3), "doublings"),  # max_doublings 2
    (frage(A, 70, doublings=-1), "doublings"),
    (frage(A, 70, doublings="Kontra"), "doublings"),
    (frage("Zoe", 70), "declarer"),
    (frage("", 70), "declarer"),
    (frage(None, 70), "declarer"),
    (frage(A, 70, trump="pik"), "trump"),
    (frage(A, 70, trump=5), "trump"),
    (frage(A, 70, all_tricks="yes"), "all_tricks"),
    (frage(A, 70, all_tricks=True), "all_tricks"),  # all tricks means 120
    (frage(A, 120, all_tricks=True, no_tricks=True), "all_tricks"),
    (frage(A, 70, no_tricks=1), "no_tricks"),
    (frage(A, 70, dealer="Zoe"), "dealer"),
    (frage(A, 70, dealer=1), "dealer"),
    (frage(A, 70, bonuses=[{"id": "pagat_ultimo"}]), "bonuses"),
    (frage(A, 70, bonuses="pagat"), "bonuses"),
    (frage(A, 70, colour="red"), "colour"),  # unknown field
]


def test_record_refuses_a_bad_hand_field_by_field(app, client):
    key = create(client)["key"]
    before = read(client, key)
    for hand, field in BAD_HANDS:
        response = client.post(f"{API}/sessions/{key}/hands", json=hand)
        assert_error(response, 422, "validation", field, case=hand)
    assert read(client, key) == before
    assert count_rows(app, HandRecord) == 0


def test_put_refuses_a_bad_hand_field_by_field(client):
    key = create(client)["key"]
    record(client, key, frage(B, 70))  # dealt by D, who sits out
    before = read(client, key)
    for hand, field in BAD_HANDS:
        response = put(client, key, 1, hand, version=1)
        assert_error(response, 422, "validation", field, case=hand)
    assert read(client, key) == before


def test_defender_points_are_turned_into_the_declarers(client):
    key = create(client)["key"]
    stored = record(client, key, {"declarer": A, "contract": "frage", "defender_points": 50})
    assert stored["hand"]["points"] == 70
    assert stored["net"][A] == 20


def test_an_idempotency_key_returns_the_first_hand_and_stores_no_second(app, client):
    key = create(client)["key"]
    first = client.post(
        f"{API}/sessions/{key}/hands", json=frage(A, 70), headers={"Idempotency-Key": "tap-1"}
    )
    assert first.status_code == 201
    again = client.post(
        f"{API}/sessions/{key}/hands", json=frage(A, 70), headers={"Idempotency-Key": "tap-1"}
    )
    assert again.status_code in (200, 201)
    assert again.get_json() == first.get_json()
    session = read(client, key)
    assert len(session["hands"]) == 1
    assert session["balances"][A] == -80
    assert count_rows(app, HandRecord) == 1
    # Another key is another hand.
    other = record(client, key, frage(B, 70), **{"Idempotency-Key": "tap-2"})
    assert other["number"] == 2
    assert count_rows(app, HandRecord) == 2


def test_an_idempotency_key_belongs_to_its_session(client):
    one, two = create(client)["key"], create(client)["key"]
    first = record(client, one, frage(A, 70), **{"Idempotency-Key": "same"})
    second = record(client, two, frage(B, 90), **{"Idempotency-Key": "same"})
    assert first["hand"]["declarer"] == A
    assert second["hand"]["declarer"] == B
    assert len(read(client, two)["hands"]) == 1


def test_an_overlong_idempotency_key_is_422(client):
    key = create(client)["key"]
    response = client.post(
        f"{API}/sessions/{key}/hands", json=frage(A, 70), headers={"Idempotency-Key": "k" * 201}
    )
    assert_error(response, 422, "validation")
    assert read(client, key)["hands"] == []


# --- edit (PUT) -----------------------------------------------------------------------------


def test_put_corrects_a_hand_and_bumps_its_version(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    response = put(client, key, 1, hand_game(A, 83, bid=76), version=1)
    assert response.status_code == 200
    edited = response.get_json()
    assert edited["number"] == 1
    assert edited["version"] == 2
    assert edited["dealer"] == D
    assert edited["hand"]["contract"] == "hand"
    # Hand bid 76, took 83: 2 + 2·⌊7/5⌋ = 4 units = 40 from each defender (RULES.md §3.4).
    assert edited["net"] == {A: 80, B: -40, C: -40, D: 0, POT: 0}
    session = read(client, key)
    assert session["hands"] == [edited]
    assert session["balances"] == {A: -20, B: -140, C: -140, D: -100, POT: 400}
    # Edit again at the new version.
    assert put(client, key, 1, frage(A, 61), version=2).get_json()["version"] == 3


def test_put_with_a_stale_version_is_409_and_changes_nothing(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    assert put(client, key, 1, frage(A, 80), version=1).status_code == 200
    before = read(client, key)
    response = put(client, key, 1, frage(A, 120), version=1)
    assert_error(response, 409, "conflict")
    assert read(client, key) == before


def test_put_without_a_whole_version_is_422(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    before = read(client, key)
    for version in [None, "1", 1.0, True, [1], {"v": 1}]:
        body = frage(A, 80) if version is None else {**frage(A, 80), "version": version}
        response = client.put(f"{API}/sessions/{key}/hands/1", json=body)
        assert_error(response, 422, "validation", "version", case=version)
    assert read(client, key) == before


def test_put_an_unknown_hand_is_404(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    assert_error(put(client, key, 2, frage(B, 70), version=1), 404, "not_found")
    assert_error(put(client, key, 0, frage(B, 70), version=1), 404)


def test_put_that_breaks_a_rule_is_422_and_changes_nothing(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    record(client, key, frage(B, 70))
    before = read(client, key)
    # Hand 1 was dealt by D, who sits out.
    assert_error(put(client, key, 1, frage(D, 70), version=1), 422, "validation", "declarer")
    assert_error(put(client, key, 1, frage(A, 130), version=1), 422, "validation", "points")
    # Moving the deal to the declarer makes him sit out.
    response = put(client, key, 1, {**frage(A, 70), "dealer": A}, version=1)
    assert_error(response, 422, "validation", "declarer")
    assert read(client, key) == before


def test_put_can_move_the_deal(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    response = put(client, key, 1, {**frage(A, 70), "dealer": B}, version=1)
    assert response.status_code == 200
    assert response.get_json()["dealer"] == B
    assert response.get_json()["sitting_out"] == B
    assert read(client, key)["next_dealer"] == C


# --- an evening of ten hands: re-settling after an edit or a void ----------------------------

# Stake 30 × 4: the Haferl holds 120 a round. Dealers D A B C D A B C D A; each declarer is
# the player after the dealer. Hands 1–9 are Frage won with 66 (2 units = 20 from the pot),
# hand 10 a Frage won with 120 (12 units = 120 wanted, capped at what the pot holds).
EVENING_DECLARERS = [A, B, C, D, A, B, C, D, A, B]
EVENING_POINTS = [66] * 9 + [120]


def play_evening(client) -> str:
    key = create(client, params={"stake_cents": 30})["key"]
    for declarer, points in zip(EVENING_DECLARERS, EVENING_POINTS, strict=True):
        record(client, key, frage(declarer, points))
    return key


def column(session: dict[str, Any], name: str) -> list[Any]:
    return [hand[name] for hand in session["hands"]]


def fresh_fold(app, key: str):
    with app.app_context():
        return table_reads.fold_session(table_rows.get_session(key))


def assert_cache_matches_a_fresh_fold(app, key: str) -> None:
    """The cached `state` and every hand's cached columns equal a fresh fold."""
    with app.app_context():
        session = table_rows.get_session(key)
        entries, state = table_reads.fold_session(session)
        assert session.state == state.to_json()
        live = table_reads.hands_of(session)
        assert [r.number for r in live] == [e.number for e in entries]
        for record_, entry in zip(live, entries, strict=True):
            assert record_.dealer == entry.dealer
            assert record_.result == entry.score.result
            assert record_.net == entry.net
            assert record_.explanation == [line.to_json() for line in entry.score.explanation]
            assert record_.sitting_out == entry.sitting_out
            assert record_.round == entry.round
            assert record_.new_round == entry.new_round
            assert record_.round_end == entry.round_end
            assert record_.pot_after == entry.pot_after
            assert record_.factor == entry.factor
        for record_ in table_reads.hands_of(session, include_voided=True):
            if record_.voided:
                assert record_.result is None
                assert record_.net is None
                assert record_.pot_after is None


def test_the_evening_as_recorded(app, client):
    key = play_evening(client)
    session = read(client, key)
    assert column(session, "dealer") == [D, A, B, C, D, A, B, C, D, A]
    assert column(session, "pot_after") == [100, 80, 60, 40, 20, 0, 100, 80, 60, 0]
    assert column(session, "round") == [1] * 6 + [2] * 4
    assert column(session, "new_round") == [False] * 6 + [True] + [False] * 3
    assert column(session, "round_end") == [False] * 5 + [True] + [False] * 3 + [True]
    # Hand 10 wants 120, the pot holds 60.
    assert session["hands"][9]["net"] == {A: 0, B: 60, C: 0, D: 0, POT: -60}
    # Stakes 2 × 30 each; A won hands 1, 5, 9; B 2, 6 and 60 in 10; C 3, 7; D 4, 8.
    assert session["balances"] == {A: 0, B: 40, C: -20, D: -20, POT: 0}
    assert session["round"] == 2
    assert_cache_matches_a_fresh_fold(app, key)


def test_an_edit_in_the_middle_resettles_every_later_hand(app, client):
    key = play_evening(client)
    before = read(client, key)
    # Hand 2 was really a Frage with 120: it wants 120, the pot holds 100 → round end.
    response = put(client, key, 2, frage(B, 120), version=1)
    assert response.status_code == 200
    assert response.get_json()["net"] == {A: 0, B: 100, C: 0, D: 0, POT: -100}
    after = read(client, key)
    assert column(after, "pot_after") == [100, 0, 100, 80, 60, 40, 20, 0, 100, 0]
    assert column(after, "round") == [1, 1, 2, 2, 2, 2, 2, 2, 3, 3]
    assert column(after, "new_round") == [False, False, True] + [False] * 5 + [True, False]
    assert column(after, "round_end") == [False, True] + [False] * 5 + [True, False, True]
    # Hand 10 now finds 100 in the pot.
    assert after["hands"][9]["net"] == {A: 0, B: 100, C: 0, D: 0, POT: -100}
    # Every later hand changed its pot_after or its net.
    for old, new in zip(before["hands"][2:], after["hands"][2:], strict=True):
        assert (old["pot_after"], old["net"]) != (new["pot_after"], new["net"])
        assert new["version"] == old["version"] == 1  # only hand 2 was edited
    # Stakes 3 × 30; winnings A 60, B 20 + 100 + 20 + 100, C 40, D 40.
    assert after["balances"] == {A: -30, B: 130, C: -50, D: -50, POT: 0}
    assert after["round"] == 3
    # The final balances equal a fresh fold of the corrected facts, from scratch.
    book = Ledger(Rules.build("haferltarock", "parlett-units", {"stake_cents": 30}), PLAYERS, D)
    facts = [frage(d, p) for d, p in zip(EVENING_DECLARERS, EVENING_POINTS, strict=True)]
    facts[1] = frage(B, 120)
    _, state = book.fold((n, Hand(**f), None) for n, f in enumerate(facts, start=1))
    assert after["balances"] == {**state.balances, POT: state.pot}
    _, folded = fresh_fold(app, key)
    assert after["balances"] == {**folded.balances, POT: folded.pot}
    assert_cache_matches_a_fresh_fold(app, key)


def test_delete_voids_a_hand_and_resettles_every_later_hand(app, client):
    key = play_evening(client)
    before = read(client, key)
    response = delete(client, key, 2, 1)
    assert response.status_code == 204
    assert response.get_data() == b""
    after = read(client, key)
    assert [h["number"] for h in after["hands"]] == [1, 3, 4, 5, 6, 7, 8, 9, 10]
    assert column(after, "dealer") == [D, B, C, D, A, B, C, D, A]  # the deals stay
    assert column(after, "pot_after") == [100, 80, 60, 40, 20, 0, 100, 80, 0]
    assert column(after, "new_round") == [False] * 6 + [True, False, False]
    # Hand 10 now finds 80 in the pot.
    assert after["hands"][-1]["net"] == {A: 0, B: 80, C: 0, D: 0, POT: -80}
    for old, new in zip(before["hands"][2:], after["hands"][1:], strict=True):
        assert (old["pot_after"], old["net"]) != (new["pot_after"], new["net"])
    assert sum(after["balances"].values()) == 0
    # Stakes 2 × 30; A 60, B 20 + 80, C 40, D 40.
    assert after["balances"] == {A: 0, B: 40, C: -20, D: -20, POT: 0}
    # Gone from the ledger, kept in the history.
    assert_error(client.get(f"{API}/sessions/{key}/hands/2"), 404)
    history = client.get(f"{API}/sessions/{key}/history").get_json()
    assert [e["action"] for e in history] == ["create"] + ["record"] * 10 + ["void"]
    assert history[-1]["hand"] == 2
    assert history[-1]["data"]["hand"]["declarer"] == B
    assert history[2]["hand"] == 2
    assert_cache_matches_a_fresh_fold(app, key)


def test_delete_with_a_stale_version_is_409(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    assert put(client, key, 1, frage(A, 80), version=1).status_code == 200
    before = read(client, key)
    assert_error(delete(client, key, 1, 1), 409, "conflict")
    assert read(client, key) == before
    assert delete(client, key, 1, 2).status_code == 204
    # Already voided: no such hand in the ledger.
    assert_error(delete(client, key, 1, 3), 404, "not_found")
    assert_error(put(client, key, 1, frage(A, 80), version=3), 404, "not_found")


def test_delete_without_a_whole_version_is_422(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    before = read(client, key)
    # '²' and '①' pass str.isdigit() but are no numbers; '١' (Arabic-Indic one) is int 1.
    for query in [
        "",
        "?version=",
        "?version=abc",
        "?version=-1",
        "?version=1.0",
        "?v=1",
        "?version=%C2%B2",
        "?version=%E2%91%A0",
        "?version=%D9%A1",
    ]:
        response = client.delete(f"{API}/sessions/{key}/hands/1{query}")
        assert_error(response, 422, "validation", "version", case=query)
    assert read(client, key) == before


def test_delete_an_unknown_hand_is_404(client):
    key = create(client)["key"]
    assert_error(delete(client, key, 1, 1), 404, "not_found")


def test_the_largest_hand_number_is_404(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    url = f"{API}/sessions/{key}/hands/{2**31 - 1}"
    assert_error(client.get(url), 404, case="GET")
    assert_error(client.put(url, json={**frage(A, 70), "version": 1}), 404, case="PUT")
    assert_error(client.delete(f"{url}?version=1"), 404, case="DELETE")


@pytest.mark.parametrize("number", [2**31, 10**20])
def test_a_huge_hand_number_is_404(client, number):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    url = f"{API}/sessions/{key}/hands/{number}"
    assert_error(client.get(url), 404, case="GET")
    assert_error(client.put(url, json={**frage(A, 70), "version": 1}), 404, case="PUT")
    assert_error(client.delete(f"{url}?version=1"), 404, case="DELETE")


# --- settlement and close -------------------------------------------------------------------


def test_settlement_shares_the_pot_and_the_transfers_settle_exactly(client):
    key = create(client)["key"]
    record(client, key, frage(A, 61))  # the Haferl pays A 1 unit = 10
    response = client.get(f"{API}/sessions/{key}/settlement")
    assert response.status_code == 200
    result = response.get_json()
    # Pot 390 = 4 × 97 + 2: A and B (first seats) 98, C and D 97.
    assert result["balances"] == {A: 8, B: -2, C: -3, D: -3}
    assert sorted(result["transfers"], key=lambda t: t["from"]) == [
        {"from": B, "to": A, "cents": 2},
        {"from": C, "to": A, "cents": 3},
        {"from": D, "to": A, "cents": 3},
    ]
    assert set(apply_transfers(result["balances"], result["transfers"]).values()) == {0}


def test_settlement_of_an_evening_with_direct_payments(client):
    key = create(client, players=PLAYERS[:3], first_dealer=A)["key"]
    record(client, key, hand_game(A, 83, bid=76))  # 4 units = 40 from B and C
    record(client, key, frage(B, 40))  # lost: m = 1 + ⌊20/5⌋ = 5 → B pays 50, pot pays 50
    record(client, key, frage(C, 95))  # won: 1 + ⌊34/5⌋ = 7 → the pot pays 70
    session = read(client, key)
    # A −100 + 80; B −100 − 40 − 50; C −100 − 40 + 70; defenders of hand 2: A and C get 50.
    assert session["balances"] == {A: 30, B: -190, C: -20, POT: 180}
    result = client.get(f"{API}/sessions/{key}/settlement").get_json()
    # Pot 180 shared 60 each.
    assert result["balances"] == {A: 90, B: -130, C: 40}
    assert len(result["transfers"]) == 2
    assert set(apply_transfers(result["balances"], result["transfers"]).values()) == {0}


def test_settlement_with_keep_shows_the_pot(client):
    key = create(client, params={"pot_at_end": "keep"})["key"]
    record(client, key, frage(A, 61))
    result = client.get(f"{API}/sessions/{key}/settlement").get_json()
    assert result["balances"] == {A: -90, B: -100, C: -100, D: -100, POT: 390}
    assert set(apply_transfers(result["balances"], result["transfers"]).values()) == {0}


def test_close_ends_the_evening(client):
    key = create(client)["key"]
    record(client, key, frage(A, 61))
    settlement_before = client.get(f"{API}/sessions/{key}/settlement").get_json()
    response = client.post(f"{API}/sessions/{key}/close")
    assert response.status_code == 200
    assert response.get_json()["closed"] is True
    session = read(client, key)
    assert session["closed"] is True
    assert_error(client.post(f"{API}/sessions/{key}/hands", json=frage(B, 70)), 409, "conflict")
    assert_error(put(client, key, 1, frage(A, 70), version=1), 409, "conflict")
    assert_error(delete(client, key, 1, 1), 409, "conflict")
    assert_error(client.post(f"{API}/sessions/{key}/close"), 409, "conflict")
    assert read(client, key) == session
    settlement = client.get(f"{API}/sessions/{key}/settlement")
    assert settlement.status_code == 200
    assert settlement.get_json()["balances"] == settlement_before["balances"]
    assert settlement.get_json()["transfers"] == settlement_before["transfers"]


# --- malformed and garbage requests ---------------------------------------------------------


def test_malformed_json_is_400(app, client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    before = read(client, key)
    for raw in [b"{", b"not json", b"", b"[1, 2]", b'"text"', b"null", b"\xff", b"{'a': 1}"]:
        for method, url in [
            ("post", f"{API}/sessions"),
            ("post", f"{API}/sessions/{key}/hands"),
            ("put", f"{API}/sessions/{key}/hands/1"),
        ]:
            response = getattr(client, method)(url, data=raw, content_type="application/json")
            assert_error(response, 400, case=(method, url, raw))
    assert read(client, key) == before
    assert count_rows(app, TableSession) == 1


GARBAGE: list[Any] = [
    None,
    True,
    0,
    -1,
    2.5,
    10**30,
    -(10**30),
    "",
    "x" * 5000,
    "💥",
    [],
    [None],
    {},
    {"a": {"b": [1]}},
]


def test_garbage_in_any_field_of_create_is_never_a_500(client):
    fields = ["name", "game", "system", "params", "players", "first_dealer"]
    for field in fields:
        for value in GARBAGE:
            response = client.post(f"{API}/sessions", json=session_body(**{field: value}))
            assert response.status_code in (201, 422), (field, value, response.status_code)
    for param in ["unit_cents", "stake_cents", "refill", "pot_at_end", "tie", "max_doublings"]:
        for value in GARBAGE:
            response = client.post(f"{API}/sessions", json=session_body(params={param: value}))
            assert response.status_code in (201, 422), (param, value, response.status_code)


def test_garbage_in_any_field_of_a_hand_is_never_a_500(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    fields = [
        "declarer",
        "contract",
        "trump",
        "bid",
        "points",
        "defender_points",
        "all_tricks",
        "no_tricks",
        "doublings",
        "bonuses",
        "dealer",
    ]
    for field in fields:
        for value in GARBAGE:
            hand = {**frage(B, 70), field: value}
            response = client.post(f"{API}/sessions/{key}/hands", json=hand)
            assert response.status_code in (201, 422), (field, value, response.status_code)
            version = read(client, key)["hands"][0]["version"]
            response = put(client, key, 1, hand, version)
            assert response.status_code in (200, 422), (field, value, response.status_code)
    for value in GARBAGE:
        hand = {**frage(B, 70), "bonuses": [value, {"id": value, "side": value, "made": value}]}
        response = client.post(f"{API}/sessions/{key}/hands", json=hand)
        assert response.status_code == 422
        response = put(client, key, 1, {**frage(B, 70)}, value)
        assert response.status_code in (200, 404, 409, 422), (value, response.status_code)
    session = read(client, key)
    balances_sum_to_zero(session)


def test_garbage_paths_and_queries_are_never_a_500(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    for path in [
        f"/sessions/{key}/hands/abc",
        f"/sessions/{key}/hands/-1",
        f"/sessions/{key}/hands/1/extra",
        f"/sessions/{'k' * 3000}",
        "/sessions/",
    ]:
        for method in ("get", "put", "delete", "post"):
            response = getattr(client, method)(API + path, json={"version": 1})
            assert response.status_code < 500, (method, path, response.status_code)
    for query in ["version=1&version=2", "version=%00", "version=" + "9" * 50, "version= 1"]:
        response = client.delete(f"{API}/sessions/{key}/hands/1?{query}")
        assert response.status_code < 500, (query, response.status_code)
    response = client.post(
        f"{API}/sessions/{key}/hands", data=json.dumps(frage(B, 70)), content_type="text/plain"
    )
    assert response.status_code < 500


def test_nul_characters_are_never_a_500(client):
    """PostgreSQL refuses NUL in text columns: such text is refused before it gets there."""
    for overrides in [
        {"name": "Stamm\x00tisch"},
        {"players": ["Anton\x00", B, C], "first_dealer": "Anton\x00"},
        {"players": [A, B, "Charlotte\x00"], "first_dealer": A},
    ]:
        response = client.post(f"{API}/sessions", json=session_body(**overrides))
        assert response.status_code == 400, (overrides, response.status_code)
        assert response.get_json()["error"]["code"] == "malformed_json"
    key = create(client)["key"]
    assert_error(client.get(f"{API}/sessions/ab%00cd"), 404, case="key")
    response = client.post(
        f"{API}/sessions/{key}/hands", json=frage(A, 70), headers={"Idempotency-Key": "a\x00b"}
    )
    assert response.status_code == 422, ("Idempotency-Key", response.status_code)
    assert read(client, key)["hand_count"] == 0


# --- the cache equals a fresh fold after any sequence of changes -----------------------------


def random_hand(rng: random.Random, active: list[str]) -> dict[str, Any]:
    declarer = rng.choice(active)
    if rng.random() < 0.6:
        return frage(declarer, rng.choice([30, 45, 58, 60, 61, 66, 75, 90, 110, 120]))
    bid = rng.choice([61, 61, 66, 76])
    hand = hand_game(declarer, rng.randint(bid - 20, 120), bid=bid)
    if rng.random() < 0.2:
        hand["doublings"] = rng.randint(1, 2)
    return hand


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cached_state_equals_a_fresh_fold_after_random_changes(app, client, seed):
    rng = random.Random(seed)
    key = create(client, params={"stake_cents": 40})["key"]
    # The test's own model: number → (facts, dealer), to fold independently at the end.
    live: dict[int, tuple[dict[str, Any], str]] = {}
    done = {"record": 0, "refused": 0, "edit": 0, "void": 0}
    round_ends = 0
    for _ in range(30):
        session = read(client, key)
        roll = rng.random()
        if roll < 0.55 or not live:
            dealer = session["next_dealer"]
            active = [p for p in PLAYERS if p != dealer]
            if rng.random() < 0.1:  # a declarer who sits out: refused, nothing changes
                response = client.post(f"{API}/sessions/{key}/hands", json=frage(dealer, 70))
                assert_error(response, 422, field="declarer")
                assert read(client, key) == session
                done["refused"] += 1
                continue
            hand = random_hand(rng, active)
            stored = record(client, key, hand)
            live[stored["number"]] = (hand, stored["dealer"])
            done["record"] += 1
        elif roll < 0.85:
            target = rng.choice(session["hands"])
            if rng.random() < 0.15:  # a stale version: refused
                response = put(client, key, target["number"], target["hand"], target["version"] - 1)
                assert response.status_code in (409, 422)
                assert read(client, key) == session
                done["refused"] += 1
                continue
            dealer = target["dealer"]
            hand = random_hand(rng, [p for p in PLAYERS if p != dealer])
            response = put(client, key, target["number"], hand, target["version"])
            assert response.status_code == 200, response.get_json()
            live[target["number"]] = (hand, dealer)
            done["edit"] += 1
        else:
            target = rng.choice(session["hands"])
            assert delete(client, key, target["number"], target["version"]).status_code == 204
            del live[target["number"]]
            done["void"] += 1
        assert_cache_matches_a_fresh_fold(app, key)
        now = read(client, key)
        balances_sum_to_zero(now)
        round_ends = max(round_ends, sum(h["round_end"] for h in now["hands"]))
    # The seeds exercise every kind of change and at least one round end (pot cap).
    assert done["record"] >= 10 and done["edit"] >= 3 and done["void"] >= 2, done
    assert round_ends >= 1
    # An independent fold of the test's own record of the evening.
    book = Ledger(Rules.build("haferltarock", "parlett-units", {"stake_cents": 40}), PLAYERS, D)
    entries, state = book.fold(
        (n, Hand(**facts), dealer) for n, (facts, dealer) in sorted(live.items())
    )
    session = read(client, key)
    assert session["balances"] == {**state.balances, POT: state.pot}
    assert session["next_dealer"] == state.next_dealer
    assert session["round"] == state.round
    assert [h["net"] for h in session["hands"]] == [e.net for e in entries]
    assert [h["pot_after"] for h in session["hands"]] == [e.pot_after for e in entries]


# --- Strohmandeln through the API: a draw doubles the next hand ------------------------------


def test_strohmandeln_a_draw_doubles_the_next_hand(app, client):
    key = create(client, game="strohmandeln", system="beck", players=[A, B], first_dealer=A)["key"]

    def game(declarer: str, points: int) -> dict[str, Any]:
        return {"declarer": declarer, "contract": "game", "points": points}

    draw = record(client, key, game(A, 35))
    assert draw["result"] == "draw"
    assert draw["net"] == {A: 0, B: 0, POT: 0}
    # Beck: the declarer's simple win is 2 points × 10 ct = 20, doubled after the draw.
    doubled = record(client, key, game(B, 40))
    assert doubled["net"] == {A: -40, B: 40, POT: 0}
    single = record(client, key, game(B, 40))
    assert single["net"] == {A: -20, B: 20, POT: 0}
    assert read(client, key)["balances"] == {A: -60, B: 60, POT: 0}
    # Hand 1 was really won by A with 40: no draw, so hand 2 is re-settled single.
    assert put(client, key, 1, game(A, 40), version=1).status_code == 200
    session = read(client, key)
    assert [h["net"][A] for h in session["hands"]] == [20, -20, -20]
    assert session["balances"] == {A: -20, B: 20, POT: 0}
    # Hand 3 becomes a draw too late to matter, hand 1 a draw again: hand 2 doubles again.
    assert put(client, key, 1, game(A, 35), version=2).status_code == 200
    session = read(client, key)
    assert [h["net"][A] for h in session["hands"]] == [0, -40, -20]
    # Voiding the draw takes the doubling away.
    assert delete(client, key, 1, 3).status_code == 204
    session = read(client, key)
    assert [h["net"][A] for h in session["hands"]] == [-20, -20]
    # Two draws in a row: the next hand counts four times (a defender's win 3 × 10 × 4).
    record(client, key, game(A, 35))
    record(client, key, game(B, 35))
    quadrupled = record(client, key, game(A, 20))
    assert quadrupled["net"] == {A: -120, B: 120, POT: 0}
    assert_cache_matches_a_fresh_fold(app, key)
    result = client.get(f"{API}/sessions/{key}/settlement").get_json()
    assert result["balances"] == {A: -160, B: 160}
    assert result["transfers"] == [{"from": A, "to": B, "cents": 160}]


def test_strohmandeln_without_doubling(client):
    key = create(
        client,
        game="strohmandeln",
        system="beck",
        players=[A, B],
        first_dealer=A,
        params={"draw_doubles_next": False},
    )["key"]
    record(client, key, {"declarer": A, "contract": "game", "points": 35})
    second = record(client, key, {"declarer": B, "contract": "game", "points": 40})
    assert second["net"] == {A: -20, B: 20, POT: 0}


def test_a_polling_tablet_gets_304_until_the_table_changes(client):
    key = client.post(
        "/api/v1/sessions",
        json={"game": "haferltarock", "system": "parlett-units", "players": ["A", "B", "C"]},
    ).get_json()["key"]
    first = client.get(f"/api/v1/sessions/{key}")
    etag = first.headers["ETag"]
    assert client.get(f"/api/v1/sessions/{key}", headers={"If-None-Match": etag}).status_code == 304
    hand = {"declarer": "A", "contract": "frage", "points": 70}
    assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
    after = client.get(f"/api/v1/sessions/{key}", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag
    assert [h["number"] for h in after.get_json()["hands"]] == [1]
    assert after.get_json()["hands"][0] == client.get(f"/api/v1/sessions/{key}/hands/1").get_json()
