"""The tournament director's day through the API (API.md, "Tournament director"):
corrections after a round closed (the organiser only), adjustments with a reason and taken
back, the finish after which every write is refused, the log, and the tie-breaks a
tournament chooses when it is made."""

from __future__ import annotations

import random
import re

from scorer.services import tournaments as ops
from scorer.store.database import db
from scorer.store.models import Tournament
from tests.support.pdfs import pdf_text
from tests.support.tournaments import (
    API,
    GAME,
    SYSTEM,
    basic,
    create,
    created,
    draw,
    log_in,
    organiser,
    play_round,
    post_hand,
    read_round,
    session_of,
)

PLAYERS = ["Anton", "Berta", "Christl", "Dieter", "Erna", "Franz", "Gretl", "Hias"]


def standings(client, auth, tid: int) -> dict[str, dict]:
    response = client.get(f"{API}/tournaments/{tid}/standings", headers=auth)
    assert response.status_code == 200
    return {row["player"]: row for row in response.get_json()}


def a_hand(client, key: str, number: int) -> dict:
    """The hand as entered, with the `version` it was read at."""
    stored = client.get(f"{API}/sessions/{key}/hands/{number}").get_json()
    return {**stored["hand"], "version": stored["version"]}


def fresh_equals_kept(app, tid: int) -> None:
    with app.app_context():
        tournament = db.session.get(Tournament, tid)
        assert ops.tournament_standings(tournament) == ops.fresh_standings(tournament)
        db.session.remove()


