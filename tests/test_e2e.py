"""End to end in a real headless Chromium: a four-player Haferltarock evening on a tablet.

Creates the table, enters 8 hands by tapping, edits one, closes the evening and checks the
settle-up against the rules engine's own fold. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from scorer.domain import Hand
from scorer.domain.ledger import Ledger, final_balances
from scorer.domain.scoring import Rules
from scorer.domain.settle import settle
from tests.support.browser import ARTIFACTS, chromium, chromium_or_skip, sign_up_organiser
from tests.support.devices import landed
from tests.support.languages import german_euros
from tests.support.servers import CHROMIUM

chromium_or_skip()


@pytest.fixture
def page(live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    with chromium() as browser:
        context = browser.new_context(
            locale="de-DE",
            viewport={"width": 1024, "height": 768},
            has_touch=True,
            base_url=live_server,
        )
        yield context.new_page()


def tap(page, group: str, label: str) -> None:
    page.get_by_role("radiogroup", name=group).locator("label").filter(
        has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")
    ).click()


def enter_hand(
    page,
    number,
    declarer,
    contract,
    points=None,
    *,
    bid=61,
    defenders=False,
    kontra=False,
    counts=None,
    expect=None,
):
    tap(page, "Wer spielt?", declarer)
    tap(page, "Was?", contract)
    if bid != 61:
        tap(page, "Gereizt", str(bid))
    if counts:
        page.locator("details.counter summary").click()
        for name, value in counts.items():
            page.fill(f"input[name=count_{name}]", str(value))
    else:
        page.fill("#points", str(points))
    if defenders:
        tap(page, "Augen von", "Gegenpartei")
    if kontra:
        tap(page, "Kontra", "Kontra")
    if expect:
        page.wait_for_function(
            "text => document.getElementById('preview').textContent.includes(text)", arg=expect
        )
    page.screenshot(path=str(ARTIFACTS / f"hand-{number:02d}-entry.png"))
    page.get_by_role("button", name="Eintragen").click()
    page.wait_for_selector(f"text=Spiel {number} eingetragen")


# The evening: (declarer, contract, entry, facts for the rules engine, preview text).
EVENING = [
    ("Anton", "Frage", {"points": 70}, {"contract": "frage", "points": 70}, "Anton +0,20 €"),
    (
        "Berta",
        "Hand (Solo)",
        {"points": 83, "bid": 76},
        {"contract": "hand", "points": 83, "bid": 76},
        "Berta +0,80 €",
    ),
    (
        "Charlotte",
        "Frage",
        {"points": 55},
        {"contract": "frage", "points": 55},
        "Charlotte −0,20 €",
    ),
    ("Dieter", "Hand (Solo)", {"points": 58}, {"contract": "hand", "points": 58}, "Dieter −0,40 €"),
    (
        "Anton",
        "Frage",
        {"points": 40, "defenders": True},
        {"contract": "frage", "points": 80},
        "Anton +0,40 €",
    ),
    (
        "Berta",
        "Frage",
        {"points": 61, "kontra": True},
        {"contract": "frage", "points": 61, "doublings": 1},
        "Berta +0,20 €",
    ),
    (
        "Charlotte",
        "Hand (Solo)",
        {"points": 95, "bid": 71},
        {"contract": "hand", "points": 95, "bid": 71},
        "Charlotte +2,00 €",
    ),
    (
        "Dieter",
        "Frage",
        {"counts": {"aces": 4, "tens": 4, "kings": 2}},
        {"contract": "frage", "points": 92},
        "Dieter +0,70 €",
    ),
]


def test_an_evening_on_a_tablet(page):
    problems: list[str] = []  # CSP violations and script errors, from every page visited
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto("/")
    page.get_by_role("link", name="Neuer Tisch").click()
    page.select_option("#game", "haferltarock")
    page.wait_for_load_state()
    page.fill("input[name=name]", "Stammtisch Freitag")
    players = ["Anton", "Berta", "Charlotte", "Dieter"]
    for i, name in enumerate(players):
        page.fill(f"input[name=player_{i}]", name)
    page.locator("input[name=first_dealer][value='3']").check(force=True)
    page.screenshot(path=str(ARTIFACTS / "new-table.png"), full_page=True)
    page.get_by_role("button", name="Tisch anlegen").click()
    landed(page, "text=gibt: Dieter")
    assert "Haferl 4,00 €" in page.inner_text(".topbar")

    for number, (declarer, contract, entry, _, preview) in enumerate(EVENING, start=1):
        enter_hand(page, number, declarer, contract, expect=preview, **entry)
    page.screenshot(path=str(ARTIFACTS / "table-after-8.png"), full_page=True)
    assert "Spiel 9 · gibt: Dieter (setzt aus)" in page.inner_text(".seats")

    # Correct hand 3: Charlotte had 65, not 55.
    page.get_by_role("link", name="Alle Spiele").click()
    page.get_by_role("link", name="Spiel 3 ändern").click()
    page.fill("#points", "65")
    page.get_by_role("button", name="Speichern").click()
    page.wait_for_selector("text=Spiel 3 geändert")
    page.screenshot(path=str(ARTIFACTS / "hands-after-edit.png"), full_page=True)

    page.get_by_role("link", name="← zum Tisch").click()
    page.get_by_role("link", name="Abend beenden").click()
    page.get_by_role("button", name="Ja, abrechnen").click()
    page.wait_for_selector("h1:has-text('Abrechnung')")
    page.screenshot(path=str(ARTIFACTS / "settle-up.png"), full_page=True)

    # The same evening through the rules engine, hand 3 corrected.
    facts = [dict(f) for *_, f, _ in EVENING]
    facts[2]["points"] = 65
    ledger = Ledger(Rules.build("haferltarock", "parlett-units", {}), tuple(players), "Dieter")
    _, state = ledger.fold(
        (n, Hand(declarer=d, **f), None)
        for n, ((d, *_), f) in enumerate(zip(EVENING, facts, strict=True), start=1)
    )
    balances = final_balances(state, players, "split")
    shown = page.inner_text("ul.transfers")
    expected = settle(balances)
    assert expected
    for t in expected:
        assert f"{t.payer} zahlt {t.payee} {german_euros(t.cents)}" in shown
    assert len(shown.strip().splitlines()) == len(expected)
    final = page.inner_text("ul.final")
    for name in players:
        assert re.search(rf"{name}\s+{re.escape(german_euros(balances[name], True))}", final)

    # The start page lists the table from this device's storage; no cookie holds its key.
    key = re.search(r"/t/([A-Za-z0-9_-]+)", page.url).group(1)
    page.goto("/")
    recent = page.locator("[data-recent-tables]")
    assert recent.is_visible()
    assert "Stammtisch Freitag" in recent.inner_text()
    recent.get_by_role("link").first.click()
    page.wait_for_url(f"**/t/{key}**")
    cookies = page.context.cookies()
    assert all(key not in c["value"] and key not in decoded(c["value"]) for c in cookies)
    assert problems == [], problems


def decoded(cookie: str) -> str:
    """What a signed (not encrypted) Flask session cookie says, readable by anyone."""
    import base64
    import zlib

    payload = cookie.lstrip(".").split(".")[0]
    data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    try:
        return zlib.decompress(data).decode(errors="replace")
    except zlib.error:
        return data.decode(errors="replace")


def test_chromium_is_installed_in_ci():
    """CI must not pass by skipping the browser: .ci/run installs Debian's chromium."""
    assert shutil.which("chromium") or Path(CHROMIUM).exists()


