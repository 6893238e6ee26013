"""A Stammtisch's or a tournament's whole history in one file: exported by the API and the
pages, imported on another server (a second app on a database of its own) into an
identical group or tournament with new keys; a newer file refused; a tampered total
worked out again from the hands and the history, never believed."""

from __future__ import annotations

import copy
import json
import random

import pytest
from sqlalchemy import func, select

from scorer.domain.limits import MAX_ARCHIVE_BYTES
from scorer.store.database import db
from scorer.store.models import Group, TableSession, Tournament
from tests.conftest import dispose, make_app
from tests.support.groups import (
    BIG,
    FOUR,
    FRAGE_LOST,
    FRAGE_WON,
    close,
    create_group,
    evening,
    play,
)
from tests.support.migrations import app_on_release, same_rows
from tests.support.tables import lineup, table_version
from tests.support.tournaments import (
    basic,
    created,
    draw,
    log_in,
    organiser,
    play_round,
    play_table,
    read_round,
)

API = "/api/v1"


@pytest.fixture
def elsewhere(tmp_path):
    """Another server: an app on a SQLite database of its own (on the PostgreSQL leg the
    first server is PostgreSQL's), with an organiser."""
    other = tmp_path / "elsewhere"
    other.mkdir()
    app = make_app(other, SQLALCHEMY_DATABASE_URI=f"sqlite:///{other / 'elsewhere.sqlite3'}")
    auth = organiser(app, "zweite@example.org", "Zweite")
    yield app, app.test_client(), auth
    dispose(app)


# --- what must come out the same ------------------------------------------------------------


def group_answers(client, key: str) -> dict:
    """Everything a group's members see, without the keys (an import makes new ones)."""
    group = client.get(f"{API}/groups/{key}").get_json()
    evenings = []
    for ev in group["evenings"]:
        session = client.get(f"{API}/sessions/{ev['key']}").get_json()
        settlement = client.get(f"{API}/sessions/{ev['key']}/settlement").get_json()
        export = client.get(f"{API}/sessions/{ev['key']}/export.json").get_json()
        evenings.append(
            {
                **{k: v for k, v in ev.items() if k != "key"},
                "balances": session["balances"],
                "hand_count": session["hand_count"],
                "players": session["players"],
                "settlement": settlement["balances"],
                "transfers": settlement["transfers"],
                "hands": export["hands"],
                "lineups": export.get("lineups"),
                "params": export["params"],
            }
        )
    standings = {
        season: client.get(f"{API}/groups/{key}/standings?season={season}").get_json()
        for season in range(1, group["season"] + 1)
    }
    return {
        **{k: v for k, v in group.items() if k not in ("key", "evenings")},
        "evenings": evenings,
        "standings": standings,
        "settle_up": {
            k: v
            for k, v in client.get(f"{API}/groups/{key}/settlement").get_json().items()
            if k != "evenings"
        },
    }


def history(app, key: str) -> list[tuple]:
    """The group's history lines (action, season, amounts, when), evenings by position."""
    from scorer.services import archives, groups

    with app.app_context():
        group = groups.get_group(key)
        lines = archives.group_archive(group)["history"]
        db.session.remove()
    return [tuple(sorted(line.items())) for line in lines]


