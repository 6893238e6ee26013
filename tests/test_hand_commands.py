"""A command per change of a hand (scorer.domain.commands): the API's body and the table
page's form give the same command for the same hand, the same refusal (status, field,
message) for the same bad hand, and a hand recorded either way is stored the same."""

from __future__ import annotations

import pytest

from scorer.domain import GAMES, RuleError, commands
from scorer.domain.commands import EditHand, RecordHand, VoidHand
from scorer.services import evenings, table_reads, tables
from scorer.store.table_rows import get_session
from tests.support.tables import PLAYERS3, new_table, session_json, table_url

JSON = {"Accept": "application/json", "Accept-Language": "de"}

SAME_HANDS = [
    # (game, system, the page's form, the API's body)
    (
        "haferltarock",
        "parlett-units",
        {"declarer": "Anton", "contract": "frage", "points": "70", "points_of": "declarer"},
        {"declarer": "Anton", "contract": "frage", "points": 70},
    ),
    (
        "haferltarock",
        "parlett-units",
        {"declarer": "Anton", "contract": "hand", "bid": "76", "points": "37"}
        | {"points_of": "defenders", "doublings": "1"},
        {"declarer": "Anton", "contract": "hand", "bid": 76, "defender_points": 37}
        | {"doublings": 1},
    ),
    (
        "tarok-bettel",
        "points-kasse",
        {"declarer": "Anton", "contract": "bettel", "bettel": "won"},
        {"declarer": "Anton", "contract": "bettel", "no_tricks": True},
    ),
]


def key_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def two_tables(client, game: str, system: str) -> tuple[str, str]:
    """Two tables opened alike: one for the page's hand, one for the API's."""
    players = {"players": PLAYERS3} if game == "tarok-bettel" else {}
    return tuple(  # type: ignore[return-value]
        table_url(new_table(client, game=game, system=system, **players)) for _ in range(2)
    )


