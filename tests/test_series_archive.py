"""The results in a tournament's archive (tie-breaks, the finish, the director's
adjustments, those taken back too, the points carried into a final) and a series' archive:
a season with adjustments, a tie on a scoring place, the best N, a merge of two spellings
and a finished final with carried points, exported and imported on another server, gives
the same series table; a malformed file is refused (422, the field named) and nothing is
stored; a file without the new keys imports as before."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from scorer.store.database import db
from scorer.store.models import Series, Tournament, TournamentAdjustment
from tests.conftest import dispose, make_app
from tests.support.series import finish, new_series, series_table, tournament_in
from tests.support.tournaments import API, organiser


@pytest.fixture
def auth(app):
    return organiser(app)


@pytest.fixture
def elsewhere(tmp_path):
    """Another server: an app on a SQLite database of its own, with an organiser."""
    other = tmp_path / "elsewhere"
    other.mkdir()
    app = make_app(other, SQLALCHEMY_DATABASE_URI=f"sqlite:///{other / 'elsewhere.sqlite3'}")
    auth = organiser(app, "zweite@example.org", "Zweite")
    yield app, app.test_client(), auth
    dispose(app)


def get_json(client, path, auth, status=200):
    answer = client.get(f"{API}{path}", headers=auth)
    assert answer.status_code == status, (path, answer.get_json())
    return json.loads(answer.get_data())


def post(client, auth, path, body, status):
    answer = client.post(f"{API}{path}", json=body, headers=auth)
    assert answer.status_code == status, (path, body, answer.get_json())
    return answer.get_json()


def counts(app) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (Series, Tournament, TournamentAdjustment)
        )


def seen(client, auth, tid) -> dict:
    """What the organiser sees of a tournament's results (no ids, keys or links)."""
    tournament = get_json(client, f"/tournaments/{tid}", auth)
    adjustments = get_json(client, f"/tournaments/{tid}/adjustments", auth)
    return {
        "finished_at": tournament["finished_at"],
        "tie_breaks": tournament["tie_breaks"],
        "final": tournament["final"],
        "standings": get_json(client, f"/tournaments/{tid}/standings", auth),
        "adjustments": [{k: v for k, v in a.items() if k != "id"} for a in adjustments],
    }


def adjusted_tournament(client, auth) -> int:
    """A finished one-round tournament whose totals are adjustments only, one taken back,
    with tie-breaks of its own: Bert and Cilli tie, the draw decides."""
    made = post(
        client,
        auth,
        "/tournaments",
        {
            "name": "Wertung",
            "date": "2027-02-01",
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": 1,
            "deals_per_player": 1,
            "players": ["Anna", "Bert", "Cilli", "Done"],
            "tie_breaks": ["draw"],
        },
        201,
    )
    tid = made["id"]
    post(client, auth, f"/tournaments/{tid}/rounds", {}, 201)
    for player, points in (("Anna", 30), ("Bert", 20), ("Cilli", 20), ("Done", 99)):
        body = {"player": player, "points": points, "reason": "Wertung"}
        last = post(client, auth, f"/tournaments/{tid}/adjustments", body, 201)
    taken = client.delete(f"{API}/tournaments/{tid}/adjustments/{last['id']}", headers=auth)
    assert taken.status_code == 200
    finish(client, auth, tid)
    return tid


# --- a tournament's results -----------------------------------------------------------------------


def test_a_finished_tournament_with_adjustments_imports_the_same_and_finished(
    client, auth, elsewhere
):
    tid = adjusted_tournament(client, auth)
    before = seen(client, auth, tid)
    assert before["tie_breaks"] == ["draw"]
    assert len(before["adjustments"]) == 4 and before["adjustments"][3]["taken_back_at"]
    document = get_json(client, f"/tournaments/{tid}/archive.json", auth)
    assert document["version"] == 1
    _, other, other_auth = elsewhere
    made = post(other, other_auth, "/tournaments/import", document, 201)
    after = seen(other, other_auth, made["id"])
    assert after == before
    assert [r["total"] for r in after["standings"]] == [30, 20, 20, 0]
    # Finished: no writes after, as after the director's finish.
    body = {"player": "Anna", "points": 5, "reason": "später"}
    assert (
        other.post(
            f"{API}/tournaments/{made['id']}/adjustments", json=body, headers=other_auth
        ).status_code
        == 409
    )