def archive_of(client, key: str) -> dict:
    response = client.get(f"{API}/groups/{key}/archive.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith('attachment; filename="haferl-')
    return json.loads(response.get_data())


def imported(client, document: dict) -> dict:
    response = client.post(f"{API}/groups/import", json=document)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def a_season_and_a_half(app, client) -> str:
    """A group's life: players who come and go, a voided and an edited hand, the Haferl
    carried, an evening reopened and closed again, a member renamed, a season closed, the
    rules changed, a member who stopped coming and came back, the next season begun with
    an evening still open."""
    key = create_group(client)["key"]
    first = evening(client, key, FOUR)
    play(client, first, [FRAGE_WON, FRAGE_LOST, BIG, FRAGE_WON])
    assert client.delete(f"{API}/sessions/{first['key']}/hands/2?version=1").status_code == 204
    change = lineup(["Emil", "Anton", "Berta", "Charlotte"], table_version(app, first["key"]))
    assert client.post(f"/t/{first['key']}/spieler", data=change).status_code == 302
    play(client, first, [FRAGE_WON, FRAGE_LOST])
    first_hand = client.get(f"{API}/sessions/{first['key']}/hands/1").get_json()
    declarer = first_hand.get("declarer") or first_hand["hand"]["declarer"]
    edit = {**FRAGE_WON, "declarer": declarer, "points": 90, "version": 1}
    assert client.put(f"{API}/sessions/{first['key']}/hands/1", json=edit).status_code == 200
    close(client, first)

    second = evening(client, key, ["Anton", "Berta", "Emil"])
    play(client, second, [BIG, FRAGE_LOST, FRAGE_WON])
    close(client, second)
    assert client.post(f"/t/{second['key']}/oeffnen").status_code == 302  # reopened …
    play(client, second, [FRAGE_WON])
    close(client, second)  # … and closed again

    rename = client.put(f"{API}/groups/{key}/members/Emil", json={"name": "Emilia"})
    assert rename.status_code == 200, rename.get_json()
    assert client.post(f"{API}/groups/{key}/season/close").status_code == 200
    rules = {"params": {"stake_cents": 60}}
    assert client.put(f"{API}/groups/{key}/rules", json=rules).status_code == 200
    away = {"coming": False}
    assert client.put(f"{API}/groups/{key}/members/Charlotte", json=away).status_code == 200

    third = evening(client, key, ["Anton", "Berta", "Charlotte", "Dieter"])  # she is back
    play(client, third, [FRAGE_LOST, FRAGE_WON])
    close(client, third)
    fourth = evening(client, key, FOUR)
    play(client, fourth, [FRAGE_WON])  # still open
    return key


# --- a group ------------------------------------------------------------------------------------


def test_a_groups_whole_history_moves_to_another_server(app, client, elsewhere):
    key = a_season_and_a_half(app, client)
    before = group_answers(client, key)
    assert before["season"] == 2 and before["closed_seasons"] and before["pot_cents"] == 0
    document = archive_of(client, key)
    assert document["format"] == "haferl-group" and document["version"] == 1
    assert len(document["evenings"]) == 4
    assert {line["action"] for line in document["history"]} == {
        "pot_out",
        "pot_back",
        "season_close",
        "rename",
        "rules",
        "retire",
        "return",
    }

    other_app, other, _ = elsewhere
    made = imported(other, document)
    assert made["key"] != key and made["name"] == before["name"]
    assert all(ev["key"] not in json.dumps(document) for ev in made["evenings"])
    after = group_answers(other, made["key"])
    assert after == before
    assert history(other_app, made["key"]) == history(app, key)

    # The imported group goes on: its open evening takes a hand, a new one starts.
    open_evening = made["evenings"][-1]
    assert not open_evening["closed"]
    play(other, {"key": open_evening["key"]}, [FRAGE_WON])
    close(other, {"key": open_evening["key"]})
    assert evening(other, made["key"], ["Anton", "Berta", "Dieter"])["group"] == made["key"]


def test_a_collected_settle_up_and_its_paid_evenings_come_along(app, client, elsewhere):
    key = create_group(client, settle="collected", carry_pot=False)["key"]
    for players in (FOUR, ["Anton", "Berta", "Charlotte"], FOUR):
        session = evening(client, key, players)
        play(client, session, [FRAGE_WON, BIG, FRAGE_LOST])
        close(client, session)
        if players != FOUR:
            assert client.post(f"{API}/groups/{key}/settlement/close").status_code == 200
    before = group_answers(client, key)
    assert [ev["paid"] for ev in before["evenings"]] == [True, True, False]
    assert before["settle_up"]["balances"]

    other_app, other, _ = elsewhere
    made = imported(other, archive_of(client, key))
    assert group_answers(other, made["key"]) == before
    assert history(other_app, made["key"]) == history(app, key)


def test_tampered_totals_are_worked_out_again(app, client, elsewhere):
    key = a_season_and_a_half(app, client)
    before = group_answers(client, key)
    document = archive_of(client, key)
    forged = copy.deepcopy(document)
    forged["group"]["pot_cents"] = 99_999
    forged["group"]["season"] = 7
    for entry in forged["evenings"]:
        entry["opening_pot"] = 5_000
        entry["evening"]["balances"] = {p: 10_000 for p in entry["evening"]["balances"]}
        entry["evening"]["transfers"] = []
    for line in forged["history"]:
        if "cents" in line:
            line["cents"] += 700
        if "shares" in line:
            line["shares"] = {"Anton": 123_456}
            line["pot"] = 123_456
    _, other, _ = elsewhere
    made = imported(other, forged)
    assert group_answers(other, made["key"]) == before

    # A hand changed in the file is a different evening: its totals follow the hand.
    changed = copy.deepcopy(document)
    changed["evenings"][2]["evening"]["hands"][0]["hand"]["points"] = 120
    third = imported(other, changed)
    answers = group_answers(other, third["key"])
    assert answers["evenings"][2]["balances"] != before["evenings"][2]["balances"]
    assert answers["evenings"][:2] == before["evenings"][:2]


def test_a_file_from_a_newer_version_is_refused_and_nothing_is_made(app, client, elsewhere):
    key = a_season_and_a_half(app, client)
    document = archive_of(client, key)
    other_app, other, _ = elsewhere

    def groups_and_evenings() -> tuple[int, int]:
        with other_app.app_context():
            counts = (
                db.session.scalar(select(func.count()).select_from(Group)),
                db.session.scalar(select(func.count()).select_from(TableSession)),
            )
            db.session.remove()
        return counts

    for version, said in [
        (2, "newer Haferl (archive version 2)"),
        (0, "must be a whole number from 1"),
        ("1", "must be a whole number from 1"),
    ]:
        response = other.post(f"{API}/groups/import", json={**document, "version": version})
        assert response.status_code == 422, response.get_json()
        assert said in json.dumps(response.get_json()["error"]["fields"]["version"])
    german = other.post(
        f"{API}/groups/import",
        json={**document, "version": 2},
        headers={"Accept-Language": "de"},
    )
    assert "neueren Haferl" in json.dumps(german.get_json(), ensure_ascii=False)
    assert groups_and_evenings() == (0, 0)


@pytest.mark.parametrize(
    "spoil, field",
    [
        (lambda d: d.pop("evenings"), "evenings"),
        (lambda d: d["group"].update(game="schach"), "game"),
        (lambda d: d["group"].update(settle="weekly"), "group.settle"),
        (lambda d: d["group"].update(share_by=None), "group.share_by"),
        (lambda d: d["evenings"][1]["evening"]["hands"][0]["hand"].update(points=200), "points"),
        (lambda d: d["evenings"][3].update(season=1), "evenings[3].season"),
        (lambda d: d["history"].append({"action": "drop_table", "season": 1}), "action"),
        (lambda d: d["history"][0].update(evening=99), "history[0].evening"),
        (lambda d: d["evenings"][0]["evening"].update(closed=False), "evenings[0]"),
        (lambda d: d.update(format="haferl-session"), "format"),
        (lambda d: d.update(extra=1), "document.extra"),
    ],
)
def test_a_broken_archive_is_refused_with_a_field_message(app, client, elsewhere, spoil, field):
    document = archive_of(client, a_season_and_a_half(app, client))
    spoil(document)
    other_app, other, _ = elsewhere
    response = other.post(f"{API}/groups/import", json=document)
    assert response.status_code in (409, 422), response.get_json()
    body = response.get_json()
    assert field in json.dumps(body), body
    with other_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(TableSession)) == 0
        db.session.remove()


