"""A cup over a season through the API: the series, cup points from finished tournaments (a
tie on a scoring place), the best N results, the public table and page, and a final whose
players start with the points carried in. A whole season of five tournaments and a final
is written to tests/artifacts/series-season.txt (the closing note quotes it)."""

from __future__ import annotations

import random

import pytest

from tests.support.browser import ARTIFACTS
from tests.support.pdfs import pdf_text, until_printed
from tests.support.series import finish, new_series, series_table, tournament_in
from tests.support.tournaments import API, organiser

PEOPLE = [f"Spieler {i:02d}" for i in range(1, 31)]


@pytest.fixture
def auth(app):
    return organiser(app)


def row_of(rows, player):
    return next(row for row in rows if row["player"] == player)


def test_tied_places_share_the_cup_points_of_the_places_they_occupy(client, auth):
    s = new_series(client, auth).get_json()
    tournament_in(
        client, auth, s["id"], "Auftakt", {"Anna": 30, "Bert": 20, "Cilli": 20, "Done": 0}
    )
    rows = series_table(client, s["key"])
    # Bert and Cilli share places 2 and 3: (90 + 82) / 2 = 86 each.
    assert [(r["player"], r["points"]) for r in rows] == [
        ("Anna", 100),
        ("Bert", 86),
        ("Cilli", 86),
        ("Done", 76),
    ]
    assert row_of(rows, "Bert")["place"] == row_of(rows, "Cilli")["place"] == 2


def test_the_best_results_count_not_the_most_recent(client, auth):
    s = new_series(client, auth, cup_points={"rule": "field"}, best_of=2).get_json()
    field = ["Anna", "Bert", "Cilli", "Done", "Emil"]
    # Anna's places: 1st, 5th, 1st, 5th → with the field rule 5, 1, 5, 1: the first two 5s
    # count (equal cup points: the earlier), not the most recent two (5 and 1).
    seasons = [
        {"Anna": 50, "Bert": 40, "Cilli": 30, "Done": 20, "Emil": 10},
        {"Anna": 0, "Bert": 40, "Cilli": 30, "Done": 20, "Emil": 10},
        {"Anna": 50, "Bert": 40, "Cilli": 30, "Done": 20, "Emil": 10},
        {"Anna": 0, "Bert": 40, "Cilli": 30, "Done": 20, "Emil": 10},
    ]
    for number, totals in enumerate(seasons, start=1):
        assert set(totals) == set(field)
        tournament_in(client, auth, s["id"], f"Turnier {number}", totals)
    anna = row_of(series_table(client, s["key"]), "Anna")
    assert [(r["cup_points"], r["counted"]) for r in anna["results"]] == [
        (5, True),
        (1, False),
        (5, True),
        (1, False),
    ]
    assert anna["points"] == 10


def test_a_final_starts_with_the_points_carried_in_and_then_decides(app, client, auth):
    s = new_series(client, auth, final_carry=[120, 100, 90]).get_json()
    tournament_in(client, auth, s["id"], "Erstes", {"Anna": 30, "Bert": 20, "Cilli": 10, "Done": 0})
    final = tournament_in(
        client, auth, s["id"], "Finale", {"Anna": 0, "Bert": 0, "Cilli": 25, "Done": 0}, final=True
    )
    rows = client.get(f"{API}/tournaments/{final}/standings", headers=auth).get_json()
    carried = {r["player"]: (r["carried"], r["adjustment"], r["total"]) for r in rows}
    assert carried == {
        "Anna": (120, 0, 120),
        "Bert": (100, 0, 100),
        "Cilli": (90, 25, 115),
        "Done": (0, 0, 0),
    }
    key = client.get(f"{API}/tournaments/{final}", headers=auth).get_json()["key"]
    page = client.get(f"/turnier/{key}/stand").get_data(as_text=True)
    assert "aus dem Cup" in page
    assert [r["player"] for r in series_table(client, s["key"])][:2] == ["Anna", "Bert"]  # the cup
    finish(client, auth, final)
    after = series_table(client, s["key"])
    assert [(r["player"], r["points"]) for r in after] == [
        ("Anna", 120),
        ("Cilli", 115),
        ("Bert", 100),
        ("Done", 0),
    ]


@pytest.mark.parametrize(
    "body",
    [
        {"cup_points": [90, 100]},
        {"cup_points": "viel"},
        {"cup_points": [100, True]},
        {"best_of": 0},
        {"final_carry": [-1]},
        {"tie_breaks": ["alter"]},
        {"name": ""},
    ],
)
def test_a_series_that_cannot_be_is_refused(client, auth, body):
    assert new_series(client, auth, **body).status_code == 422, body


def test_a_final_needs_a_series_with_a_carry_and_there_is_one(client, auth):
    plain = new_series(client, auth).get_json()
    with_carry = new_series(client, auth, final_carry=[10]).get_json()
    base = {"name": "F", "game": "haferltarock", "system": "parlett-units", "players": []}
    for body, status in (
        ({**base, "final": True}, 422),
        ({**base, "final": True, "series": plain["id"]}, 422),
        ({**base, "series": 999}, 422),
        ({**base, "final": True, "series": with_carry["id"]}, 201),
        ({**base, "final": True, "series": with_carry["id"]}, 409),
    ):
        assert client.post(f"{API}/tournaments", json=body, headers=auth).status_code == status
    other = organiser(client.application, "zwei@example.org", "Zwei")
    theirs = {**base, "series": plain["id"]}
    assert client.post(f"{API}/tournaments", json=theirs, headers=other).status_code == 422