def test_an_archive_without_the_results_keys_imports_as_before(client, auth, elsewhere):
    tid = adjusted_tournament(client, auth)
    document = get_json(client, f"/tournaments/{tid}/archive.json", auth)
    del document["adjustments"]
    for key in ("tie_breaks", "finished_at"):
        del document["tournament"][key]
    for player in document["players"]:
        del player["carried"]
    other_app, other, other_auth = elsewhere
    made = post(other, other_auth, "/tournaments/import", document, 201)
    after = seen(other, other_auth, made["id"])
    assert after["finished_at"] is None and after["adjustments"] == []
    assert after["tie_breaks"] == ["wins", "last_round"]
    assert {r["total"] for r in after["standings"]} == {0}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["tournament"].update(tie_breaks=["alter"]), "tournament.tie_breaks"),
        (lambda d: d["tournament"].update(tie_breaks="wins"), "tournament.tie_breaks"),
        (lambda d: d["tournament"].update(finished_at=5), "tournament.finished_at"),
        (lambda d: d.update(adjustments={}), "adjustments"),
        (lambda d: d["adjustments"][0].update(player="Zenzi"), "adjustments[0].player"),
        (lambda d: d["adjustments"][1].update(points=0), "adjustments[1].points"),
        (lambda d: d["adjustments"][1].update(points=True), "adjustments[1].points"),
        (lambda d: d["adjustments"][1].update(points=10**6), "adjustments[1].points"),
        (lambda d: d["adjustments"][2].update(reason=""), "adjustments[2].reason"),
        (lambda d: d["adjustments"][2].update(by=None), "adjustments[2].by"),
        (lambda d: d["adjustments"][0].update(at="gestern"), "adjustments[0].at"),
        (lambda d: d["adjustments"][3].update(taken_back_at=1), "adjustments[3].taken_back_at"),
        (lambda d: d["adjustments"][0].update(why="x"), "adjustments[0].why"),
        (lambda d: d["players"][0].update(carried=-1), "players[0].carried"),
        (lambda d: d["players"][0].update(carried="10"), "players[0].carried"),
        # Finished, the file says, with its round not closed (no hand played: no table done).
        (lambda d: d["rounds"][0].update(closed_at=None), "tournament.finished_at"),
    ],
)
def test_a_malformed_results_key_is_refused_and_nothing_is_stored(
    client, auth, elsewhere, change, field
):
    tid = adjusted_tournament(client, auth)
    document = get_json(client, f"/tournaments/{tid}/archive.json", auth)
    change(document)
    other_app, other, other_auth = elsewhere
    before = counts(other_app)
    answer = other.post(f"{API}/tournaments/import", json=document, headers=other_auth)
    assert answer.status_code == 422, answer.get_json()
    assert field in answer.get_json()["error"]["fields"], answer.get_json()
    assert counts(other_app) == before


# --- a series ------------------------------------------------------------------------------------


def season(client, auth) -> dict:
    """Three tournaments and a finished final: adjustments (one taken back), a tie on
    place 2, the best 2 of 3 counting, "Ana" merged into "Anna", points carried in."""
    s = new_series(
        client,
        auth,
        cup_points=[100, 90, 82, 76, 70],
        best_of=2,
        final_carry=[50, 30, 10],
        tie_breaks=["best", "counted"],
    ).get_json()
    tournament_in(
        client, auth, s["id"], "Auftakt", {"Anna": 30, "Bert": 20, "Cilli": 20, "Done": 0}
    )
    tournament_in(client, auth, s["id"], "Zweites", {"Ana": 40, "Bert": 10, "Cilli": 5, "Emil": 0})
    tournament_in(client, auth, s["id"], "Drittes", {"Anna": 0, "Bert": 30, "Cilli": 20, "Done": 9})
    post(client, auth, f"/series/{s['id']}/names", {"from": "Ana", "into": "Anna"}, 201)
    final = tournament_in(
        client, auth, s["id"], "Finale", {"Anna": 0, "Bert": 0, "Cilli": 45, "Done": 3}, final=True
    )
    wrong = {"player": "Done", "points": 70, "reason": "Irrtum"}
    made = post(client, auth, f"/tournaments/{final}/adjustments", wrong, 201)
    client.delete(f"{API}/tournaments/{final}/adjustments/{made['id']}", headers=auth)
    finish(client, auth, final)
    return {**s, "final": final}


