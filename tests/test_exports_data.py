"""Exports and imports of an evening: the CSV sheet, the JSON export, its import through the
API and through the upload page, and every broken or hostile file an import must refuse
without writing anything (and without a 500)."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorer.domain import Hand, RuleError, commands
from scorer.domain.commands import RecordHand, VoidHand
from scorer.formats.evening import ImportPlan, MalformedDocument, load_document, parse_import
from scorer.reports.spreadsheet import CSV_HEADER, safe_cell, spreadsheet_number
from scorer.services import table_reads, tables
from scorer.store import table_rows
from scorer.store.database import db
from scorer.store.errors import Conflict
from scorer.store.models import HandRecord, HistoryEvent, TableSession
from tests.conftest import dispose, make_app

API = "/api/v1"
BAER = "<b>Bär & Co</b>"
BAER_HTML = "&lt;b&gt;Bär &amp; Co&lt;/b&gt;"
SAFE_ATTACHMENT = re.compile(r'^attachment; filename="haferl-[A-Za-z0-9._-]+\.(csv|json)"$')


# --- helpers --------------------------------------------------------------------------------


def create(client, **body: Any) -> dict[str, Any]:
    body = {"name": "Stammtisch", **body}
    response = client.post(f"{API}/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def read(client, key: str) -> dict[str, Any]:
    response = client.get(f"{API}/sessions/{key}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def play(client, key: str, hands: list[dict[str, Any]], voided: set[int] = frozenset()) -> None:
    """Record `hands` in turn, each declared by an active player in rotation; the hands at
    the indexes in `voided` are voided right after they are entered ("Rückgängig")."""
    for index, facts in enumerate(hands):
        session = read(client, key)
        active = [p for p in session["players"] if p != session["sitting_out_next"]]
        body = {"declarer": active[index % len(active)], **facts}
        response = client.post(f"{API}/sessions/{key}/hands", json=body)
        assert response.status_code == 201, (index, response.get_json())
        if index in voided:
            number = response.get_json()["number"]
            response = client.delete(f"{API}/sessions/{key}/hands/{number}?version=1")
            assert response.status_code == 204


def export_json(client, key: str) -> dict[str, Any]:
    response = client.get(f"{API}/sessions/{key}/export.json")
    assert response.status_code == 200
    return json.loads(response.data)


def csv_table(client, key: str) -> list[list[str]]:
    response = client.get(f"{API}/sessions/{key}/export.csv")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig")), delimiter=";"))


def import_doc(client, doc: Any):
    data = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    return client.post(f"{API}/sessions/import", data=data, content_type="application/json")


def counts(app) -> tuple[int, int, int]:
    """Sessions, hands and history lines in the database."""
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (TableSession, HandRecord, HistoryEvent)
        )


def upload(client, data: bytes, **extra: Any):
    return client.post(
        "/import",
        data={"file": (io.BytesIO(data), "abend.json"), **extra},
        content_type="multipart/form-data",
    )


def base_doc() -> dict[str, Any]:
    """A small valid export written by hand: three players, two hands."""
    return {
        "format": "haferl-session",
        "version": 1,
        "name": "Stammtisch",
        "game": "haferltarock",
        "system": "parlett-units",
        "params": {"unit_cents": 20},
        "players": ["Anton", "Berta", "Charlotte"],
        "first_dealer": "Anton",
        "closed": False,
        "hands": [
            {
                "number": 1,
                "dealer": "Anton",
                "hand": {"declarer": "Berta", "contract": "frage", "points": 83},
                "voided": False,
            },
            {
                "number": 2,
                "dealer": "Berta",
                "hand": {
                    "declarer": "Charlotte",
                    "contract": "hand",
                    "trump": "herz",
                    "bid": 76,
                    "points": 83,
                },
                "voided": False,
            },
        ],
    }


# --- evenings to export -----------------------------------------------------------------------

SCENARIOS: dict[str, dict[str, Any]] = {
    "haferltarock, four players, pot, edit and void, closed": {
        "session": {
            "game": "haferltarock",
            "system": "parlett-units",
            "players": ["Anton", BAER, "Charlotte", "Dieter"],
            "first_dealer": "Dieter",
            "params": {"unit_cents": 20},
        },
        "hands": [
            {"contract": "frage", "points": 83},
            {"contract": "hand", "trump": "herz", "bid": 76, "points": 83, "doublings": 1},
            {"contract": "frage", "points": 50},
            {"contract": "hand", "trump": "schellen", "points": 40},
            {"contract": "frage", "points": 120, "all_tricks": True},
            {"contract": "frage", "points": 61},
        ],
        "voided": {2},
        "edit": True,
        "closed": True,
    },
    "tarok with Bettel, rates, pot kept": {
        "session": {
            "game": "tarok-bettel",
            "system": "points-kasse",
            "players": ["Anton", "Berta", "Charlotte"],
            "params": {"rate_frage": 0.25, "rate_hand": 1.5, "pot_at_end": "keep"},
        },
        "hands": [
            {"contract": "bettel"},
            {"contract": "frage", "trump": "gras", "points": 80},
            {"contract": "hand", "trump": "herz", "points": 50},
            {"contract": "frage", "trump": "eichel", "points": 61},
            {"contract": "hand", "trump": "herz", "points": 95},
        ],
        "voided": {1, 3},
        "closed": True,
    },
    "Tapp Tarock with bonuses, open": {
        "session": {
            "game": "tapp-tarock",
            "system": "tapp-points",
            "players": ["Anton", "Berta", "Charlotte"],
        },
        "hands": [
            {
                "contract": "dreier",
                "points": 40,
                "bonuses": [
                    {"id": "pagat_ultimo", "side": "declarer", "announced": True, "made": True}
                ],
            },
            {"contract": "solo", "points": 30},
            {
                "contract": "unterer",
                "points": 50,
                "bonuses": [{"id": "trull", "side": "defenders"}],
            },
        ],
        "voided": {0},
        "closed": False,
    },
    "Strohmandeln, a voided draw": {
        "session": {"game": "strohmandeln", "system": "beck", "players": ["Anton", "Berta"]},
        "hands": [
            {"contract": "game", "points": 50},
            {"contract": "game", "points": 35},
            {"contract": "game", "points": 20},
            {"contract": "game", "points": 35},
            {"contract": "game", "points": 45},
        ],
        "voided": {1},
        "closed": False,
    },
}


def build(client, scenario: dict[str, Any]) -> str:
    key = create(client, **scenario["session"])["key"]
    play(client, key, scenario["hands"], scenario["voided"])
    if scenario.get("edit"):
        hand = read(client, key)["hands"][0]
        body = {**hand["hand"], "points": hand["hand"]["points"] - 10, "version": 1}
        response = client.put(f"{API}/sessions/{key}/hands/1", json=body)
        assert response.status_code == 200, response.get_json()
    if scenario["closed"]:
        assert client.post(f"{API}/sessions/{key}/close").status_code == 200
    return key


@pytest.fixture
def evening(client) -> str:
    return build(client, SCENARIOS["haferltarock, four players, pot, edit and void, closed"])


SESSION_FIELDS = (
    "name",
    "game",
    "system",
    "params",
    "players",
    "first_dealer",
    "balances",
    "round",
    "next_dealer",
    "sitting_out_next",
    "next_hand_factor",
    "hand_count",
    "closed",
)


def assert_same_evening(client, app, old_key: str, new_key: str) -> None:
    assert new_key != old_key
    old, new = read(client, old_key), read(client, new_key)
    assert {f: new[f] for f in SESSION_FIELDS} == {f: old[f] for f in SESSION_FIELDS}

    def live_hands(session):  # an edit raised the original's version; the copy starts at 1
        return [{k: v for k, v in h.items() if k != "version"} for h in session["hands"]]

    assert live_hands(new) == live_hands(old)
    old_doc, new_doc = export_json(client, old_key), export_json(client, new_key)
    old_doc.pop("created_at"), new_doc.pop("created_at")
    assert new_doc == old_doc  # every hand with number, dealer, facts and voided flag
    if old_doc["scoring"] == "money":  # a tournament table is not settled in money
        old_settle = client.get(f"{API}/sessions/{old_key}/settlement").get_json()
        new_settle = client.get(f"{API}/sessions/{new_key}/settlement").get_json()
        assert new_settle == old_settle

    def history(key):  # edits are not replayed: the file holds the corrected hand
        events = client.get(f"{API}/sessions/{key}/history").get_json()
        return [(e["action"], e["hand"]) for e in events if e["action"] != "edit"]

    assert history(new_key) == history(old_key)
    with app.app_context():  # the copy's cache is the fold of its hands
        session = table_rows.get_session(new_key)
        entries, state = table_reads.fold_session(session)
        assert state.to_json() == session.state
        live = table_reads.hands_of(session)
        assert [(r.number, r.net, r.pot_after) for r in live] == [
            (e.number, e.net, e.pot_after) for e in entries
        ]


# --- CSV ------------------------------------------------------------------------------------


def test_csv_has_bom_header_and_one_row_per_live_hand_and_player(client, evening):
    response = client.get(f"{API}/sessions/{evening}/export.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.data.startswith(b"\xef\xbb\xbf")
    assert SAFE_ATTACHMENT.match(response.headers["Content-Disposition"])

    rows = csv_table(client, evening)
    assert rows[0] == GERMAN_COLUMNS
    session = read(client, evening)
    players, hands = session["players"], session["hands"]
    assert len(hands) == 5  # six entered, one voided
    assert len(rows) - 1 == len(hands) * len(players)
    body = rows[1:]
    assert "3" not in {row[0] for row in body}  # the voided hand is not in the sheet
    column = {name: i for i, name in enumerate(CSV_HEADER)}
    for hand, group in zip(hands, [body[i : i + 4] for i in range(0, len(body), 4)], strict=True):
        assert [row[column["player"]] for row in group] == players
        for row in group:
            player = row[column["player"]]
            assert int(row[column["number"]]) == hand["number"]
            assert row[column["dealer"]] == hand["dealer"]
            assert row[column["declarer"]] == hand["hand"]["declarer"]
            assert int(row[column["cents"]]) == hand["net"][player]
            assert row[column["euros"]] == spreadsheet_number(hand["net"][player])
            assert int(row[column["pot_after_cents"]]) == hand["pot_after"]
    amounts = [row[column["euros"]] for row in body]
    assert any(a.startswith("-") for a in amounts) and any(a != "0,00" for a in amounts)


GERMAN_COLUMNS = [
    "Nr.", "Runde", "Geber", "Spieler", "Spiel", "Trumpf", "Gereizt", "Extras", "Augen", "Ergebnis",
    "Name", "Cent", "Euro", "Haferl danach (Cent)",
]  # fmt: skip


def test_the_spreadsheet_in_english_has_commas_and_decimal_points(client, evening):
    response = client.get(f"{API}/sessions/{evening}/export.csv?lang=en")
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig")), delimiter=","))
    assert rows[0][:3] == ["No.", "Round", "Dealer"] and rows[0][-1] == "Haferl after (cents)"
    euros_column = [row[CSV_HEADER.index("euros")] for row in rows[1:]]
    assert all(re.fullmatch(r"-?\d+\.\d\d", amount) for amount in euros_column)
    client.get("/?lang=de")  # this device had chosen English: back to German
    german = csv_table(client, evening)
    assert [row[CSV_HEADER.index("cents")] for row in german[1:]] == [
        row[CSV_HEADER.index("cents")] for row in rows[1:]
    ]


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "0,00"),
        (5, "0,05"),
        (120, "1,20"),
        (-40, "-0,40"),
        (123456, "1234,56"),
        (-100000, "-1000,00"),
    ],
)
def test_euros_in_german_spreadsheet_format(cents, text):
    assert spreadsheet_number(cents) == text


def test_player_name_is_literal_in_csv_and_escaped_in_html(client, evening):
    raw = client.get(f"{API}/sessions/{evening}/export.csv").data.decode("utf-8-sig")
    assert BAER in raw
    assert BAER in {row[CSV_HEADER.index("player")] for row in csv_table(client, evening)}
    html = client.get(f"/t/{evening}").get_data(as_text=True)
    assert BAER_HTML in html
    assert BAER not in html


def test_csv_cells_that_look_like_formulas_are_escaped(client):
    players = ['=HYPERLINK("http://x.example")', "+Berta", "-Charlotte", "@Dieter"]
    key = create(
        client,
        name="=cmd|' /C calc'!A0",
        game="haferltarock",
        system="parlett-units",
        players=players,
    )["key"]
    play(client, key, [{"contract": "frage", "points": 40}, {"contract": "frage", "points": 90}])
    response = client.get(f"{API}/sessions/{key}/export.csv")
    assert SAFE_ATTACHMENT.match(response.headers["Content-Disposition"])
    rows = csv_table(client, key)[1:]
    column = {name: i for i, name in enumerate(CSV_HEADER)}
    assert {row[column["player"]] for row in rows} == {"'" + p for p in players}
    for row in rows:
        for name in ("player", "dealer", "declarer"):
            assert row[column[name]].startswith("'")
    # Our own numbers stay numbers: a loss is "-0,40", not text.
    losses = [row for row in rows if int(row[column["cents"]]) < 0]
    assert losses
    for row in losses:
        assert row[column["euros"]].startswith("-")
        assert row[column["cents"]].startswith("-")


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+49 89", "'+49 89"),
        ("-Dieter", "'-Dieter"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rReturn", "'\rReturn"),
        ("Anton", "Anton"),
        ("a=b", "a=b"),
        (None, ""),
        (-40, -40),
    ],
)
def test_safe_cell(value, cell):
    assert safe_cell(value) == cell


def test_points_scored_table_has_points_not_euros(app, client):
    with app.app_context():
        session = tables.create_session(
            commands.open_table(
                name="Turnier",
                game="haferltarock",
                system="parlett-units",
                params={},
                players=["A", "B", "C"],
                first_dealer="A",
                scoring="points",
            )
        )
        tables.record_hand(session, RecordHand(Hand("B", "frage", points=83), dealer="A"))
        db.session.commit()
        key = session.key
    rows = csv_table(client, key)
    assert rows[0] == [*GERMAN_COLUMNS[:11], "Punkte"]
    assert len(rows) == 1 + 3


def test_exports_of_an_unknown_table_are_404_json(client):
    for extension in ("csv", "json"):
        response = client.get(f"{API}/sessions/no-such-key/export.{extension}")
        assert response.status_code == 404
        assert response.get_json()["error"]["code"] == "not_found"


# --- JSON export and round trip ---------------------------------------------------------------


def test_json_export_is_a_self_describing_attachment_without_the_key(client, evening):
    response = client.get(f"{API}/sessions/{evening}/export.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert SAFE_ATTACHMENT.match(response.headers["Content-Disposition"])
    assert evening not in response.get_data(as_text=True)  # the key is the permission
    doc = json.loads(response.data)
    assert (doc["format"], doc["version"]) == ("haferl-session", 1)
    assert [(h["number"], h["voided"]) for h in doc["hands"]] == [
        (1, False),
        (2, False),
        (3, True),
        (4, False),
        (5, False),
        (6, False),
    ]
    session = read(client, evening)
    assert doc["players"] == session["players"] and doc["params"] == session["params"]
    assert doc["balances"] == session["balances"]
    settlement = client.get(f"{API}/sessions/{evening}/settlement").get_json()
    assert doc["transfers"] == settlement["transfers"]
    assert doc["closed"] is True


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_round_trip_gives_an_identical_evening_under_a_new_key(app, client, name):
    key = build(client, SCENARIOS[name])
    response = import_doc(client, export_json(client, key))
    assert response.status_code == 201, response.get_json()
    assert_same_evening(client, app, key, response.get_json()["key"])


def test_imported_open_evening_goes_on_like_the_original(client):
    scenario = SCENARIOS["Strohmandeln, a voided draw"]
    key = build(client, scenario)
    new_key = import_doc(client, export_json(client, key)).get_json()["key"]
    for k in (key, new_key):
        response = client.post(
            f"{API}/sessions/{k}/hands",
            json={"declarer": "Berta", "contract": "game", "points": 50},
        )
        assert response.status_code == 201
    assert read(client, new_key)["balances"] == read(client, key)["balances"]


def test_round_trip_of_a_tournament_table(app, client):
    with app.app_context():
        session = tables.create_session(
            commands.open_table(
                name="Tisch 1",
                game="haferltarock",
                system="parlett-units",
                params={},
                players=["A", "B", "C"],
                first_dealer="A",
                scoring="points",
                hands_planned=2,
            )
        )
        tables.record_hand(session, RecordHand(Hand("B", "frage", points=83), dealer="A"))
        record, _ = tables.record_hand(
            session, RecordHand(Hand("C", "frage", points=40), dealer="B")
        )
        tables.void_hand(session, VoidHand(record.number, record.version))
        tables.record_hand(
            session, RecordHand(Hand("A", "hand", trump="herz", points=70), dealer="C")
        )
        db.session.commit()
        key = session.key
    doc = export_json(client, key)
    assert (doc["scoring"], doc["hands_planned"]) == ("points", 2)
    response = import_doc(client, doc)
    assert response.status_code == 201, response.get_json()
    assert_same_evening(client, app, key, response.get_json()["key"])
    with app.app_context():
        assert table_rows.get_session(response.get_json()["key"]).done
    # A third live hand would not have fitted on that table.
    doc["hands"][1]["voided"] = False
    response = import_doc(client, doc)
    assert response.status_code == 422
    assert "hands[2]" in response.get_json()["error"]["fields"]


def test_a_hand_written_file_imports(client):
    response = import_doc(client, base_doc())
    assert response.status_code == 201, response.get_json()
    session = response.get_json()
    assert [h["number"] for h in session["hands"]] == [1, 2]
    assert session["params"]["unit_cents"] == 20
    assert session["next_dealer"] == "Charlotte"


def test_import_with_a_byte_order_mark(client):
    response = import_doc(client, b"\xef\xbb\xbf" + json.dumps(base_doc()).encode())
    assert response.status_code == 201


# --- broken and hostile files -------------------------------------------------------------


def _set(path: str, value: Any):
    """A change to base_doc(): `path` like 'hands.1.hand.points'."""

    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for step in parents:
            node = node[int(step)] if isinstance(node, list) else node[step]
        node[int(last) if isinstance(node, list) else last] = value

    return change


def _nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


def _many_hands(doc: dict[str, Any]) -> None:
    players = doc["players"]
    doc["hands"] = [
        {
            "number": i + 1,
            "dealer": players[i % 3],
            "hand": {"declarer": players[(i + 1) % 3], "contract": "frage", "points": 70},
        }
        for i in range(10_000)
    ]


def _raw(change) -> bytes:
    doc = base_doc()
    change(doc)
    return json.dumps(doc).encode()


BROKEN: list[tuple[str, Any, int, str | None]] = [
    ("not JSON", b"Stammtisch; Anton; Berta", 400, None),
    ("empty body", b"", 400, None),
    ("not UTF-8", b'\xff\xfe{"format": 1}', 400, None),
    ("a JSON array", b"[1, 2, 3]", 400, None),
    ("a JSON string", b'"haferl-session"', 400, None),
    (
        "deeply nested junk",
        b'{"format": "haferl-session", "version": 1, "params": '
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}",
        400,
        None,
    ),
    ("an integer of 5,000 digits", b'{"version": ' + b"9" * 5000 + b"}", 400, None),
    ("a NUL in a player's name", _raw(_set("players.0", "An\x00ton")), 400, None),
    ("a NUL in a key", _raw(_set("hands.0.hand.note\x00", 1)), 400, None),
    ("wrong format tag", _set("format", "excel"), 422, "format"),
    ("no format tag", lambda d: d.pop("format"), 422, "format"),
    ("a later version", _set("version", 2), 422, "version"),
    ("the version as text", _set("version", "1"), 422, "version"),
    ("unknown game", _set("game", "schafkopf"), 422, "game"),
    ("the system of another game", _set("system", "tapp-points"), 422, "system"),
    ("unknown parameter", _set("params", {"jackpot_cents": 5}), 422, "params.jackpot_cents"),
    ("a parameter out of range", _set("params", {"unit_cents": -5}), 422, "params.unit_cents"),
    ("nested junk in the parameters", _set("params", {"unit_cents": {"a": [1]}}), 422, "params"),
    ("a hand breaking a rule", _set("hands.1.hand.points", 130), 422, "hands[1].hand.points"),
    (
        "a voided hand breaking a rule",
        lambda d: d["hands"][0].update(voided=True, hand={"declarer": "Berta", "contract": "x"}),
        422,
        "hands[0].hand.contract",
    ),
    ("a declarer not at the table", _set("hands.0.hand.declarer", "Zacharias"), 422, None),
    ("a dealer not a player", _set("hands.0.dealer", "Zacharias"), 422, "hands[0].dealer"),
    ("a first dealer not a player", _set("first_dealer", "Zacharias"), 422, "first_dealer"),
    ("points as text", _set("hands.0.hand.points", "83"), 422, "hands[0].hand.points"),
    ("points NaN", _set("hands.0.hand.points", float("nan")), 422, "hands[0].hand.points"),
    ("points infinite", _set("hands.0.hand.points", float("inf")), 422, "hands[0].hand.points"),
    ("doublings true", _set("hands.0.hand.doublings", True), 422, "hands[0].hand.doublings"),
    ("a junk bonus", _set("hands.0.hand.bonuses", [{"id": 5}]), 422, "hands[0].hand.bonuses"),
    ("a hand that is a list", _set("hands.0", [1, 2]), 422, "hands[0]"),
    ("facts that are text", _set("hands.0.hand", "Frage, 83"), 422, "hands[0].hand"),
    ("deeply nested facts", _set("hands.0.hand", _nested(500)), 422, "hands[0].hand"),
    ("an unknown field in a hand", _set("hands.0.hand.cheat", True), 422, "hands[0].hand.cheat"),
    ("an unknown field in the document", _set("admin", True), 422, "admin"),
    ("duplicate hand numbers", _set("hands.1.number", 1), 422, "hands[1].number"),
    ("hand numbers with a gap", _set("hands.1.number", 5), 422, "hands[1].number"),
    ("a hand number true", _set("hands.0.number", True), 422, "hands[0].number"),
    ("voided as text", _set("hands.0.voided", "no"), 422, "hands[0].voided"),
    ("hands not a list", _set("hands", {"1": {}}), 422, "hands"),
    ("10,000 hands", _many_hands, 422, "hands"),
    ("a huge name", _set("name", "x" * 1_000_000), 422, "name"),
    ("a huge player name", _set("players.0", "A" * 500_000), 422, "players"),
    ("a huge unknown key", _set("k" * 500_000, 1), 422, None),
    ("a thousand players", _set("players", [f"P{i}" for i in range(1000)]), 422, "players"),
    ("two players of one name", _set("players", ["Anton", "anton", "Berta"]), 422, "players"),
    ("a player called pot", _set("players", ["Anton", "Pot", "Berta"]), 422, "players"),
    ("players as text", _set("players", "Anton, Berta, Charlotte"), 422, "players"),
    ("two players for a game of three", _set("players", ["Anton", "Berta"]), 422, "players"),
    ("closed as text", _set("closed", "yes"), 422, "closed"),
    ("unknown scoring", _set("scoring", "beans"), 422, "scoring"),
    ("no hands planned", _set("hands_planned", 0), 422, "hands_planned"),
]


@pytest.mark.parametrize(("case", "change", "status", "field"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_import_is_refused_and_creates_nothing(app, client, case, change, status, field):
    build(client, SCENARIOS["Strohmandeln, a voided draw"])
    before = counts(app)
    body = change if isinstance(change, bytes) else _raw(change)
    response = import_doc(client, body)
    assert response.status_code == status, response.get_json()
    error = response.get_json()["error"]
    assert error["message"]
    if status == 422:
        assert error["fields"]
    if field is not None:
        assert field in error["fields"], error["fields"]
    assert len(response.data) < 5000  # hostile strings are not echoed back
    assert counts(app) == before


def test_parse_import_refuses_nul_in_names_by_itself():
    doc = base_doc()
    doc["name"] = "Stamm\x00tisch"
    with pytest.raises(RuleError) as caught:
        parse_import(doc)
    assert "name" in caught.value.fields


def test_duplicate_numbers_are_named_as_such():
    doc = base_doc()
    doc["hands"][1]["number"] = 1
    with pytest.raises(RuleError) as caught:
        parse_import(doc)
    assert {k: [str(m) for m in v] for k, v in caught.value.fields.items()} == {
        "hands[1].number": ["hand number 1 appears twice"]
    }


@pytest.mark.parametrize("failure", [RuleError.one("hand", "boom"), Conflict("boom")])
def test_a_failure_while_replaying_rolls_everything_back(app, client, monkeypatch, failure):
    before = counts(app)
    calls = []
    record_hand = tables.record_hand

    def failing_second_hand(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise failure
        return record_hand(*args, **kwargs)

    monkeypatch.setattr(tables, "record_hand", failing_second_hand)
    response = import_doc(client, base_doc())
    assert response.status_code in (409, 422)
    assert len(calls) == 2  # the first hand was written, then rolled back
    assert counts(app) == before


def test_load_document_refuses_what_is_not_json():
    for raw in (b"", b"{", b"\xff", b"[" * 50_000, b'{"a": ["\\u0000"]}'):
        with pytest.raises(MalformedDocument):
            load_document(raw)
    assert load_document(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}


# --- no file makes a 500 ------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3)
    ),
    max_leaves=10,
)


@st.composite
def mutated_docs(draw) -> dict[str, Any]:
    """base_doc() with one value somewhere in it replaced, removed or added."""
    doc = base_doc()
    node: Any = doc
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and draw(st.booleans()):
            node = child
            continue
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        if action == "replace":
            node[key] = draw(JSON_VALUES)
        elif action == "remove":
            del node[key]
        elif isinstance(node, dict):
            node[draw(st.text(max_size=10))] = draw(JSON_VALUES)
        else:
            node.append(draw(JSON_VALUES))
        return doc


@settings(max_examples=400, deadline=None)
@given(doc=mutated_docs())
def test_parse_import_answers_every_document_with_a_plan_or_a_rule_error(doc):
    try:
        plan = parse_import(doc)
    except RuleError as exc:
        assert exc.fields and all(isinstance(m, list) and m for m in exc.fields.values())
    else:
        assert isinstance(plan, ImportPlan)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(doc=mutated_docs())
def test_import_answers_every_document_with_201_400_or_422(app, client, doc):
    # TESTING propagates exceptions: a crash would fail here rather than answer 500.
    before = counts(app)
    response = import_doc(client, json.dumps(doc).encode())
    assert response.status_code in (201, 400, 422)
    created = 1 if response.status_code == 201 else 0
    assert counts(app)[0] == before[0] + created


# --- the upload page -------------------------------------------------------------------------


def test_import_page_shows_the_form(client):
    response = client.get("/import")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Haferl-Datei importieren" in html and "Datei wählen" in html
    assert 'type="file"' in html and 'enctype="multipart/form-data"' in html


def test_upload_creates_a_table_and_redirects_to_it(app, client, evening):
    data = client.get(f"{API}/sessions/{evening}/export.json").data
    response = upload(client, data)
    assert response.status_code == 302
    match = re.fullmatch(r"/t/([A-Za-z0-9_-]+)", response.headers["Location"])
    assert match and match.group(1) != evening
    assert_same_evening(client, app, evening, match.group(1))
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "importiert" in page


def test_upload_of_a_file_that_is_not_haferl_shows_an_error_beside_the_field(app, client):
    before = counts(app)
    for data in (b"kein JSON", b"[]", json.dumps({"format": "excel"}).encode()):
        response = upload(client, data)
        assert response.status_code == 422
        html = response.get_data(as_text=True)
        assert '<p class="field-error">Diese Datei ist keine Haferl-Datei.</p>' in html
    assert counts(app) == before


def test_upload_of_a_file_breaking_a_rule_says_what_is_wrong_in_german(app, client):
    before = counts(app)
    doc = base_doc()
    doc["hands"][1]["hand"]["points"] = 130
    response = upload(client, json.dumps(doc).encode())
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Diese Datei lässt sich nicht importieren." in html
    assert "hands[1].hand.points: Augen: 0 bis 120" in html
    assert counts(app) == before


def test_upload_without_a_file(client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Bitte eine Datei wählen." in response.get_data(as_text=True)


@pytest.fixture
def csrf_app(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    yield app
    dispose(app)


def test_upload_needs_the_csrf_token_and_the_api_does_not(csrf_app):
    client = csrf_app.test_client()
    data = json.dumps(base_doc()).encode()
    before = counts(csrf_app)
    response = upload(client, data)
    assert response.status_code == 400
    assert counts(csrf_app) == before

    page = client.get("/import").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    assert upload(client, data, csrf_token=token).status_code == 302
    assert import_doc(client, data).status_code == 201  # the API is exempt
    assert counts(csrf_app)[0] == before[0] + 2