def test_a_season_of_five_tournaments_and_a_final(client, auth):
    rng = random.Random(2027)
    s = new_series(
        client,
        auth,
        cup_points=[100, 90, 82, 76, 70, 65, 60, 56, 52, 48],
        best_of=3,
        final_carry=[120, 100, 90, 80, 70, 60, 50, 40],
    ).get_json()
    lines = ["cup points by place: 100 90 82 76 70 65 60 56 52 48 (then 0); best 3 count"]
    for number in range(1, 6):
        field = rng.sample(PEOPLE, rng.randint(10, 30))
        totals = {name: rng.randint(-40, 80) for name in field}
        tournament_in(client, auth, s["id"], f"Turnier {number}", totals)
        lines.append(f"Turnier {number}: {len(field)} players")
    before = series_table(client, s["key"])
    lines.append("series table before the final (place, player, points):")
    lines += [f"  {r['place']}. {r['player']} {r['points']}" for r in before[:10]]
    for row in before[:3]:
        shown = [
            f"{r['tournament']}: place {r['place']} → {r['cup_points']}"
            + (" counted" if r["counted"] else "")
            for r in row["results"]
        ]
        counted = [r["cup_points"] for r in row["results"] if r["counted"]]
        assert sum(counted) == row["points"] and len(counted) <= 3
        assert sorted(r["cup_points"] for r in row["results"])[-len(counted) :] == sorted(counted)
        lines.append(f"{row['player']}: " + "; ".join(shown))
        lines.append(f"  = {' + '.join(map(str, counted))} = {row['points']}")
    finalists = [r["player"] for r in before[:8]]
    totals = {name: rng.randint(0, 60) for name in finalists}
    final = tournament_in(client, auth, s["id"], "Finale", totals, final=True)
    rows = client.get(f"{API}/tournaments/{final}/standings", headers=auth).get_json()
    carry = dict(zip(finalists, [120, 100, 90, 80, 70, 60, 50, 40], strict=True))
    for row in rows:
        assert (
            row["carried"] == carry[row["player"]]
            or before[finalists.index(row["player"])]["place"] != finalists.index(row["player"]) + 1
        )  # a tie shares the carry
    finish(client, auth, final)
    after = series_table(client, s["key"])
    lines.append("the final (carried + played = total):")
    lines += [
        f"  {r['place']}. {r['player']} {r['carried']} + {r['total'] - r['carried']} = {r['total']}"
        for r in rows
    ]
    lines.append("series table after the final:")
    lines += [f"  {r['place']}. {r['player']} {r['points']}" for r in after[:10]]
    assert [r["player"] for r in after[: len(rows)]] == [r["player"] for r in rows]
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "series-season.txt").write_text("\n".join(lines) + "\n")


def test_two_spellings_of_one_person_merge_in_the_series_and_the_log_keeps_it(client, auth):
    s = new_series(client, auth).get_json()
    tournament_in(client, auth, s["id"], "Erstes", {"Sepp Huber": 30, "Anna": 20, "Bert": 10})
    tournament_in(client, auth, s["id"], "Zweites", {"Josef Huber": 30, "Anna": 20, "Bert": 10})
    before = series_table(client, s["key"])
    assert {r["player"] for r in before} == {"Sepp Huber", "Josef Huber", "Anna", "Bert"}
    names = f"{API}/series/{s['id']}/names"
    # Refusals change nothing: a name nobody played, two people of one tournament.
    assert (
        client.post(names, json={"from": "Niemand", "into": "X"}, headers=auth).status_code == 422
    )
    unknown_and_blank = client.post(names, json={"from": "Niemand", "into": " "}, headers=auth)
    assert unknown_and_blank.status_code == 422
    assert set(unknown_and_blank.get_json()["error"]["fields"]) == {"from", "into"}
    both = client.post(names, json={"from": "Anna", "into": "Bert"}, headers=auth)
    assert both.status_code == 409
    assert client.get(names, headers=auth).get_json() == []
    merged = client.post(names, json={"from": "Sepp Huber", "into": "Josef Huber"}, headers=auth)
    assert merged.status_code == 201 and merged.get_json()["by"] == "Orga"
    josef = row_of(series_table(client, s["key"]), "Josef Huber")
    assert josef["points"] == 200 and len(josef["results"]) == 2 and josef["place"] == 1
    assert "Sepp Huber" not in {r["player"] for r in series_table(client, s["key"])}
    renamed = client.post(
        names, json={"from": "Josef Huber", "into": "Josef Huber sen."}, headers=auth
    )
    assert renamed.status_code == 201
    assert series_table(client, s["key"])[0]["player"] == "Josef Huber sen."
    log = client.get(names, headers=auth).get_json()
    assert [(line["from"], line["into"]) for line in log] == [
        ("Sepp Huber", "Josef Huber"),
        ("Josef Huber", "Josef Huber sen."),
    ]
    other = organiser(client.application, "zwei@example.org", "Zwei")
    assert client.get(names, headers=other).status_code == 404


def test_the_series_page_and_paper_show_which_results_count(client, auth):
    s = new_series(client, auth, best_of=1).get_json()
    tournament_in(client, auth, s["id"], "Erstes", {"Anna": 30, "Bert": 20, "Cilli": 10})
    tournament_in(client, auth, s["id"], "Zweites", {"Anna": 10, "Bert": 20, "Cilli": 30})
    page = client.get(f"/cup/{s['key']}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "<strong>100</strong>" in text and "(82)" in text  # Anna's 1st counts, her 3rd not
    assert "die besten 1 Ergebnisse zählen" in text or "Ergebnisse zählen" in text
    again = client.get(f"/cup/{s['key']}", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304
    pdf = until_printed(client, f"/cup/{s['key']}/tabelle.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    paper = pdf_text(pdf.data)
    assert "Cupwertung" in paper and "Anna" in paper and "(82)" in paper
    assert client.get("/cup/nichtda").status_code == 404