def test_an_archive_that_is_not_json_or_too_large_is_refused(app, client, elsewhere):

    _, other, _ = elsewhere
    # Larger than any other body may be (MAX_CONTENT_LENGTH), within an archive's limit.
    document = json.dumps(archive_of(client, a_season_and_a_half(app, client))).encode()
    padded = document[:-1] + b" " * (app.config["MAX_CONTENT_LENGTH"] + 1000) + b"}"
    response = other.post(f"{API}/groups/import", data=padded, content_type="application/json")
    assert response.status_code == 201, response.get_json()
    response = other.post(f"{API}/groups/import", data=b"{nope", content_type="application/json")
    assert response.status_code == 400
    huge = b'{"format": "haferl-group", "pad": "' + b"x" * MAX_ARCHIVE_BYTES + b'"}'
    response = other.post(f"{API}/groups/import", data=huge, content_type="application/json")
    assert response.status_code == 413


# --- a tournament -------------------------------------------------------------------------------


def test_a_tournaments_rounds_and_standings_move_to_another_server(app, client, elsewhere):
    auth = organiser(app)
    players = [f"Spieler {i}" for i in range(1, 12)]
    tid = created(client, auth, players, rounds=3, deals=1)["id"]
    rng = random.Random(28)
    play_round(client, draw(client, auth, tid), rng)
    assert read_round(client, auth, tid, 1)["closed"]
    second = draw(client, auth, tid)
    play_table(client, second["tables"][0]["key"], 2, rng)
    tournament = client.get(f"{API}/tournaments/{tid}", headers=auth).get_json()
    standings = client.get(f"{API}/tournaments/{tid}/standings", headers=auth).get_json()

    assert client.get(f"{API}/tournaments/{tid}/archive.json").status_code == 401
    response = client.get(f"{API}/tournaments/{tid}/archive.json", headers=auth)
    assert response.status_code == 200
    document = json.loads(response.get_data())
    assert document["format"] == "haferl-tournament" and len(document["rounds"]) == 2

    other_app, other, other_auth = elsewhere
    assert other.post(f"{API}/tournaments/import", json=document).status_code == 401
    forged = copy.deepcopy(document)
    forged["tournament"]["standings"] = [{"player": "Spieler 1", "total": 10**6}]
    response = other.post(f"{API}/tournaments/import", json=forged, headers=other_auth)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()
    assert made["key"] != tournament["key"]
    for field in ("name", "date", "game", "system", "params", "rounds", "players"):
        assert made[field] == tournament[field], field
    assert (
        other.get(f"{API}/tournaments/{made['id']}/standings", headers=other_auth).get_json()
        == standings
    )
    public = other.get(f"{API}/standings/{made['key']}").get_json()
    assert public == client.get(f"{API}/standings/{tournament['key']}").get_json()

    for number in (1, 2):
        old = read_round(client, auth, tid, number)
        new = read_round(other, other_auth, made["id"], number)
        assert new["closed"] == old["closed"]
        for a, b in zip(old["tables"], new["tables"], strict=True):
            assert (a["players"], a["hands"]) == (b["players"], b["hands"])
            assert a["key"] != b["key"]

    # The imported tournament goes on: round 2 plays to its end, round 3 is drawn.
    play_round(other, read_round(other, other_auth, made["id"], 2), rng)
    assert read_round(other, other_auth, made["id"], 2)["closed"]
    assert draw(other, other_auth, made["id"])["number"] == 3
    with other_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Tournament)) == 1
        db.session.remove()


