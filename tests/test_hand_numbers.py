"""A hand is entered once (API.md): a device says which hand it enters with `number`.

The number it showed is the next one → stored; a stored one → 409 `hand_exists` with the
stored hand, nothing stored; beyond the next → 422. A struck-out hand keeps its number.
"""

from __future__ import annotations

import pytest

from scorer.store.models import HandRecord
from tests.support.table_api import (
    API,
    A,
    B,
    C,
    assert_error,
    count_rows,
    create,
    delete,
    frage,
    read,
    record,
)


def post(client, key: str, hand: dict, **headers: str):
    return client.post(f"{API}/sessions/{key}/hands", json=hand, headers=headers)


def test_the_next_number_is_stored(client):
    key = create(client)["key"]
    assert record(client, key, {**frage(A, 70), "number": 1})["number"] == 1
    assert record(client, key, {**frage(B, 70), "number": 2})["number"] == 2
    assert record(client, key, frage(C, 70))["number"] == 3  # without a number: appended


def test_a_stored_number_is_409_hand_exists_with_the_stored_hand(app, client):
    key = create(client)["key"]
    stored = record(client, key, {**frage(B, 66), "number": 1})
    before = read(client, key)
    response = post(client, key, {**frage(A, 90), "number": 1})
    assert_error(response, 409, "hand_exists")
    body = response.get_json()
    assert body["error"]["fields"] == {}
    assert body["hand"]["number"] == 1
    assert body["hand"]["hand"] == stored["hand"]
    assert body["hand"]["voided"] is False
    assert body["next_number"] == 2
    assert "Berta" in body["error"]["message"] and "66" in body["error"]["message"]
    assert count_rows(app, HandRecord) == 1
    after = read(client, key)
    assert after["balances"] == before["balances"]


def test_the_message_is_in_the_readers_language(client):
    key = create(client)["key"]
    record(client, key, {**frage(B, 66), "number": 1})
    response = post(client, key, {**frage(B, 66), "number": 1}, **{"Accept-Language": "de"})
    assert response.status_code == 409
    message = response.get_json()["error"]["message"]
    assert message == (
        "Spiel 1 wurde schon auf einem anderen Gerät eingetragen: Berta, Frage, 66 Augen"
    )
    english = post(client, key, {**frage(B, 66), "number": 1}).get_json()["error"]["message"]
    assert english == "Hand 1 was entered on another device already: Berta, Frage, 66 card points"


@pytest.mark.parametrize("number", [3, 99, 0, -1, "2", 1.0, True, None])
def test_a_number_beyond_the_next_or_not_a_number_is_422(app, client, number):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    if number is None:  # null: the same as none given
        assert record(client, key, {**frage(B, 70), "number": None})["number"] == 2
        return
    response = post(client, key, {**frage(B, 70), "number": number})
    assert_error(response, 422, "validation", field="number")
    assert "2" in response.get_json()["error"]["fields"]["number"][0]
    assert count_rows(app, HandRecord) == 1


def test_a_struck_out_hand_keeps_its_number(client):
    key = create(client)["key"]
    record(client, key, {**frage(A, 70), "number": 1})
    first = record(client, key, {**frage(B, 70), "number": 2})
    assert delete(client, key, 2, first["version"]).status_code == 204
    response = post(client, key, {**frage(C, 70), "number": 2})
    assert_error(response, 409, "hand_exists")
    assert response.get_json()["hand"]["voided"] is True
    assert response.get_json()["next_number"] == 3
    assert record(client, key, {**frage(C, 70), "number": 3})["number"] == 3
    numbers = [h["number"] for h in read(client, key)["hands"]]
    assert numbers == [1, 3]


def test_a_retry_with_its_idempotency_key_gets_its_hand_not_a_conflict(app, client):
    key = create(client)["key"]
    first = post(client, key, {**frage(A, 70), "number": 1}, **{"Idempotency-Key": "q-1"})
    again = post(client, key, {**frage(A, 70), "number": 1}, **{"Idempotency-Key": "q-1"})
    assert first.status_code == 201 and again.status_code in (200, 201)
    assert again.get_json() == first.get_json()
    assert count_rows(app, HandRecord) == 1


def test_a_closed_table_is_a_plain_conflict(client):
    key = create(client)["key"]
    record(client, key, frage(A, 70))
    assert client.post(f"{API}/sessions/{key}/close").status_code == 200
    assert_error(post(client, key, {**frage(B, 70), "number": 2}), 409, "conflict")


def test_an_edit_may_not_carry_a_number(client):
    key = create(client)["key"]
    stored = record(client, key, frage(A, 70))
    response = client.put(
        f"{API}/sessions/{key}/hands/1",
        json={**frage(A, 75), "version": stored["version"], "number": 1},
    )
    assert_error(response, 422, "validation", field="number")