def test_a_directors_day_from_the_draw_to_the_final_standings(app, client, monkeypatch):
    """8 players over 2 rounds played to the end, with a correction, an adjustment (and one
    taken back) and the finish; then every write to the tournament or its tables is 409."""
    from scorer.api import tournaments as tournament_api

    monkeypatch.setattr(tournament_api.PUBLIC_STANDINGS, "max_age", 0)
    auth = organiser(app, name="Frau Huber")
    tournament = created(client, auth, PLAYERS, rounds=2, deals=1)
    tid = tournament["id"]
    assert tournament["finished"] is False and tournament["tie_breaks"] == ["wins", "last_round"]
    first = draw(client, auth, tid)
    table = first["tables"][0]
    key = table["key"]
    # Before the round closes a table's key is enough: a tablet corrects its own hand.
    play_round(client, first, random.Random(1))
    assert read_round(client, auth, tid, 1)["closed"] is True  # the last hand closed it

    # After the round closed: the table's key alone is refused, the organiser corrects.
    hand = a_hand(client, key, 1)
    corrected = {
        "declarer": hand["declarer"],
        "contract": "frage",
        "points": 120 if hand["points"] < 61 else 30,
        "version": hand["version"],
    }
    before = standings(client, auth, tid)
    refused = client.put(f"{API}/sessions/{key}/hands/1", json=corrected)
    assert refused.status_code == 409
    assert "only the tournament's organiser" in refused.get_json()["error"]["message"]
    wrong = client.put(
        f"{API}/sessions/{key}/hands/1", json=corrected, headers=basic("orga@example.org", "x")
    )
    assert wrong.status_code == 401
    done = client.put(f"{API}/sessions/{key}/hands/1", json=corrected, headers=auth)
    assert done.status_code == 200, done.get_json()
    after = standings(client, auth, tid)
    declarer = hand["declarer"]
    assert after[declarer]["total"] != before[declarer]["total"]  # standings follow at once
    fresh_equals_kept(app, tid)

    # An adjustment counts in the total and shows (also in the public standings).
    penalty = client.post(
        f"{API}/tournaments/{tid}/adjustments",
        json={"player": "Berta", "points": -10, "reason": "late"},
        headers=auth,
    )
    assert penalty.status_code == 201, penalty.get_json()
    bonus = client.post(
        f"{API}/tournaments/{tid}/adjustments",
        json={"player": "Erna", "points": 5, "reason": "typo"},
        headers=auth,
    ).get_json()
    rows = standings(client, auth, tid)
    assert rows["Berta"]["adjustment"] == -10
    assert rows["Berta"]["total"] == after["Berta"]["total"] - 10
    assert rows["Erna"]["adjustment"] == 5
    taken = client.delete(
        f"{API}/tournaments/{tid}/adjustments/{bonus['id']}", json={}, headers=auth
    )
    assert taken.status_code == 200 and taken.get_json()["taken_back_at"]
    again = client.delete(
        f"{API}/tournaments/{tid}/adjustments/{bonus['id']}", json={}, headers=auth
    )
    assert again.status_code == 409
    rows = standings(client, auth, tid)
    assert rows["Erna"]["adjustment"] == 0 and rows["Erna"]["total"] == after["Erna"]["total"]
    public = client.get(f"{API}/standings/{tournament['key']}").get_json()
    assert {r["player"]: r["adjustment"] for r in public}["Berta"] == -10
    fresh_equals_kept(app, tid)

    # Finishing with a round still open is refused; after round 2 it is the end.
    second = draw(client, auth, tid)
    early = client.post(f"{API}/tournaments/{tid}/finish", json={}, headers=auth)
    assert early.status_code == 409
    play_round(client, second, random.Random(2))
    finished = client.post(f"{API}/tournaments/{tid}/finish", json={}, headers=auth)
    assert finished.status_code == 200, finished.get_json()
    assert finished.get_json()["finished"] is True
    rows = standings(client, auth, tid)
    assert all(row["final"] for row in rows.values())
    final_totals = {name: row["total"] for name, row in rows.items()}

    # Every later write: 409, and nothing changes.
    hand = a_hand(client, key, 2)
    writes = [
        client.put(
            f"{API}/sessions/{key}/hands/2",
            json={"declarer": hand["declarer"], "contract": "frage", "points": 90, "version": 1},
            headers=auth,
        ),
        client.delete(f"{API}/sessions/{key}/hands/2?version={hand['version']}", headers=auth),
        client.post(
            f"{API}/sessions/{key}/hands",
            json={"declarer": hand["declarer"], "contract": "frage", "points": 90},
        ),
        client.post(
            f"{API}/tournaments/{tid}/adjustments",
            json={"player": "Berta", "points": 3, "reason": "x"},
            headers=auth,
        ),
        client.delete(
            f"{API}/tournaments/{tid}/adjustments/{penalty.get_json()['id']}",
            json={},
            headers=auth,
        ),
        client.post(f"{API}/tournaments/{tid}/players", json={"name": "Ida"}, headers=auth),
        client.delete(f"{API}/tournaments/{tid}/players/Hias", json={}, headers=auth),
        client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth),
        client.post(f"{API}/tournaments/{tid}/rounds/2/close", json={}, headers=auth),
        client.post(f"{API}/tournaments/{tid}/finish", json={}, headers=auth),
    ]
    assert [w.status_code for w in writes] == [409] * len(writes), [
        (w.status_code, w.get_json()) for w in writes
    ]
    assert {n: r["total"] for n, r in standings(client, auth, tid).items()} == final_totals

    # The log: every step, in order, with who did it.
    log = client.get(f"{API}/tournaments/{tid}/log", headers=auth).get_json()
    actions = [(line["action"], line["by"]) for line in log]
    assert actions[0] == ("draw", "Frau Huber")
    assert ("close", "table") in actions  # the last hand of round 1 closed it
    assert ("correct", "Frau Huber") in actions
    assert actions[-1] == ("finish", "Frau Huber")
    correction = next(line for line in log if line["action"] == "correct")
    assert correction["round"] == 1 and correction["table"] == table["number"]
    assert correction["number"] == 1
    assert correction["after"]["hand"]["points"] == corrected["points"]
    assert correction["before"]["hand"]["points"] == hand_points_before(log, corrected)
    adjustments = [line for line in log if line["action"] in ("adjust", "take_back")]
    assert [(a["action"], a["player"], a["points"]) for a in adjustments] == [
        ("adjust", "Berta", -10),
        ("adjust", "Erna", 5),
        ("take_back", "Erna", 5),
    ]
    assert all(line["at"].endswith("Z") for line in log)


def hand_points_before(log: list[dict], corrected: dict) -> int:
    line = next(line for line in log if line["action"] == "correct")
    assert line["before"]["hand"]["points"] != corrected["points"]
    return line["before"]["hand"]["points"]


def test_a_tablet_corrects_its_own_table_while_the_round_runs(app, client):
    auth = organiser(app)
    tid = created(client, auth, PLAYERS[:4], rounds=1, deals=2)["id"]
    key = draw(client, auth, tid)["tables"][0]["key"]
    session = session_of(client, key)
    declarer = [p for p in session["players"] if p != session["next_dealer"]][0]
    hand = {"declarer": declarer, "contract": "frage", "points": 70}
    assert client.post(f"{API}/sessions/{key}/hands", json=hand).status_code == 201
    corrected = {**hand, "points": 40, "version": 1}
    assert client.put(f"{API}/sessions/{key}/hands/1", json=corrected).status_code == 200
    log = client.get(f"{API}/tournaments/{tid}/log", headers=auth).get_json()
    assert [(line["action"], line["by"]) for line in log][-1] == ("correct", "table")


