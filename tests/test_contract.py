"""The API's bodies declared once (scorer.api.contract): a request's model refuses in the
services' words and in the reader's language, the answers carry exactly what their models
declare, and the OpenAPI document is made from the same models."""

from __future__ import annotations

import random

import pytest

from scorer.api import answers, bodies
from scorer.api.contract import validated
from scorer.api.openapi import document
from scorer.domain import GAMES, RuleError
from scorer.domain.limits import MAX_BONUSES, MAX_PLAYER_NAME, MAX_TOURNAMENT_ROUNDS
from tests.support.tournaments import API, create, created, draw, organiser, play_round

HAFERL = GAMES["haferltarock"]
TABLE = {"game": "haferltarock", "system": "parlett-units", "players": ["Anton", "Berta", "Chris"]}


def refused(model, data, **context) -> dict[str, list[str]]:
    with pytest.raises(RuleError) as caught:
        validated(model, data, context)
    return {field: [str(m) for m in said] for field, said in caught.value.fields.items()}


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"contract": "frage"}, "declarer", "name the declarer"),
        ({"declarer": "   ", "contract": "frage"}, "declarer", "name the declarer"),
        ({"declarer": 7, "contract": "frage"}, "declarer", "name the declarer"),
        ({"declarer": "Anton", "contract": "frage", "points": "61"}, "points", "0..120"),
        ({"declarer": "Anton", "contract": "frage", "points": True}, "points", "0..120"),
        ({"declarer": "Anton", "contract": "frage", "points": 61.0}, "points", "0..120"),
        ({"declarer": "Anton", "contract": "frage", "bid": "x"}, "bid", "'durch'"),
        ({"declarer": "Anton", "contract": "frage", "doublings": "x"}, "doublings", "0..5"),
        ({"declarer": "Anton", "contract": "frage", "no_tricks": 1}, "no_tricks", "true or false"),
        ({"declarer": "Anton", "contract": 5}, "contract", "must be one of"),
        ({"declarer": "Anton", "contract": "frage", "color": "x"}, "color", "unknown field"),
        (
            {"declarer": "Anton", "contract": "frage", "bonuses": [{"id": "x", "who": 1}]},
            "bonuses",
            "unknown bonus fields: who",
        ),
        (
            {"declarer": "Anton", "contract": "frage", "bonuses": [{"id": "x", "side": "me"}]},
            "bonuses",
            "a bonus's side",
        ),
        (
            {"declarer": "Anton", "contract": "frage", "bonuses": [{}] * (MAX_BONUSES + 1)},
            "bonuses",
            f"at most {MAX_BONUSES} bonuses",
        ),
    ],
)
def test_a_hand_is_refused_field_by_field_in_the_rules_engines_words(data, field, message):
    said = refused(bodies.Hand, data, game=HAFERL)
    assert field in said and any(message in m for m in said[field]), said


def test_the_same_bad_value_gets_the_same_message_from_the_model_and_the_rules_engine():
    """Where both look (a hand's shape), the model says what `parse_hand` says."""
    from scorer.domain.facts import parse_hand

    for data in (
        {"declarer": "Anton", "contract": "frage", "points": "x"},
        {"declarer": "", "contract": "frage"},
        {"declarer": "Anton", "contract": "frage", "all_tricks": "ja"},
        {"declarer": "Anton", "contract": "frage", "dealer": 3},
        {"declarer": "Anton", "contract": "frage", "trump": 9},
    ):
        with pytest.raises(RuleError) as engine:
            parse_hand(data, HAFERL)
        assert refused(bodies.Hand, data, game=HAFERL) == {
            field: [str(m) for m in said] for field, said in engine.value.fields.items()
        }


def test_a_thousand_unknown_fields_are_five_messages():
    data = {"declarer": "Anton", "contract": "frage", **{f"k{i}": 1 for i in range(1000)}}
    assert len(refused(bodies.Hand, data, game=HAFERL)) == 5


def test_an_api_refusal_keeps_its_code_fields_and_language(client):
    answer = client.post(
        "/api/v1/sessions", json={**TABLE, "players": "Anton"}, headers={"Accept-Language": "de"}
    )
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["code"] == "validation"
    assert error["fields"] == {"players": ["eine Liste von Namen bitte"]}


def test_a_tournament_refuses_every_bad_field_at_once(app, client):
    auth = organiser(app)
    answer = client.post(
        "/api/v1/tournaments",
        json={
            "name": "Herbst",
            "game": "haferltarock",
            "system": "parlett-units",
            "players": ["A", "B", "C"],
            "rounds": MAX_TOURNAMENT_ROUNDS + 1,
            "deals_per_player": "4",
            "date": 20261224,
        },
        headers=auth,
    )
    assert answer.status_code == 422
    fields = answer.get_json()["error"]["fields"]
    assert fields["rounds"] == [f"must be a whole number 1..{MAX_TOURNAMENT_ROUNDS}"]
    assert fields["deals_per_player"] == ["must be a whole number 1..20"]
    assert fields["date"] == ["must be a date like 2026-12-24"]


