"""Fuzzing the JSON API from its OpenAPI document with hypothesis: generated and hostile
requests to every documented operation (odd path values, bodies that are almost right,
wrong types, huge numbers, control and bidi characters, non-JSON, wrong content types,
bad credentials). Every answer must be below 500, every refusal a 4xx with API.md's
error body, and a refusal must store nothing. Runs on SQLite and, with
SCORER_TEST_DATABASE_URL, on PostgreSQL; prints how many requests it sent.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorer.domain.facts import BONUS_FIELDS, REQUEST_FIELDS
from scorer.store.database import db
from scorer.store.models import (
    HandRecord,
    HistoryEvent,
    Organiser,
    TableSession,
    Tournament,
    TournamentPlayer,
    TournamentRound,
)
from tests.support.tournaments import basic, create, organiser

FIELDS = [
    *sorted(REQUEST_FIELDS),
    *sorted(BONUS_FIELDS),
    # Fields of the other bodies (sessions, tournaments, swaps, imports, edits).
    "version",
    "players",
    "game",
    "system",
    "params",
    "name",
    "first_dealer",
    "hand",
    "rounds",
    "deals_per_player",
    "date",
    "a",
    "b",
    "format",
    "hands",
]
HOSTILE_TEXT = st.sampled_from(
    [
        "",
        " ",
        "Anton",
        "Berta",
        "frage",
        "hand",
        "game",
        "herz",
        "durch",
        "pot",
        "Pot",
        "haferltarock",
        "parlett-units",
        "tarok",
        "points-kasse",
        "strohmandeln",
        "furr",
        "Ber\u202eta",
        "A\u200bnton",
        "x\x00y",
        "\x07",
        "../../etc/passwd",
        "<script>x</script>",
        "'; DROP TABLE hand; --",
        "𝔄𝔫𝔱𝔬𝔫",
        "A" * 41,
        "B" * 5000,
        "2026-02-30",
        "NaN",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 5, 61, 70, 90, 120, 2**31, 2**63, -1]),
    st.floats(allow_nan=False, allow_infinity=False),
    HOSTILE_TEXT,
    st.text(max_size=30),
)
JSON = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.dictionaries(
            st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), children, max_size=8
        ),
    ),
    max_leaves=25,
)
HANDLIKE = st.fixed_dictionaries(
    {
        "declarer": st.sampled_from(["Anton", "Berta", "Charlotte", "Dieter", "x"]),
        "contract": st.sampled_from(["frage", "hand", "solo", "bettel", "game", "x"]),
    },
    optional={f: JSON for f in FIELDS if f not in ("declarer", "contract")},
)
BODIES = st.one_of(JSON, HANDLIKE, st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=6))


def resolved(schema: dict, components: dict) -> dict:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def value_like(schema: dict, components: dict):
    """A value of the schema's type (within its bounds, one of its choices), or any JSON:
    bodies that are almost right."""
    schema = resolved(schema, components)
    if "enum" in schema:
        typed = st.sampled_from(schema["enum"])
    elif "anyOf" in schema or "oneOf" in schema:
        typed = st.one_of(
            [value_like(s, components) for s in schema.get("anyOf", schema.get("oneOf"))]
        )
    elif schema.get("type") == "integer":
        typed = st.integers(schema.get("minimum", -(2**40)), schema.get("maximum", 2**40))
    elif schema.get("type") == "string":
        typed = HOSTILE_TEXT
    elif schema.get("type") == "boolean":
        typed = st.booleans()
    elif schema.get("type") == "array":
        typed = st.lists(value_like(schema.get("items", {}), components), max_size=5)
    elif schema.get("type") == "null":
        typed = st.none()
    elif "properties" in schema:
        typed = from_schema(schema, components)
    else:
        typed = JSON
    return st.one_of(typed, typed, JSON)


def from_schema(schema: dict, components: dict):
    """A body made from an operation's declared request schema (the generated document):
    its required fields (mostly), any of its other fields, values of about the right kind."""
    schema = resolved(schema, components)
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {name: value_like(p, components) for name, p in properties.items() if name in required},
        optional={
            name: value_like(p, components)
            for name, p in properties.items()
            if name not in required
        },
    )


RAW = st.sampled_from(
    [
        b"",
        b"{",
        b"NaN",
        b'{"points": NaN}',
        b'{"a": Infinity}',
        b"[]",
        b"null",
        b"\xff\xfe",
        b'{"declarer": "Anton"' + b" " * 10 + b"}",
        b'"text"',
        b"[" * 2000 + b"]" * 2000,
    ]
)


class Fuzzed:
    requests = 0
    statuses: Counter = Counter()


def counts() -> tuple[int, ...]:
    models = (
        HandRecord,
        HistoryEvent,
        TableSession,
        Tournament,
        TournamentPlayer,
        TournamentRound,
        Organiser,
    )
    return tuple(db.session.scalar(select(func.count()).select_from(m)) for m in models)


def fill(path: str, data, world) -> str:
    def value(match):
        name = match.group(1)
        choice = data.draw(st.integers(0, 3), label=name)
        if name == "key":
            return [world["key"], world["key"], "nope", "a" * 65][choice]
        if name == "tournament_key":
            return [world["tournament_key"], "nope", "x" * 70, "%00"][choice]
        if name == "tournament_id":
            return str([world["tid"], world["tid"], 999999, 0][choice])
        if name == "number":
            return str([1, 2, 999999999, 0][choice])
        return ["Anton", "P1", "%E2%80%AE", "x" * 300][choice]

    return re.sub(r"{(\w+)}", value, path)


def test_fuzz_every_operation(app, client):
    auth = organiser(app)
    world = {}
    session = client.post(
        "/api/v1/sessions",
        json={
            "game": "haferltarock",
            "system": "parlett-units",
            "players": ["Anton", "Berta", "Charlotte"],
        },
    ).get_json()
    world["key"] = session["key"]
    for points in (70, 50):
        client.post(
            f"/api/v1/sessions/{world['key']}/hands",
            json={"declarer": "Anton", "contract": "frage", "points": points},
        )
    tournament = create(client, auth, [f"P{i}" for i in range(6)]).get_json()
    world["tid"], world["tournament_key"] = tournament["id"], tournament["key"]
    client.post(f"/api/v1/tournaments/{world['tid']}/rounds", json={}, headers=auth)

    document = client.get("/api/v1/openapi.json").get_json()
    components = document["components"]["schemas"]
    operations = sorted((path, method) for path, ops in document["paths"].items() for method in ops)
    declared = {
        (path, method): op["requestBody"]["content"]["application/json"]["schema"]
        for path, ops in document["paths"].items()
        for method, op in ops.items()
        if "requestBody" in op
    }

    @settings(
        max_examples=400, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(data=st.data())
    def one_request(data):
        path, method = data.draw(st.sampled_from(operations), label="operation")
        url = fill(path, data, world)
        if method == "delete" and "hands" in path:
            url += "?version=" + data.draw(st.sampled_from(["1", "2", "x", "", "99999999999999"]))
        headers = {}
        credentials = data.draw(st.sampled_from(["good", "bad", "none"]), label="auth")
        if credentials == "good":
            headers.update(auth)
        elif credentials == "bad":
            headers.update(basic("orga@example.org", "falsch"))
        if data.draw(st.booleans(), label="idempotency"):
            headers["Idempotency-Key"] = (
                data.draw(st.text(max_size=250), label="key")
                .encode("utf-8", "replace")
                .decode("latin-1", "replace")
            )
        kind = data.draw(st.sampled_from(["json", "json", "raw", "text", "none"]), label="kind")
        payload, content_type = None, None
        if kind == "json":
            bodies = BODIES
            if (path, method) in declared:
                bodies = st.one_of(BODIES, from_schema(declared[path, method], components))
            payload, content_type = json.dumps(data.draw(bodies, label="body")), "application/json"
        elif kind == "raw":
            payload, content_type = data.draw(RAW, label="raw"), "application/json"
        elif kind == "text":
            payload, content_type = "{}", "text/plain"
        if content_type:
            headers["Content-Type"] = content_type
        with app.app_context():
            before = counts()
        try:
            response = client.open(url, method=method.upper(), data=payload, headers=headers)
        except (UnicodeError, ValueError):
            return  # the test client cannot send such a header at all (nor could HTTP)
        Fuzzed.requests += 1
        Fuzzed.statuses[response.status_code // 100] += 1
        assert response.status_code < 500, (method, url, payload, response.get_data()[:500])
        if response.status_code >= 400:
            error = (response.get_json(silent=True) or {}).get("error", {})
            assert isinstance(error.get("code"), str) and isinstance(error.get("message"), str), (
                method,
                url,
                response.status_code,
                response.get_data()[:300],
            )
            with app.app_context():
                assert counts() == before, (method, url, payload, response.status_code)
                db.session.remove()

    one_request()
    print(f"\nfuzz: {Fuzzed.requests} requests, answers by class {dict(Fuzzed.statuses)}")
    assert Fuzzed.requests >= 300
    assert len(declared) >= 15, "the document declares the request bodies"
    assert Fuzzed.statuses[5] == 0