def test_every_page_renders_under_the_csp_without_a_console_error(page):
    """Every template, in Chromium, under the Content-Security-Policy: no violation, no
    script error, on the pages of a table, of a tournament and of the organiser."""

    problems: list[str] = []
    missing = ("/gibt-es-nicht", "/t/nicht-da")  # asked for on purpose: the 404 page

    def console(message) -> None:
        # A failed load is judged by its response below, which knows its address.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            problems.append(message.text)

    def response(answer) -> None:
        if answer.status >= 400 and not answer.url.endswith(missing):
            problems.append(f"{answer.status} {answer.url}")

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("response", response)

    session = page.request.post(
        "/api/v1/sessions",
        data={"game": "tarok", "system": "points-kasse", "players": ["Anton", "Berta", "Carl"]},
    ).json()
    key = session["key"]
    page.request.post(
        f"/api/v1/sessions/{key}/hands",
        data={"declarer": "Anton", "contract": "frage", "trump": "gras", "points": 70},
    )
    auth = sign_up_organiser(page)
    tournament = page.request.post(
        "/api/v1/tournaments",
        headers=auth,
        data={
            "name": "Pokal",
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": 2,
            "players": [f"Spieler {i}" for i in range(7)],
        },
    ).json()
    tid = tournament["id"]
    page.request.post(f"/api/v1/tournaments/{tid}/rounds", headers=auth, data={})
    pages = [
        "/",
        "/neu",
        "/neu?game=strohmandeln",
        "/neu?game=tapp-tarock",
        "/import",
        f"/t/{key}",
        f"/t/{key}/spiele",
        f"/t/{key}/spiele/1",
        f"/t/{key}/spiele/1/streichen",
        f"/t/{key}/schliessen",
        f"/t/{key}/abrechnung",
        "/regeln/haferltarock",
        "/turniere",
        "/turniere/neu",
        f"/turniere/{tid}",
        f"/turniere/{tid}/runde/1/tische",
        f"/turnier/{tournament['key']}/stand",
        "/gibt-es-nicht",
        "/t/nicht-da",
    ]
    for path in pages:
        response = page.goto(path)
        assert response is not None and response.status < 500, path
        page.wait_for_load_state("load")
    page.goto("/veranstalter/anmelden")  # logged in: goes on to the tournaments
    assert problems == [], problems
