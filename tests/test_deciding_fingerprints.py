"""Tests that decide three fingerprints a watching device or the printer relies on:

1. A tournament's standings (the public page, the public JSON, the organiser's PDF) change
   their fingerprint after an adjustment, after an adjustment is taken back and after the
   finish: a reader who asks with the old ETag gets the new standings (not 304), and the
   PDF is printed anew and says what changed.
2. A table's live pages (the table, the hand list, the settle-up, the API's session) change
   their fingerprint when another device strikes a hand out (or takes it back with Undo)
   or corrects it: the first device's conditional GET with its old ETag gets 200 and the
   new content.
3. A paper that another request printed and stored while this one was on its way is read
   from the cache, not printed again: two requests for the same paper, one print.

The kept pages' freshness (`RecentPages.max_age`) is decided by a clock the test moves on,
never by how fast the machine is; threads wait on events, never on sleeps."""

from __future__ import annotations

import base64
import json
import re
import threading
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from scorer.reports import printing
from scorer.services.accounts import create_organiser
from scorer.store.database import db
from tests.conftest import PostedFields
from tests.support.clocks import Clock
from tests.support.pdfs import pdf_text

API = "/api/v1"
EMAIL, PASSWORD = "leitung@example.org", "geheim123"
PLAYERS = ["Anton", "Berta", "Christl", "Dieter"]
POLL = {"X-Haferl-Live": "1"}
REASON = "Spiel nachgetragen"


@pytest.fixture
def patient_printer(monkeypatch) -> None:
    """A request waits for its print however slow the machine (no 202 "being printed")."""
    monkeypatch.setattr(printing, "WAIT", 120.0)
    monkeypatch.setattr(printing, "STARTING_CHECKS", 24_000)