def test_a_tournament_archive_names_only_the_rounds_players(app, client, elsewhere):
    auth = organiser(app)
    tid = created(client, auth, [f"Spieler {i}" for i in range(1, 9)], rounds=2, deals=1)["id"]
    draw(client, auth, tid)
    document = json.loads(
        client.get(f"{API}/tournaments/{tid}/archive.json", headers=auth).get_data()
    )
    tables = document["rounds"][0]["tables"]
    twice = tables[0]["table"]["players"][0]  # seated at the second table too
    tables[1]["table"]["players"][0] = tables[1]["table"]["first_dealer"] = twice
    _, other, other_auth = elsewhere
    response = other.post(f"{API}/tournaments/import", json=document, headers=other_auth)
    assert response.status_code == 422
    assert "rounds[0].tables[1].table.players" in response.get_json()["error"]["fields"]


# --- the pages ----------------------------------------------------------------------------------


def test_the_group_and_tournament_pages_offer_the_archive_and_import_takes_it(
    app, client, elsewhere
):
    key = a_season_and_a_half(app, client)
    page = client.get(f"/s/{key}").get_data(as_text=True)
    assert f"/api/v1/groups/{key}/archive.json" in page
    document = archive_of(client, key)

    other_app, other, _ = elsewhere
    upload = {"file": (json_file(document), "stammtisch.json")}
    response = other.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    assert response.headers["Location"].startswith("/s/")
    new_key = response.headers["Location"].split("/")[2]
    assert group_answers(other, new_key) == group_answers(client, key)

    # A tournament's file on the page: only for an organiser who is logged in.
    auth = organiser(app)
    tid = created(client, auth, [f"Spieler {i}" for i in range(1, 9)], rounds=2, deals=1)["id"]
    draw(client, auth, tid)
    assert log_in(client).status_code == 302
    show = client.get(f"/turniere/{tid}").get_data(as_text=True)
    assert f"/turniere/{tid}/archiv.json" in show
    tournament_file = client.get(f"/turniere/{tid}/archiv.json")
    assert tournament_file.status_code == 200
    upload = {"file": (json_file(json.loads(tournament_file.get_data())), "turnier.json")}
    refused = other.post("/import", data=upload, content_type="multipart/form-data")
    assert refused.status_code == 422
    assert "anmelden" in refused.get_data(as_text=True).lower()
    assert log_in(other, "zweite@example.org").status_code == 302
    upload["file"] = (json_file(json.loads(tournament_file.get_data())), "turnier.json")
    response = other.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    assert response.headers["Location"].startswith("/turniere/")