@pytest.fixture
def given(monkeypatch) -> list[object]:
    """The commands the services were given, in order."""
    seen: list[object] = []
    for module, name in ((evenings, "record_hand"), (tables, "edit_hand"), (tables, "void_hand")):
        original = getattr(module, name)

        def spy(session, command, *args, _original=original, **kwargs):
            seen.append(command)
            return _original(session, command, *args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    return seen


@pytest.fixture
def refused(monkeypatch) -> list[dict[str, list[str]]]:
    """What the one parser refused, field by field, in order."""
    said: list[dict[str, list[str]]] = []
    for name in ("record_hand", "edit_hand"):
        original = getattr(commands, name)

        def spy(*args, _original=original, **kwargs):
            try:
                return _original(*args, **kwargs)
            except RuleError as exc:
                said.append({f: [str(m) for m in ms] for f, ms in exc.fields.items()})
                raise

        monkeypatch.setattr(commands, name, spy)
    return said


@pytest.mark.parametrize(("game", "system", "form", "body"), SAME_HANDS)
def test_the_page_and_the_api_record_the_same_command_and_store_the_same(
    app, client, given, game, system, form, body
):
    page, api = two_tables(client, game, system)
    headers = {**JSON, "Idempotency-Key": "hand-1"}
    by_page = client.post(page + "/spiel", data={**form, "number": "1"}, headers=headers)
    assert by_page.status_code == 201, by_page.get_json()
    by_api = client.post(
        f"/api/v1/sessions/{key_of(api)}/hands", json={**body, "number": 1}, headers=headers
    )
    assert by_api.status_code == 201, by_api.get_json()
    assert len(given) == 2 and isinstance(given[0], RecordHand)
    assert given[0] == given[1]
    assert given[0].number == 1 and given[0].idempotency_key == "hand-1"

    stored_page, stored_api = (session_json(client, url) for url in (page, api))
    for stored in (stored_page, stored_api):
        del stored["key"], stored["created_at"]
    assert stored_page == stored_api
    with app.app_context():
        columns = ("facts", "dealer", "net", "result", "explanation", "pot_after", "version")
        rows = [
            {c: getattr(table_reads.hands_of(get_session(key_of(url)))[0], c) for c in columns}
            for url in (page, api)
        ]
        assert rows[0] == rows[1]
        states = [get_session(key_of(url)).state for url in (page, api)]
        assert states[0] == states[1]


def test_an_edit_and_a_strike_out_are_the_same_command_from_the_page_and_the_api(client, given):
    page, api = two_tables(client, "haferltarock", "parlett-units")
    frage = {"declarer": "Anton", "contract": "frage", "points": "70", "points_of": "declarer"}
    assert client.post(page + "/spiel", data=frage).status_code == 302
    hands = f"/api/v1/sessions/{key_of(api)}/hands"
    assert client.post(hands, json={"declarer": "Anton", "contract": "frage", "points": 70})
    given.clear()

    edited = client.post(page + "/spiele/1", data={**frage, "points": "50", "version": "1"})
    assert edited.status_code == 302
    body = {"declarer": "Anton", "contract": "frage", "points": 50, "version": 1}
    assert client.put(hands + "/1", json=body).status_code == 200
    assert isinstance(given[0], EditHand) and given[0] == given[1]

    struck = client.post(page + "/spiele/1/streichen", data={"version": "2"})
    assert struck.status_code == 302
    assert client.delete(hands + "/1?version=2").status_code == 204
    assert given[2:] == [VoidHand(1, 2), VoidHand(1, 2)]
    assert session_json(client, page)["hands"] == session_json(client, api)["hands"] == []


BAD_HANDS = [
    # (the page's form, the API's body, the field refused)
    (
        {"declarer": "Anton", "contract": "frage", "points": "130", "points_of": "defenders"},
        {"declarer": "Anton", "contract": "frage", "defender_points": 130},
        "defender_points",
    ),
    (
        {"declarer": "Anton", "contract": "frage", "points": "70", "number": "0"},
        {"declarer": "Anton", "contract": "frage", "points": 70, "number": 0},
        "number",
    ),
]


@pytest.mark.parametrize(("form", "body", "field"), BAD_HANDS)
def test_the_same_bad_hand_is_refused_alike_by_the_page_and_the_api(
    client, refused, form, body, field
):
    page, api = two_tables(client, "haferltarock", "parlett-units")
    by_page = client.post(page + "/spiel", data={"points_of": "declarer", **form}, headers=JSON)
    by_api = client.post(f"/api/v1/sessions/{key_of(api)}/hands", json=body, headers=JSON)
    assert by_page.status_code == by_api.status_code == 422
    assert by_page.get_json()["error"]["code"] == by_api.get_json()["error"]["code"]
    fields = by_api.get_json()["error"]["fields"]
    assert list(fields) == [field]
    assert by_page.get_json()["error"]["message"] == " ".join(fields[field])
    assert len(refused) == 2 and refused[0] == refused[1] and list(refused[0]) == [field]
    assert session_json(client, page)["hands"] == session_json(client, api)["hands"] == []


def test_the_one_parser_refuses_every_bad_field_at_once():
    with pytest.raises(RuleError) as caught:
        commands.edit_hand(
            {"declarer": "", "contract": "frage", "number": 3},
            GAMES["haferltarock"],
            number=1,
            players=["Anton"],
        )
    assert set(caught.value.fields) == {"version", "declarer", "number"}
    with pytest.raises(RuleError) as stranger:
        commands.record_hand(
            {"declarer": "Anton", "contract": "frage", "dealer": "Zoe"},
            GAMES["haferltarock"],
            players=["Anton"],
            next_number=1,
        )
    said = {f: [str(m) for m in ms] for f, ms in stranger.value.fields.items()}
    assert said == {"dealer": ["must be one of the players"]}


def test_a_hand_scored_without_storing_it_is_refused_by_the_same_parser(client):
    """`POST /score` checks its hand with `facts.parse_hand` as a recorded hand is, and says
    a bad table and a bad hand at once."""
    _page, api = two_tables(client, "haferltarock", "parlett-units")
    bad = {"declarer": "Anton", "contract": "frage", "defender_points": 130, "colour": "red"}
    recorded = client.post(f"/api/v1/sessions/{key_of(api)}/hands", json=bad, headers=JSON)
    scored = client.post(
        "/api/v1/score",
        json={
            "game": "haferltarock",
            "system": "parlett-units",
            "players": ["Anton", "Berta", "berta"],
            "hand": bad,
        },
        headers=JSON,
    )
    assert recorded.status_code == scored.status_code == 422
    hand_fields = recorded.get_json()["error"]["fields"]
    assert scored.get_json()["error"]["fields"] == {
        **hand_fields,
        "players": scored.get_json()["error"]["fields"]["players"],
    }
    assert set(hand_fields) == {"defender_points", "colour"}