def test_answers_carry_exactly_their_declared_fields(client):
    session = client.post("/api/v1/sessions", json=TABLE).get_json()
    assert set(session) == set(answers.Session.model_fields) - {"group"}
    hand = client.post(
        f"/api/v1/sessions/{session['key']}/hands",
        json={"declarer": "Anton", "contract": "frage", "points": 70},
    ).get_json()
    assert set(hand) == set(answers.StoredHand.model_fields)
    with pytest.raises(ValueError):
        answers.StoredHand(**hand, secret="x")


def test_the_document_is_made_from_the_models(app, client):
    made = document(app)
    schemas = made["components"]["schemas"]
    hand = schemas["Hand"]
    assert hand["additionalProperties"] is False
    assert hand["properties"]["declarer"]["maxLength"] == MAX_PLAYER_NAME
    assert schemas["NewTournament"]["properties"]["rounds"]["maximum"] == MAX_TOURNAMENT_ROUNDS
    record = made["paths"]["/api/v1/sessions/{key}/hands"]["post"]
    body = record["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/NewHand"}
    assert set(record["responses"]) == {"201", "400", "404", "409", "413", "415", "422", "429"}
    assert client.get("/api/v1/openapi.json").get_json() == made
    auth = organiser(app)
    created = create(client, auth, ["A", "B", "C"]).get_json()
    assert set(created) == set(schemas["Tournament"]["properties"])


def hand_refused(client, key: str, hand: dict) -> dict[str, list[str]]:
    answer = client.post(f"/api/v1/sessions/{key}/hands", json=hand)
    assert answer.status_code == 422, answer.get_json()
    return answer.get_json()["error"]["fields"]


def test_the_tables_own_limits_and_every_misfit_field_are_said_at_once(client):
    """The model checks shapes; the rules engine the table's limits (its doublings) and
    what two fields say together; a body with both kinds hears both."""
    key = client.post("/api/v1/sessions", json=TABLE).get_json()["key"]
    over = {"declarer": "Anton", "contract": "frage", "points": 70, "doublings": 7}
    assert hand_refused(client, key, over) == {"doublings": ["must be 0..2"]}  # this table's
    both = {"declarer": "Anton", "contract": "frage", "points": 70, "defender_points": 50}
    fields = hand_refused(client, key, {**both, "doublings": "x"})
    assert fields["doublings"] == ["must be a whole number 0..5"]
    assert fields["defender_points"] == ["give the declarer's points or the defenders', not both"]


def test_a_field_name_that_is_no_text_is_an_unknown_field(client):
    key = client.post("/api/v1/sessions", json=TABLE).get_json()["key"]
    body = '{"declarer": "Anton", "contract": "frage", "\\ud800x": 1}'
    answer = client.post(
        f"/api/v1/sessions/{key}/hands", data=body, content_type="application/json"
    )
    assert answer.status_code == 422
    assert answer.get_json()["error"]["fields"] == {"?x": ["unknown field"]}
    table = '{"game": "haferltarock", "system": "parlett-units", "players": ["A", "B", "C"], '
    ignored = client.post(
        "/api/v1/sessions", data=table + '"\\ud800": 1}', content_type="application/json"
    )
    assert ignored.status_code == 201  # a table's body ignores fields it does not know


def test_an_explicit_null_is_refused_where_it_was(app, client):
    group = {"game": "haferltarock", "system": "parlett-units", "members": ["A", "B", "C"]}
    key = client.post("/api/v1/groups", json=group).get_json()["key"]
    rules = client.put(f"/api/v1/groups/{key}/rules", json={"system": None})
    assert rules.status_code == 422
    assert rules.get_json()["error"]["fields"] == {"system": ["unknown payment system"]}
    auth = organiser(app)
    none = create(client, auth, ["A", "B", "C"], tie_breaks=None)
    assert none.status_code == 422
    assert none.get_json()["error"]["fields"] == {"tie_breaks": ["must be a list of tie-breaks"]}


def test_what_is_missing_or_over_is_said_before_what_the_body_lacks(app, client):
    """No such hand is 404 and a finished tournament 409, whatever the body says."""
    key = client.post("/api/v1/sessions", json=TABLE).get_json()["key"]
    missing = client.put(f"/api/v1/sessions/{key}/hands/99", json={"declarer": "Anton"})
    assert missing.status_code == 404
    auth = organiser(app)
    tournament = created(client, auth, ["A", "B", "C"], rounds=1)
    play_round(client, draw(client, auth, tournament["id"]), random.Random(3))
    tid = tournament["id"]
    assert client.post(f"{API}/tournaments/{tid}/finish", json={}, headers=auth).status_code == 200
    late = client.post(f"{API}/tournaments/{tid}/adjustments", json={"points": "x"}, headers=auth)
    assert late.status_code == 409