def test_a_season_exported_and_imported_gives_the_same_series_table(client, auth, elsewhere):
    s = season(client, auth)
    rows = series_table(client, s["key"])
    # The final decides: Anna 50 carried, Cilli 10 carried + 45, Bert 30 carried, Done 3.
    assert [(r["player"], r["points"]) for r in rows][:4] == [
        ("Cilli", 55),
        ("Anna", 50),
        ("Bert", 30),
        ("Done", 3),
    ]
    document = get_json(client, f"/series/{s['id']}/archive.json", auth)
    assert document["format"] == "haferl-series" and document["version"] == 1
    assert [t["final"] for t in document["tournaments"]] == [False, False, False, True]
    assert document["series"]["names"][0]["from"] == "Ana"
    other_app, other, other_auth = elsewhere
    made = post(other, other_auth, "/series/import", document, 201)
    assert made["key"] != s["key"]
    assert series_table(other, made["key"]) == rows
    # Each tournament is the same, finished, part of the new series, the final its final.
    ours = get_json(client, "/tournaments", auth)
    theirs = get_json(other, "/tournaments", other_auth)
    assert len(ours) == len(theirs) == 4
    for mine, copied in zip(
        sorted(ours, key=lambda t: t["name"]), sorted(theirs, key=lambda t: t["name"]), strict=True
    ):
        assert seen(other, other_auth, copied["id"]) == seen(client, auth, mine["id"])
        assert get_json(other, f"/tournaments/{copied['id']}", other_auth)["series"] == made["id"]
    # The imported series exports as the original did (but for the time of export).
    again = get_json(other, f"/series/{made['id']}/archive.json", other_auth)
    for doc in (document, again):
        doc.pop("exported_at")
        for t in doc["tournaments"]:
            t.pop("exported_at")
    assert again == document


def test_a_series_archive_is_its_organisers_own(client, auth):
    s = new_series(client, auth).get_json()
    other = organiser(client.application, "dritte@example.org", "Dritte")
    assert client.get(f"{API}/series/{s['id']}/archive.json", headers=other).status_code == 404
    assert client.get(f"{API}/series/9999/archive.json", headers=auth).status_code == 404
    assert client.get(f"{API}/series/{s['id']}/archive.json").status_code == 401
    assert client.post(f"{API}/series/import", json={}).status_code == 401


def _tournaments(d):
    return d["tournaments"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="haferl-tournament"), "format"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(extra=1), "document.extra"),
        (lambda d: d["series"].update(name=""), "series.name"),
        (lambda d: d["series"].update(cup_points=[1, 2]), "series.cup_points"),
        (lambda d: d["series"].update(best_of=0), "series.best_of"),
        (lambda d: d["series"].update(final_carry=None), "tournaments[3].final"),
        (lambda d: d["series"].update(tie_breaks=["alter"]), "series.tie_breaks"),
        (lambda d: d["series"].update(colour="rot"), "series.colour"),
        (lambda d: d["series"]["names"][0].update(into=""), "series.names[0].into"),
        (lambda d: d["series"]["names"][0].update(at=None), "series.names[0].at"),
        (lambda d: d["series"]["names"][0].update(by=3), "series.names[0].by"),
        (lambda d: d["series"].update(names={}), "series.names"),
        (lambda d: d.update(tournaments={}), "tournaments"),
        (lambda d: _tournaments(d)[0].update(final="ja"), "tournaments[0].final"),
        (lambda d: _tournaments(d)[0].update(final=True), "tournaments[3].final"),
        (
            lambda d: _tournaments(d)[1]["players"][0].update(carried=-5),
            "tournaments[1].players[0].carried",
        ),
        (
            lambda d: _tournaments(d)[2]["adjustments"][0].update(points=0),
            "tournaments[2].adjustments[0].points",
        ),
        (
            lambda d: _tournaments(d)[2]["tournament"].update(name=1),
            "tournaments[2].tournament.name",
        ),
        (lambda d: _tournaments(d).__setitem__(1, []), "tournaments[1]"),
    ],
)
def test_a_malformed_series_archive_is_refused_and_nothing_is_stored(
    client, auth, elsewhere, change, field
):
    s = season(client, auth)
    document = get_json(client, f"/series/{s['id']}/archive.json", auth)
    change(document)
    other_app, other, other_auth = elsewhere
    before = counts(other_app)
    answer = other.post(f"{API}/series/import", json=document, headers=other_auth)
    assert answer.status_code == 422, answer.get_json()
    assert field in answer.get_json()["error"]["fields"], answer.get_json()
    assert counts(other_app) == before


def test_a_refusal_while_a_later_tournament_is_replayed_leaves_nothing(client, auth, elsewhere):
    s = season(client, auth)
    document = get_json(client, f"/series/{s['id']}/archive.json", auth)
    # Checked well, refused only by the replay: finished with its round left open (no
    # hand was played, so no table's last hand closes it).
    document["tournaments"][2]["rounds"][0]["closed_at"] = None
    other_app, other, other_auth = elsewhere
    before = counts(other_app)
    answer = other.post(f"{API}/series/import", json=document, headers=other_auth)
    assert answer.status_code == 422, answer.get_json()
    assert "tournaments[2].tournament.finished_at" in answer.get_json()["error"]["fields"]
    assert counts(other_app) == before