def text_of(html: str) -> str:
    """What a page says: tags dropped, white space collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def euro(cents: int) -> str:
    sign = "+" if cents > 0 else "−" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100},{abs(cents) % 100:02d} €"


# --- 1. the standings after an adjustment, a take-back and the finish -----------------------


def organiser(app) -> dict[str, str]:
    with app.app_context():
        create_organiser("Leitung", EMAIL, PASSWORD, hashing=app.config["PASSWORD_HASH"])
        db.session.commit()
    return {"Authorization": "Basic " + base64.b64encode(f"{EMAIL}:{PASSWORD}".encode()).decode()}


def tournament_with_a_closed_round(app, client) -> dict:
    """Four players, round 1 drawn, one hand played, the round closed; the organiser logged
    in on `client` (the PDF is the organiser's). The tournament with its Basic header."""
    auth = organiser(app)
    body = {
        "name": "Kirtabock",
        "date": "2026-03-14",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 2,
        "deals_per_player": 1,
        "players": PLAYERS,
    }
    made = client.post(f"{API}/tournaments", json=body, headers=auth)
    assert made.status_code == 201, made.get_json()
    tournament = {**made.get_json(), "auth": auth}
    drawn = client.post(f"{API}/tournaments/{tournament['id']}/rounds", json={}, headers=auth)
    assert drawn.status_code == 201, drawn.get_json()
    key = drawn.get_json()["tables"][0]["key"]
    session = client.get(f"{API}/sessions/{key}").get_json()
    declarer = next(p for p in session["players"] if p != session["next_dealer"])
    hand = {"declarer": declarer, "contract": "frage", "points": 90}
    assert client.post(f"{API}/sessions/{key}/hands", json=hand).status_code == 201
    closed = client.post(
        f"{API}/tournaments/{tournament['id']}/rounds/1/close", json={}, headers=auth
    )
    assert closed.status_code == 200, closed.get_json()
    signed_in = client.post("/veranstalter/anmelden", data={"email": EMAIL, "password": PASSWORD})
    assert signed_in.status_code == 302
    return tournament


class Standings:
    """The standings as one reader sees them: page, JSON and PDF, each with its fingerprint."""

    def __init__(self, app, client, clock: Clock, tournament: dict, prints: list, old=None):
        clock.later()  # whatever a kept page says, this reader's ask looks at the database
        page_url = f"/turnier/{tournament['key']}/stand"
        json_url = f"{API}/standings/{tournament['key']}"
        page = client.get(page_url, headers={**POLL, "If-None-Match": old.page_etag} if old else {})
        answer = client.get(json_url, headers={"If-None-Match": old.json_etag} if old else {})
        assert page.status_code == 200, "the standings page said 304 to the old ETag"
        assert answer.status_code == 200, "the standings JSON said 304 to the old ETag"
        self.page_etag, self.page = page.headers["ETag"], text_of(page.get_data(as_text=True))
        self.json_etag, self.rows = answer.headers["ETag"], answer.get_json()
        printed_before = len(prints)
        paper = client.get(f"/turniere/{tournament['id']}/tabelle.pdf")
        assert paper.status_code == 200 and paper.data.startswith(b"%PDF")
        self.pdf, self.pdf_text = paper.data, pdf_text(paper.data)
        self.printed = len(prints) - printed_before
        cache = Path(app.config["PDF_CACHE"])
        self.pdf_files = sorted(p.name for p in cache.glob("turnier-*-tabelle-*.pdf"))
        if old is not None:
            assert self.page_etag != old.page_etag, "the standings page kept its ETag"
            assert self.json_etag != old.json_etag, "the standings JSON kept its ETag"
            assert self.printed == 1, "the standings PDF was not printed anew"
            assert self.pdf_files != old.pdf_files, "the standings PDF kept its cache key"
            assert self.pdf != old.pdf

    def row(self, player: str) -> dict:
        return next(row for row in self.rows if row["player"] == player)


def adjusted(client, tournament: dict, points: int) -> dict:
    answer = client.post(
        f"{API}/tournaments/{tournament['id']}/adjustments",
        json={"player": "Berta", "points": points, "reason": REASON},
        headers=tournament["auth"],
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_an_adjustment_changes_the_standings_page_json_and_pdf(
    app, client, standings_clock, prints, patient_printer
):
    tournament = tournament_with_a_closed_round(app, client)
    before = Standings(app, client, standings_clock, tournament, prints)
    assert REASON not in before.page and REASON not in before.pdf_text

    adjusted(client, tournament, 7)

    after = Standings(app, client, standings_clock, tournament, prints, old=before)
    assert f"Berta +7: {REASON}" in after.page
    assert after.row("Berta")["adjustment"] == 7
    assert after.row("Berta")["total"] == before.row("Berta")["total"] + 7
    assert REASON in after.pdf_text


def test_taking_an_adjustment_back_changes_the_standings_page_json_and_pdf(
    app, client, standings_clock, prints, patient_printer
):
    tournament = tournament_with_a_closed_round(app, client)
    adjustment = adjusted(client, tournament, -5)
    before = Standings(app, client, standings_clock, tournament, prints)
    assert f"Berta −5: {REASON}" in before.page and REASON in before.pdf_text
    assert before.row("Berta")["adjustment"] == -5

    taken_back = client.delete(
        f"{API}/tournaments/{tournament['id']}/adjustments/{adjustment['id']}",
        headers=tournament["auth"],
    )
    assert taken_back.status_code == 200, taken_back.get_json()

    after = Standings(app, client, standings_clock, tournament, prints, old=before)
    assert REASON not in after.page and REASON not in after.pdf_text
    assert after.row("Berta")["adjustment"] == 0
    assert after.row("Berta")["total"] == before.row("Berta")["total"] + 5


def test_the_finish_changes_the_standings_page_json_and_pdf(
    app, client, standings_clock, prints, patient_printer
):
    tournament = tournament_with_a_closed_round(app, client)
    before = Standings(app, client, standings_clock, tournament, prints)
    assert "Endstand" not in before.page and "Aktualisiert sich selbst." in before.page
    assert not any(row["final"] for row in before.rows)
    assert "Endstand" not in before.pdf_text

    finished = client.post(
        f"{API}/tournaments/{tournament['id']}/finish", json={}, headers=tournament["auth"]
    )
    assert finished.status_code == 200, finished.get_json()

    after = Standings(app, client, standings_clock, tournament, prints, old=before)
    assert "Endstand" in after.page and "Aktualisiert sich selbst." not in after.page
    assert all(row["final"] for row in after.rows)
    assert "Endstand" in after.pdf_text


# --- 2. the hand list after a hand is struck out or corrected on another device -------------


def table_with_three_hands(client) -> str:
    body = {"name": "Stammtisch", "game": "haferltarock", "system": "parlett-units"}
    made = client.post(f"{API}/sessions", json={**body, "players": PLAYERS[:3]})
    assert made.status_code == 201, made.get_json()
    key = made.get_json()["key"]
    for declarer, points in (("Anton", 70), ("Berta", 83), ("Christl", 90)):
        hand = {"declarer": declarer, "contract": "frage", "points": points}
        assert client.post(f"{API}/sessions/{key}/hands", json=hand).status_code == 201
    return key


def live_addresses(key: str) -> list[str]:
    """Every address the table's pages poll (static/js/live.js) or a device's app asks with an
    ETag."""
    return [f"/t/{key}", f"/t/{key}/spiele", f"/t/{key}/abrechnung", f"{API}/sessions/{key}"]


def watched(client, key: str) -> dict[str, str]:
    etags = {}
    for address in live_addresses(key):
        first = client.get(address)
        assert first.status_code == 200
        etags[address] = first.headers["ETag"]
        again = client.get(address, headers={**POLL, "If-None-Match": etags[address]})
        assert again.status_code == 304, address  # unchanged: the old ETag still holds
    return etags


def asked_again(client, key: str, etags: dict[str, str]) -> dict[str, str]:
    """Each live address asked with its old ETag: it must answer 200 with a new one. What
    each says (the API's session as JSON text)."""
    said = {}
    for address, etag in etags.items():
        answer = client.get(address, headers={**POLL, "If-None-Match": etag})
        assert answer.status_code == 200, f"{address} said 304 to the ETag from before"
        assert answer.headers["ETag"] != etag, address
        said[address] = answer.get_data(as_text=True)
    return said


def version_of_hand(client, key: str, number: int) -> int:
    return client.get(f"{API}/sessions/{key}/hands/{number}").get_json()["version"]


def struck_on_the_hand_list(device, key: str, number: int) -> None:
    version = version_of_hand(device, key, number)
    answer = device.post(f"/t/{key}/spiele/{number}/streichen", data={"version": version})
    assert answer.status_code == 302


def undone_under_the_bar(device, key: str, number: int) -> None:
    version = version_of_hand(device, key, number)
    form = {"version": version, "next": "table"}
    answer = device.post(f"/t/{key}/spiele/{number}/streichen", data=form)
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/t/{key}")


def struck_through_the_api(device, key: str, number: int) -> None:
    version = version_of_hand(device, key, number)
    assert (
        device.delete(f"{API}/sessions/{key}/hands/{number}?version={version}").status_code == 204
    )


@pytest.mark.parametrize(
    ("strike", "number"),
    [(struck_on_the_hand_list, 2), (undone_under_the_bar, 3), (struck_through_the_api, 2)],
)
def test_a_hand_struck_out_on_another_device_changes_every_live_page(app, client, strike, number):
    key = table_with_three_hands(client)
    etags = watched(client, key)

    strike(app.test_client(), key, number)

    said = asked_again(client, key, etags)
    session = json.loads(said[f"{API}/sessions/{key}"])
    assert [h["number"] for h in session["hands"]] == [n for n in (1, 2, 3) if n != number]
    assert "Alle Spiele (2, 1 gestrichen)" in text_of(said[f"/t/{key}"])
    assert "2 Spiele, 1 gestrichen" in text_of(said[f"/t/{key}/spiele"])
    balances = client.get(f"{API}/sessions/{key}/settlement").get_json()["balances"]
    settle = text_of(said[f"/t/{key}/abrechnung"])
    assert all(f"{name} {euro(cents)}" in settle for name, cents in balances.items()), settle


def corrected_on_its_page(device, key: str) -> None:
    fields = PostedFields("hand-form")
    fields.feed(device.get(f"/t/{key}/spiele/2").get_data(as_text=True))
    form = MultiDict((name, "50" if name == "points" else value) for name, value in fields.values)
    answer = device.post(f"/t/{key}/spiele/2", data=form)
    assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]


def corrected_through_the_api(device, key: str) -> None:
    hand = {"declarer": "Berta", "contract": "frage", "points": 50}
    answer = device.put(
        f"{API}/sessions/{key}/hands/2", json={**hand, "version": version_of_hand(device, key, 2)}
    )
    assert answer.status_code == 200, answer.get_json()


@pytest.mark.parametrize("correct", [corrected_on_its_page, corrected_through_the_api])
def test_a_hand_corrected_on_another_device_changes_every_live_page(app, client, correct):
    key = table_with_three_hands(client)
    etags = watched(client, key)

    correct(app.test_client(), key)  # Berta's Frage: 50 card points, not 83 (lost, not won)

    said = asked_again(client, key, etags)
    session = json.loads(said[f"{API}/sessions/{key}"])
    hand = next(h for h in session["hands"] if h["number"] == 2)
    assert hand["hand"]["points"] == 50 and hand["result"] == "lost"
    assert session["balances"]["Berta"] == -130  # in the pot system: before the pot is shared
    for address in (f"/t/{key}", f"/t/{key}/spiele"):
        page = text_of(said[address])
        assert "Berta Frage gibt Berta 50 verloren" in page, address
        assert "83 gewonnen" not in page, address
    balances = client.get(f"{API}/sessions/{key}/settlement").get_json()["balances"]
    assert balances == {"Anton": 14, "Berta": -67, "Christl": 53}
    settle = text_of(said[f"/t/{key}/abrechnung"])
    assert "Anton +0,14 € Berta −0,67 € Christl +0,53 €" in settle


# --- 3. a paper printed by another request while this one was on its way --------------------


class HeldAtTheGuard:
    """`printing._guard`, but the thread `who`, the first time it would take the guard (its
    look in the cache has missed), says so and waits until it is let go on."""

    def __init__(self, real, who: str) -> None:
        self.real, self.who = real, who
        self.arrived, self.go_on = threading.Event(), threading.Event()

    def __enter__(self):
        if threading.current_thread().name == self.who and not self.arrived.is_set():
            self.arrived.set()
            assert self.go_on.wait(120), "never let go on"
        return self.real.__enter__()

    def __exit__(self, *exc):
        return self.real.__exit__(*exc)


def test_a_paper_another_request_printed_meanwhile_is_printed_once(
    app, client, prints, patient_printer, monkeypatch
):
    """Request A misses the cache; before it takes its turn at the printer's guard, request
    B prints the same paper, stores it and its job is gone. A must give B's stored paper."""
    tournament = tournament_with_a_closed_round(app, client)
    url = f"/turniere/{tournament['id']}/tabelle.pdf"
    guard = HeldAtTheGuard(printing._guard, "request-A")
    monkeypatch.setattr(printing, "_guard", guard)
    forgotten = threading.Event()
    real_forget = printing._forget

    def forget(path, job) -> None:
        real_forget(path, job)
        forgotten.set()

    monkeypatch.setattr(printing, "_forget", forget)
    answers: dict[str, object] = {}

    def ask(name: str, device) -> None:
        try:
            answer = device.get(url)
            answers[name] = (answer.status_code, answer.data)
        except BaseException as exc:  # said in the test's thread
            answers[name] = exc

    devices = {}
    for name in ("A", "B"):
        devices[name] = app.test_client()
        signed_in = devices[name].post(
            "/veranstalter/anmelden", data={"email": EMAIL, "password": PASSWORD}
        )
        assert signed_in.status_code == 302
    a = threading.Thread(target=ask, args=("A", devices["A"]), name="request-A")
    b = threading.Thread(target=ask, args=("B", devices["B"]), name="request-B")
    a.start()
    try:
        assert guard.arrived.wait(120), "request A never looked in the cache"
        b.start()
        b.join(120)
        assert forgotten.wait(120), "B's print job was never done"
        assert not b.is_alive() and answers["B"][0] == 200, answers.get("B")
        assert len(prints) == 1
    finally:
        guard.go_on.set()
        a.join(120)
    assert not a.is_alive()
    assert isinstance(answers["A"], tuple), answers["A"]
    assert answers["A"][0] == 200
    assert answers["A"][1] == answers["B"][1] and answers["A"][1].startswith(b"%PDF")
    assert len(prints) == 1, f"printed {len(prints)} times"