def json_file(document: dict):
    import io

    return io.BytesIO(json.dumps(document).encode())


# --- real data: a release's database, upgraded, moved --------------------------------------------


def test_a_release_databases_groups_and_tournaments_move_whole(app, client, tmp_path):
    """The release of e63135f (a Stammtisch with a closed season, evenings with players
    who came and went, a tournament with a played round and a second partly played),
    upgraded to head, exported and imported here: the same answers everywhere."""
    from tests.conftest import DATA

    release, answers, _ = app_on_release(DATA / "upgrades" / "e63135f.json", "sqlite", tmp_path)
    assert answers["groups"] and answers["tournaments"]
    upgrade = release.test_cli_runner().invoke(args=["db", "upgrade"])
    assert upgrade.exit_code == 0, upgrade.output
    release.config["RATE_LIMITS"] = False
    source = release.test_client()
    auth = organiser(app, "neu@example.org", "Neu")
    try:
        for key in answers["groups"]:
            made = imported(client, archive_of(source, key))
            before = group_answers(source, key)
            assert before["closed_seasons"] and len(before["evenings"]) >= 2
            assert group_answers(client, made["key"]) == before
        with release.app_context():
            owned = [
                (t.id, t.organiser.email, t.key) for t in db.session.scalars(select(Tournament))
            ]
            db.session.remove()
        for tid, email, key in owned:
            document = source.get(f"{API}/tournaments/{tid}/archive.json", headers=basic(email))
            assert document.status_code == 200, (email, document.get_data()[:200])
            response = client.post(
                f"{API}/tournaments/import", json=document.get_json(), headers=auth
            )
            assert response.status_code == 201, response.get_json()
            made = response.get_json()
            before = source.get(f"{API}/standings/{key}").get_json()
            assert client.get(f"{API}/standings/{made['key']}").get_json() == before
            rows = before["standings"] if isinstance(before, dict) else before
            assert same_rows(rows, answers["tournaments"][key])  # what the release said
    finally:
        with release.app_context():
            db.session.remove()
            db.engine.dispose()