def test_adjustments_are_checked_and_belong_to_the_organiser(app, client):
    auth = organiser(app)
    tid = created(client, auth, PLAYERS[:4], rounds=1)["id"]
    other = organiser(app, "zwei@example.org", "Zwei")
    url = f"{API}/tournaments/{tid}/adjustments"
    assert client.post(url, json={"player": "Anton", "points": 1, "reason": "x"}).status_code == 401
    assert (
        client.post(
            url, json={"player": "Anton", "points": 1, "reason": "x"}, headers=other
        ).status_code
        == 404
    )
    bad = client.post(
        url, json={"player": "Nobody", "points": 0, "reason": ""}, headers=auth
    ).get_json()["error"]["fields"]
    assert set(bad) == {"player", "points", "reason"}
    for points in (True, 1.5, "3", 10_001, -10_001):
        answer = client.post(
            url, json={"player": "Anton", "points": points, "reason": "x"}, headers=auth
        )
        assert answer.status_code == 422, points
    german = client.post(
        url,
        json={"player": "Anton", "points": 0, "reason": "x"},
        headers={**auth, "Accept-Language": "de"},
    ).get_json()["error"]["fields"]["points"][0]
    assert "Punkte" in german
    assert client.get(url, headers=auth).get_json() == []
    assert client.delete(f"{url}/99", json={}, headers=auth).status_code == 404


def test_the_tie_breaks_a_tournament_chose_decide_equal_totals(app, client):
    auth = organiser(app)
    body = {"tie_breaks": ["fewest_losses", "draw"]}
    tournament = created(client, auth, PLAYERS[:4], rounds=1, **body)
    assert tournament["tie_breaks"] == ["fewest_losses", "draw"]
    rows = list(standings(client, auth, tournament["id"]).values())
    # Nobody has played: all totals 0; the drawn order leaves nobody sharing a place.
    assert sorted(row["place"] for row in rows) == [1, 2, 3, 4]
    for wrong in (["wins", "wins"], ["coin"], "wins", [1]):
        answer = created_or_refused(client, auth, wrong)
        assert answer.status_code == 422, wrong
        assert "tie_breaks" in answer.get_json()["error"]["fields"]


def created_or_refused(client, auth, tie_breaks):
    return create(client, auth, PLAYERS[:4], rounds=1, tie_breaks=tie_breaks)


# --- the pages ------------------------------------------------------------------------


def test_the_director_works_from_the_pages(app, client, monkeypatch):
    """Adjust, take back, correct a closed round's table from the table page, finish behind
    a confirmation, read the log; the standings page shows the adjustment with its reason
    and says it is the final standings (DE, and EN)."""
    from scorer.tournaments import routes

    # The standings page is kept for half a second (RecentPages): here each look is fresh.
    monkeypatch.setattr(routes.STANDINGS, "max_age", 0)

    auth = organiser(app, name="Frau Huber")
    assert log_in(client).status_code == 302
    tournament = created(client, auth, PLAYERS[:4], rounds=1, deals=1)
    tid, key = tournament["id"], tournament["key"]
    round_ = draw(client, auth, tid)
    play_round(client, round_, random.Random(3))
    page = client.get(f"/turniere/{tid}").get_data(as_text=True)
    assert "Punkteanpassungen und Strafen" in page and "Turnier beenden" in page

    answer = client.post(
        f"/turniere/{tid}/anpassungen",
        data={"player": "Berta", "points": "-5", "reason": "zu spät"},
    )
    assert answer.status_code == 302
    refused = client.post(
        f"/turniere/{tid}/anpassungen", data={"player": "Berta", "points": "x", "reason": ""}
    )
    assert refused.status_code == 302  # back to the page, with the form's words
    assert "Grund fehlt" in client.get(f"/turniere/{tid}").get_data(as_text=True)
    standings_page = client.get(f"/turnier/{key}/stand").get_data(as_text=True)
    assert "zu spät" in standings_page and "Anp." in standings_page
    assert "Bei Punktgleichheit entscheidet" in standings_page
    english = client.get(f"/turnier/{key}/stand?lang=en").get_data(as_text=True)
    assert "zu spät" in english and "On equal points" in english
    client.get(f"/turnier/{key}/stand?lang=de")  # the device's language is German again

    # The organiser, logged in, corrects a hand of the closed round on the table page: the
    # hand list offers the edit to the organiser only.
    table_key = round_["tables"][0]["key"]
    edit_link = f'href="/t/{table_key}/spiele/1"'
    assert edit_link in client.get(f"/t/{table_key}/spiele").get_data(as_text=True)
    tablet = app.test_client()
    assert edit_link not in tablet.get(f"/t/{table_key}/spiele").get_data(as_text=True)
    hand = a_hand(client, table_key, 1)
    edit = client.post(
        f"/t/{table_key}/spiele/1",
        data={
            "declarer": hand["declarer"],
            "contract": "frage",
            "points": "120",
            "version": str(hand["version"]),
        },
    )
    assert edit.status_code in (302, 303), edit.get_data(as_text=True)[:500]
    assert a_hand(client, table_key, 1)["points"] == 120

    assert "Turnier beenden?" in client.get(f"/turniere/{tid}/beenden").get_data(as_text=True)
    assert client.post(f"/turniere/{tid}/beenden", data={"bestaetigt": "ja"}).status_code == 302
    page = client.get(f"/turniere/{tid}").get_data(as_text=True)
    assert "Endergebnis" in page and "Turnier beenden" not in page
    assert "Endstand" in client.get(f"/turnier/{key}/stand").get_data(as_text=True)
    log = client.get(f"/turniere/{tid}/protokoll").get_data(as_text=True)
    for words in (
        "Runde 1 ausgelost",
        "korrigiert",
        "Berta: −5 Punkte (zu spät)",
        "Das Turnier ist beendet",
        "Frau Huber",
        "Tisch",
    ):
        assert words in log, words
    # After the end the table page refuses a correction even from the organiser: back to
    # the table, which says why.
    again = client.post(
        f"/t/{table_key}/spiele/1",
        data={
            "declarer": hand["declarer"],
            "contract": "frage",
            "points": "30",
            "version": str(hand["version"] + 1),
        },
        follow_redirects=True,
    )
    assert "das Turnier ist beendet" in again.get_data(as_text=True)
    assert a_hand(client, table_key, 1)["points"] == 120


def test_the_new_tournament_page_chooses_the_tie_breaks(app, client):
    """The form offers the tie-breaks with today's default preselected; the order chosen
    is the tournament's; a tie-break chosen twice is refused with the field named."""
    from tests.conftest import DefaultFields

    organiser(app)
    assert log_in(client).status_code == 302
    html = client.get(f"/turniere/neu?game={GAME}&system={SYSTEM}").get_data(as_text=True)
    parser = DefaultFields()
    # The tie-break fields too, as a browser posts them: each select's selected option.
    parser.feed(html.replace('name="tie_break_', 'name="param_tie_break_'))
    parser.values = {
        k.removeprefix("param_") if k.startswith("param_tie_break_") else k: v
        for k, v in parser.values.items()
    }
    assert parser.values["tie_break_1"] == "wins"
    assert parser.values["tie_break_2"] == "last_round"
    assert parser.values["tie_break_3"] == ""
    data = {
        **parser.values,
        "game": GAME,
        "system": SYSTEM,
        "name": "Herbstturnier",
        "day": "2026-10-03",
        "rounds": "2",
        "deals": "1",
        "players": "\n".join(PLAYERS[:4]),
    }
    twice = client.post("/turniere/neu", data={**data, "tie_break_2": "wins"})
    assert twice.status_code == 422
    assert "nur einmal" in twice.get_data(as_text=True)
    chosen = {"tie_break_1": "fewest_losses", "tie_break_2": "best_round", "tie_break_3": "draw"}
    made = client.post("/turniere/neu", data={**data, **chosen})
    assert made.status_code == 302
    with app.app_context():
        tournament = db.session.scalar(db.select(Tournament))
        assert tournament.tie_breaks == ["fewest_losses", "best_round", "draw"]
        db.session.remove()


def test_the_round_overview_the_seating_for_the_room_and_the_table_cards(app, client):
    """The organiser's page follows the tables (304 while nothing changed), says how long
    since each table's last entry and marks a table behind the others; the seating page
    lists every name with its table; the table cards are one A6 page per table with its
    players and the rules' mark; the final results PDF has each round's tables."""
    import io

    from pypdf import PdfReader

    auth = organiser(app)
    assert log_in(client).status_code == 302
    tournament = created(client, auth, PLAYERS, rounds=1, deals=2)
    tid, key = tournament["id"], tournament["key"]
    round_ = draw(client, auth, tid)
    # Table 1 plays three hands, table 2 none: table 2 is behind.
    first = round_["tables"][0]["key"]
    for points in (70, 40, 90):
        session = session_of(client, first)
        declarer = next(p for p in session["players"] if p != session["next_dealer"])
        assert (
            post_hand(
                client, first, {"declarer": declarer, "contract": "frage", "points": points}
            ).status_code
            == 201
        )
    page = client.get(f"/turniere/{tid}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'class="behind"' in html
    assert html.count('class="behind"') == 1 and "im Rückstand" in html
    assert "gerade eben" in html
    etag = page.headers["ETag"]
    again = client.get(f"/turniere/{tid}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    session = session_of(client, first)
    declarer = next(p for p in session["players"] if p != session["next_dealer"])
    post_hand(client, first, {"declarer": declarer, "contract": "frage", "points": 61})
    assert client.get(f"/turniere/{tid}", headers={"If-None-Match": etag}).status_code == 200

    seating = client.get(f"/turnier/{key}/runde/1/sitzplan")
    assert seating.status_code == 200
    text = seating.get_data(as_text=True)
    for table in round_["tables"]:
        for name in table["players"]:
            assert f'<bdi>{name}</bdi> <span class="at">Tisch {table["number"]}</span>' in text
    assert client.get(f"/turnier/{key}/runde/2/sitzplan").status_code == 404
    assert client.get("/turnier/nichts/runde/1/sitzplan").status_code == 404

    cards = client.get(f"/turniere/{tid}/runde/1/karten.pdf")
    assert cards.status_code == 200 and cards.mimetype == "application/pdf"
    pages = PdfReader(io.BytesIO(cards.data)).pages
    assert len(pages) == len(round_["tables"])
    width, height = float(pages[0].mediabox.width), float(pages[0].mediabox.height)
    assert (round(width), round(height)) == (298, 420)  # A6 in points
    words = pdf_text(cards.data)
    for table in round_["tables"]:
        assert f"Tisch {table['number']}" in words
        assert all(name in words for name in table["players"])
    assert "Regeln" in words

    client.post(f"/turniere/{tid}/runde/1/schliessen", data={"bestaetigt": "ja"})
    client.post(f"/turniere/{tid}/beenden", data={"bestaetigt": "ja"})
    final = pdf_text(client.get(f"/turniere/{tid}/tabelle.pdf").data)
    assert "Endergebnis" in final and "Tische der Runden" in final


def test_the_seating_of_a_large_room_comes_on_pages_that_turn(app, client):
    """200 players: the seating page shows 24 names at a time, says which page it is, and
    turns to the next page by itself (a meta refresh, no script), the last to the first;
    every name appears on exactly one page."""
    auth = organiser(app)
    names = [f"Spieler {i:03d}" for i in range(200)]
    tournament = created(client, auth, names, rounds=1, deals=1)
    round_ = draw(client, auth, tournament["id"])
    base = f"/turnier/{tournament['key']}/runde/1/sitzplan"
    seen = []
    for page in range(1, 10):
        html = client.get(f"{base}?seite={page}").get_data(as_text=True)
        shown = re.findall(r"<bdi>(Spieler \d+)</bdi>", html)
        assert 0 < len(shown) <= 24
        seen += shown
        assert f"Seite {page} von 9" in html
        following = 1 if page == 9 else page + 1
        assert f'content="12;url={base}?seite={following}"' in html
    assert sorted(seen) == sorted(names)
    table_of = {n: t["number"] for t in round_["tables"] for n in t["players"]}
    first = client.get(base).get_data(as_text=True)
    assert f"Tisch {table_of['Spieler 000']}" in first and "Seite 1 von 9" in first
    assert "Seite 1 von 9" in client.get(f"{base}?seite=99").get_data(as_text=True)
    small = created(client, auth, PLAYERS, rounds=1)
    draw(client, auth, small["id"])
    one = client.get(f"/turnier/{small['key']}/runde/1/sitzplan").get_data(as_text=True)
    assert "http-equiv" not in one and "Seite" not in one
