"""End to end in Chromium, by tapping, at 1024×768 (a tablet) and 390×844 (a phone): an
evening of each game with a player joining and one leaving, Bettel won or lost, the
Strohmandeln bonuses, Undo, Zählen, the dark theme.

What is asserted on every hand: the save button is on screen, the form does not move when
the confirmation comes or goes, and a plain hand takes at most three taps plus the number
(the keypad's Enter saves). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import ARTIFACTS, chromium_or_skip, sign_up_organiser
from tests.support.devices import VIEWPORTS, WORDS, Taps, landed
from tests.support.languages import GERMAN

chromium_or_skip()


def open_browser(request, browser, live_server, locale: str):
    ARTIFACTS.mkdir(exist_ok=True)
    width, height = VIEWPORTS[request.param]
    context = browser.new_context(
        locale=locale,
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=request.param == "phone",
        base_url=live_server,
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield request.param, page
    context.close()
    assert problems == [], problems


@pytest.fixture(params=list(VIEWPORTS), ids=list(VIEWPORTS))
def device(request, browser, live_server):
    """A German tablet or phone (the browser asks for German)."""
    yield from open_browser(request, browser, live_server, "de-DE")


@pytest.fixture(params=list(VIEWPORTS), ids=list(VIEWPORTS))
def english_device(request, browser, live_server):
    """A tablet or phone whose browser asks for English."""
    yield from open_browser(request, browser, live_server, "en-GB")


def create(page, game: str, system: str, players: list[str], **params) -> str:
    body = {"game": game, "system": system, "players": players, "params": params}
    response = page.request.post("/api/v1/sessions", data=body)
    assert response.status == 201, response.text()
    return response.json()["key"]


def save_button(page):
    return page.locator(".entry-bar button[type=submit]")


def on_screen(page, locator) -> None:
    box = locator.bounding_box()
    view = page.viewport_size
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], box


def form_top(page) -> float:
    box = page.locator("#hand-form").bounding_box()
    assert box is not None
    return box["y"] + page.evaluate("window.scrollY")


def plain_hand(
    page, declarer: str, contract: str, points: int, expect: str, trump=None, words=WORDS["de"]
) -> int:
    """Declarer, contract (and a trump where the game needs one), the points on the keypad,
    Enter. Returns the taps made."""
    taps = Taps(page)
    page.evaluate("window.scrollTo(0, 0)")
    top = form_top(page)
    on_screen(page, save_button(page))
    taps.choice(words["who"], declarer)
    taps.choice(words["what"], contract)
    if trump:
        taps.choice(words["trump"], trump)
    # The points field has the keypad now: the number, then Enter.
    assert page.evaluate("document.activeElement && document.activeElement.id") == "points"
    page.keyboard.type(str(points))
    page.wait_for_function(
        "t => document.getElementById('preview').textContent.includes(t)", arg=expect
    )
    on_screen(page, save_button(page))
    assert form_top(page) == top, "the form moved while the hand was entered"
    page.keyboard.press("Enter")  # sent by the page's queue: no new page
    page.wait_for_selector(".entry-bar .confirmation")
    on_screen(page, save_button(page))
    top_after = form_top(page)
    page.wait_for_timeout(300)
    assert form_top(page) == top_after, "the form moved after saving"
    return taps.count


def change_players(
    page, names: list[str], link="Spieler kommen und gehen", apply="Übernehmen"
) -> None:
    page.get_by_role("link", name=link).click()
    page.wait_for_url("**/spieler")
    rows = page.locator("[data-player-row] input[type=text]")
    for i in range(rows.count()):
        rows.nth(i).fill(names[i] if i < len(names) else "")
    page.get_by_role("button", name=apply).click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector(".flash.info")


def test_haferltarock_evening_with_a_player_joining_and_one_leaving(device):
    name, page = device
    key = create(page, "haferltarock", "parlett-units", ["Anton", "Berta", "Charlotte"])
    page.goto(f"/t/{key}")
    taps = [plain_hand(page, "Anton", "Frage", 70, "Anton +0,20 €")]
    page.screenshot(path=str(ARTIFACTS / f"table-after-saving-{name}.png"))
    taps.append(plain_hand(page, "Charlotte", "Frage", 55, "Charlotte"))
    change_players(page, ["Anton", "Berta", "Charlotte", "Dieter"])
    seats = page.inner_text(".seats")
    assert "Spiel 3" in seats and "(setzt aus)" in seats
    sitting_out = re.search(r"gibt: (\w+)", seats).group(1)
    declarer = next(p for p in ("Dieter", "Berta", "Anton") if p != sitting_out)
    taps.append(plain_hand(page, declarer, "Frage", 80, declarer))
    change_players(page, ["Anton", "Charlotte", "Dieter"])  # Berta goes home
    page.screenshot(path=str(ARTIFACTS / f"table-before-saving-{name}.png"))
    taps.append(plain_hand(page, "Dieter", "Frage", 61, "Dieter"))
    assert max(taps) <= 3, taps

    # Undo puts the hand back into the form, to be corrected.
    page.get_by_role("button", name="Rückgängig").click()
    landed(page, "text=steht wieder im Formular")
    assert page.input_value("#points") == "61"
    assert page.locator("input[name=declarer][value=Dieter]").is_checked()

    page.get_by_role("link", name=re.compile(r"Alle Spiele")).click()
    page.wait_for_url("**/spiele")
    assert page.locator("text=nicht dabei").count() >= 2
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=str(ARTIFACTS / f"hand-list-{name}.png"), full_page=True)


def why_open(page, name: str) -> None:
    """The preview of a hand being entered, with "why?" open: a screenshot to look at."""
    page.locator("#preview details.why summary").click()
    page.wait_for_selector("#preview details.why[open]")
    page.screenshot(path=str(ARTIFACTS / name))


def test_an_evening_in_english(english_device):
    """The Haferltarock evening played again in English: the words, the money, Undo, a
    change of players and the hand list; no German word of the page's own on the way."""
    name, page = english_device
    key = create(page, "haferltarock", "parlett-units", ["Anton", "Berta", "Charlotte"])
    page.goto(f"/t/{key}")
    assert page.get_attribute("html", "lang") == "en"
    en = WORDS["en"]
    taps = [plain_hand(page, "Anton", "Frage", 70, "Anton +€0.20", words=en)]
    assert "Hand 1 entered" in page.inner_text(".entry-bar")
    taps.append(plain_hand(page, "Berta", "Hand (Solo)", 83, "Berta", words=en))
    change_players(page, ["Anton", "Berta", "Charlotte", "Dieter"], "Players come and go", "Apply")
    declarer = page.locator("input[name=declarer]").first.get_attribute("value")
    taps.append(plain_hand(page, declarer, "Frage", 50, declarer, words=en))
    assert max(taps) <= 3, taps

    page.get_by_role("button", name="Undo").click()
    landed(page, "text=back in the form")
    assert page.input_value("#points") == "50"

    # The next hand's preview with "why?" open, for the eye.
    page.locator("#points").fill("")
    taps = Taps(page)
    taps.choice(en["who"], declarer)
    taps.choice(en["what"], "Hand (Solo)")
    page.keyboard.type("83")
    page.wait_for_function(
        "t => document.getElementById('preview').textContent.includes(t)", arg="+€2.00"
    )
    why_open(page, f"why-open-english-{name}.png")
    assert "hand game won" in page.inner_text("#preview details.why")
    text = page.inner_text("body")
    assert not re.search(r"\b(Spieler|Spiele|eintragen|zurück|nicht|bitte|gewonnen)\b", text)

    page.goto(f"/t/{key}/spiele")
    assert page.locator("text=not at the table").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("kind", list(VIEWPORTS))
def test_a_choice_tapped_before_the_page_scripts_ran_is_previewed(table, kind):
    """A slow tablet on the pub's Wi-Fi (http://haferl.test, not a secure context): the
    player taps another contract while the page's scripts are still on their way (held back
    here). Once they run, the preview is of the hand in the form, not the confirmation of
    Undo that the page came with. (A number typed meanwhile is heard anyway: the field's
    change comes when the focus leaves it; a tapped chip's does not.)"""
    page = table.device(kind)
    key = table.create(players=("Anton", "Berta", "Charlotte"), dealer="Charlotte")
    page.goto(f"/t/{key}")
    assert page.evaluate("window.isSecureContext") is False
    plain_hand(page, "Anton", "Frage", 70, "Anton +0,20 €")
    held: list = []
    page.route("**/static/*/js/main.js", lambda route: held.append(route))
    with page.expect_request("**/static/*/js/main.js"):
        page.get_by_role("button", name="Rückgängig").click()
    page.wait_for_selector("text=steht wieder im Formular")
    Taps(page).choice("Was?", "Hand (Solo)")
    assert len(held) == 1 and page.evaluate("document.readyState") == "interactive"
    held[0].continue_()
    page.wait_for_selector("#preview .preview-sum")
    assert "Anton" in page.inner_text("#preview")
    assert page.input_value("#points") == "70"  # the hand taken back, now as a Hand (Solo)
    on_screen(page, save_button(page))
    page.screenshot(path=str(ARTIFACTS / f"preview-after-late-scripts-{kind}.png"))


def test_the_preview_with_why_open_in_german(device):
    name, page = device
    key = create(page, "haferltarock", "parlett-units", ["Anton", "Berta", "Charlotte"])
    page.goto(f"/t/{key}")
    assert page.get_attribute("html", "lang") == "de"
    taps = Taps(page)
    taps.choice("Wer spielt?", "Anton")
    taps.choice("Was?", "Hand (Solo)")
    page.keyboard.type("83")
    page.wait_for_function(
        "t => document.getElementById('preview').textContent.includes(t)", arg="+2,00 €"
    )
    why_open(page, f"why-open-german-{name}.png")
    assert "Handspiel gewonnen" in page.inner_text("#preview details.why")


def test_bettel_is_tapped_won_or_lost(device):
    name, page = device
    key = create(page, "tarok-bettel", "points-kasse", ["Anton", "Berta", "Charlotte"])
    page.goto(f"/t/{key}")
    taps = Taps(page)
    taps.choice("Wer spielt?", "Berta")
    taps.choice("Was?", "Bettel")
    assert page.locator("#points").is_hidden()
    assert page.get_by_role("radiogroup", name="Trumpf").is_hidden()
    page.wait_for_function(
        "() => document.getElementById('preview').textContent.includes('verloren')"
    )
    taps.choice("Bettel", "verloren")
    page.wait_for_function("() => document.getElementById('preview').textContent.includes('Berta')")
    on_screen(page, save_button(page))
    taps.tap(save_button(page))
    page.wait_for_selector("text=Spiel 1 eingetragen")
    assert taps.count == 4  # declarer, Bettel, lost, save
    assert "−" in page.inner_text(".entry-bar .confirmation")
    # A Frage here needs its trump: three taps and the number.
    assert plain_hand(page, "Charlotte", "Frage", 70, "Charlotte", trump="Eichel") <= 3


def test_tapp_tarock_and_strohmandeln(device):
    name, page = device
    key = create(page, "tapp-tarock", "tapp-points", ["Anton", "Berta", "Carl"])
    page.goto(f"/t/{key}")
    assert plain_hand(page, "Berta", "Dreier", 40, "Berta") <= 3

    key = create(page, "strohmandeln", "furr", ["Anton", "Berta"])
    page.goto(f"/t/{key}")
    taps = Taps(page)
    taps.choice("Wer spielt?", "Anton")
    taps.choice("Was?", "Spiel (aufgenommen)")
    page.keyboard.type("40")
    page.locator("select[name=bonus_pagat_ultimo__declarer]").select_option("made")
    page.wait_for_function("() => document.getElementById('preview').textContent.includes('Anton')")
    on_screen(page, save_button(page))
    page.screenshot(path=str(ARTIFACTS / f"strohmandeln-form-{name}.png"), full_page=True)
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Spiel 1 eingetragen")


def test_impossible_counts_and_the_dark_theme(device):
    name, page = device
    key = create(page, "haferltarock", "parlett-units", ["Anton", "Berta", "Charlotte"])
    page.goto(f"/t/{key}")
    Taps(page).choice("Wer spielt?", "Anton")
    Taps(page).choice("Was?", "Frage")
    page.locator("details.counter summary").click()
    page.fill("input[name=count_aces]", "6")
    page.fill("input[name=count_tens]", "5")
    assert "So viele gibt es nicht" in page.inner_text(".count-sum")
    assert page.input_value("#points") == ""
    page.wait_for_function(
        "() => document.getElementById('preview').querySelector('.field-error') !== null"
    )
    page.fill("input[name=count_aces]", "4")
    page.fill("input[name=count_tens]", "4")
    assert page.input_value("#points") == "84"

    page.get_by_role("button", name="Hell / Dunkel").click()
    assert page.evaluate("document.documentElement.dataset.theme") in ("dark", "light")
    if page.evaluate("document.documentElement.dataset.theme") == "light":
        page.get_by_role("button", name="Hell / Dunkel").click()
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(18, 20, 18)", background
    page.screenshot(path=str(ARTIFACTS / f"dark-theme-{name}.png"))


def test_a_new_table_keeps_the_names_when_the_game_changes(device):
    name, page = device
    page.goto("/neu")
    page.fill("input[name=player_0]", "Anton")
    page.fill("input[name=player_1]", "Berta")
    page.fill("input[name=name]", "Freitag")
    with page.expect_navigation():
        page.select_option("#game", "tarok-bettel")
    assert page.input_value("input[name=player_0]") == "Anton"
    assert page.input_value("input[name=player_1]") == "Berta"
    assert page.input_value("input[name=name]") == "Freitag"


# An evening of every game: (game, system, players, a newcomer, contract, trump, points).
EVENINGS = [
    ("haferltarock", "parlett-units", ["Anton", "Berta", "Carl"], "Dora", "Frage", None, 70),
    ("tarok", "points-kasse", ["Anton", "Berta", "Carl"], "Dora", "Frage", "Gras", 70),
    (
        "tarok-bettel",
        "fixed-direct",
        ["Anton", "Berta", "Carl"],
        "Dora",
        "Hand (Solo)",
        "Eichel",
        80,
    ),
    ("scharfer-tarock", "scharf-fixed", ["Anton", "Berta", "Carl"], "Dora", "Frage", "Herz", 70),
    ("tapp-tarock", "tapp-points", ["Anton", "Berta", "Carl"], "Dora", "Dreier", None, 40),
    ("strohmandeln", "beck", ["Anton", "Berta"], "Dora", "Spiel (aufgenommen)", None, 40),
]


@pytest.mark.parametrize("evening", EVENINGS, ids=[e[0] for e in EVENINGS])
def test_an_evening_of_each_game_by_tapping(device, evening):
    """Three plain hands, then one player goes and another comes, then two more: each hand
    with the save button on screen, the form still, and at most three taps plus the number."""
    name, page = device
    game, system, players, newcomer, contract, trump, points = evening
    key = create(page, game, system, players)
    page.goto(f"/t/{key}")
    taps = []
    for number in range(1, 6):
        if number == 4:
            # The first player goes home; the newcomer takes a seat (Tapp Tarock and
            # Strohmandeln have no fourth seat: he takes the one who left).
            change_players(page, [*players[1:], newcomer])
        declarer = page.locator("input[name=declarer]").first.get_attribute("value")
        taps.append(plain_hand(page, declarer, contract, points, declarer, trump=trump))
        assert f"Spiel {number} eingetragen" in page.inner_text(".entry-bar")
    assert max(taps) <= 3, taps
    stored = page.request.get(f"/api/v1/sessions/{key}").json()
    assert len(stored["hands"]) == 5
    assert stored["players"] == [*players[1:], newcomer]
    assert sum(stored["balances"].values()) == 0
    (ARTIFACTS / f"taps-{game}-{name}.txt").write_text(f"{taps}\n")


def test_live_standings_fit_a_phone_and_fill_a_projector(browser, live_server):
    context = browser.new_context(locale="de-DE", base_url=live_server)
    page = context.new_page()
    auth = sign_up_organiser(page)
    tournament = page.request.post(
        "/api/v1/tournaments",
        headers=auth,
        data={
            "name": "Pokal",
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": 6,
            "players": [f"Spielerin mit langem Namen {i}" for i in range(9)],
        },
    ).json()
    page.request.post(f"/api/v1/tournaments/{tournament['id']}/rounds", headers=auth, data={})
    sizes = {}
    for width, height in ((390, 844), (1920, 1080)):
        seen = browser.new_context(
            locale="de-DE", viewport={"width": width, "height": height}, base_url=live_server
        )
        view = seen.new_page()
        view.goto(f"/turnier/{tournament['key']}/stand")
        view.screenshot(path=str(ARTIFACTS / f"standings-{width}.png"))
        wide = view.evaluate(
            "w => [...document.querySelectorAll('body *')]"
            ".filter(e => e.getBoundingClientRect().right > w)"
            ".map(e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)",
            width,
        )
        assert view.evaluate("document.documentElement.scrollWidth") <= width, wide
        sizes[width] = view.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        seen.close()
    context.close()
    assert sizes[1920] >= 32 and sizes[390] < sizes[1920]


def test_a_stammtisch_season_through_the_pages(device):
    """Found a group, play two evenings by tapping (a player changes between them), the
    Haferl carried over, the season closed and shared out: all on the pages."""
    name, page = device
    page.goto("/stammtisch/neu")
    page.fill("input[name=name]", "Freitagsrunde")
    page.fill("textarea[name=members]", "Anton\nBerta\nCarl\nDora")
    page.get_by_role("button", name="Runde anlegen").click()
    page.wait_for_selector("h1:has-text('Neuer Abend')")
    group_url = page.url
    for member in ("Anton", "Berta", "Carl"):
        page.locator(f"input[name=player][value={member}]").check(force=True)
    page.get_by_role("button", name="Abend beginnen").click()
    landed(page, "#hand-form")
    for _ in range(2):
        declarer = page.locator("input[name=declarer]").first.get_attribute("value")
        plain_hand(page, declarer, "Frage", 75, declarer)
    page.get_by_role("link", name="Abend beenden").click()
    page.get_by_role("button", name="Ja, abrechnen").click()
    page.wait_for_selector("h1:has-text('Abrechnung')")
    page.goto(group_url)
    pot = page.inner_text(".topbar .pot")
    assert "0,00" not in pot  # the remainder came back to the group
    # Next Friday: Carl stays home, Dora comes; the rest is as last time.
    page.locator("input[name=player][value=Carl]").uncheck(force=True)
    page.locator("input[name=player][value=Dora]").check(force=True)
    page.screenshot(path=str(ARTIFACTS / f"stammtisch-{name}.png"), full_page=True)
    page.get_by_role("button", name="Abend beginnen").click()
    landed(page, "#hand-form")
    assert pot.split()[-2] in page.inner_text(".topbar .pot")  # started with that Haferl
    declarer = page.locator("input[name=declarer]").first.get_attribute("value")
    plain_hand(page, declarer, "Frage", 80, declarer)
    page.get_by_role("link", name="Abend beenden").click()
    page.get_by_role("button", name="Ja, abrechnen").click()
    page.wait_for_selector("h1:has-text('Abrechnung')")
    page.goto(group_url)
    assert page.locator("table.standings tbody tr").count() == 4
    page.get_by_role("link", name="Anton").first.click()
    page.wait_for_url("**/spieler/Anton")
    assert "Spiele gespielt" in page.inner_text("main")
    page.screenshot(path=str(ARTIFACTS / f"stammtisch-player-{name}.png"), full_page=True)
    page.goto(group_url)
    page.get_by_role("button", name=re.compile("Saison beenden")).click()
    assert "Abschlusstabelle der Saison" in page.inner_text("main")  # before it is final
    assert page.get_by_role("link", name=re.compile("Saisonbericht drucken")).is_visible()
    page.get_by_role("button", name="Ja, Saison beenden").click()
    page.wait_for_selector("text=Saison beendet")
    assert "Saison 2" in page.inner_text(".topbar")
    assert "0,00" in page.inner_text(".topbar .pot")
    # The closed season stays readable: tapped in the switcher.
    page.get_by_role("navigation", name="Saisons").get_by_role("link", name="Saison 1").click()
    page.wait_for_selector("h2:has-text('Saison 1 · beendet')")
    assert page.locator("table.standings tbody tr").count() == 4
    assert "Am Ende hielt das Haferl" in page.inner_text("#live-season")
    page.screenshot(path=str(ARTIFACTS / f"stammtisch-season-1-{name}.png"), full_page=True)
    page.locator("table.standings").get_by_role("link", name="Anton").click()
    page.wait_for_url("**/spieler/Anton?season=1")
    assert "Saison 1" in page.inner_text(".topbar")
    # The start page lists the group among this device's recent tables.
    page.goto("/")
    assert "Freitagsrunde" in page.inner_text("[data-recent-tables]")


def test_the_other_pages_of_an_evening_in_english(english_device, tmp_path):
    """Edit a hand, the settle-up, the rules, the players, the import, closing, a missing
    page and the footer's language switch, tapped in English: each page in English only,
    nothing wider than the screen. Screenshots: english-<page>-<device>.png."""

    name, page = english_device
    key = create(page, "haferltarock", "parlett-units", ["Anton", "Berta", "Charlotte"])
    page.goto(f"/t/{key}")
    plain_hand(page, "Anton", "Frage", 70, "Anton +€0.20", words=WORDS["en"])
    taps = Taps(page)

    def english_only(shot: str) -> str:
        assert page.get_attribute("html", "lang") == "en", page.url
        text = page.inner_text("body")
        assert not GERMAN.search(text), (page.url, GERMAN.search(text))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], (page.url, width)
        page.screenshot(path=str(ARTIFACTS / f"english-{shot}-{name}.png"), full_page=True)
        return text

    page.goto(f"/t/{key}/spiele")
    english_only("hands")
    with page.expect_navigation():
        taps.tap(page.locator(f"a[href$='/t/{key}/spiele/1']").first)
    english_only("edit")
    page.fill("#points", "90")
    with page.expect_navigation():
        taps.tap(save_button(page))
    assert "Hand 1" in english_only("edited")

    page.goto(f"/t/{key}/abrechnung")
    assert "€" in english_only("settle-up")
    page.goto("/regeln/haferltarock")
    english_only("rules")
    page.goto(f"/t/{key}/spieler")
    english_only("players")
    page.goto("/import")
    english_only("import")
    # The evening's own export, chosen with the file button and imported by tapping.
    export = tmp_path / "evening.json"
    export.write_bytes(page.request.get(f"/api/v1/sessions/{key}/export.json").body())
    with page.expect_file_chooser() as chooser:
        taps.tap(page.locator("input[type=file]"))
    chooser.value.set_files(str(export))
    with page.expect_navigation():
        taps.tap(page.get_by_role("button", name="Import the file"))
    assert re.search(r"/t/[\w-]+$", page.url) and not page.url.endswith(key), page.url
    imported = english_only("imported")
    assert "imported" in imported and "+€0.60" in imported  # hand 1 as edited: 90 points
    page.goto(f"/t/{key}/schliessen")
    english_only("close")
    with page.expect_navigation():
        taps.tap(page.get_by_role("button", name="Yes, settle up"))
    english_only("closed")

    response = page.goto("/t/no-such-table")
    assert response is not None and response.status == 404
    english_only("not-found")

    # The footer's switch: German, then back to English, on the same page.
    page.goto(f"/t/{key}")
    with page.expect_navigation():
        taps.tap(page.locator("nav.languages a[hreflang=de]"))
    assert page.get_attribute("html", "lang") == "de"
    with page.expect_navigation():
        taps.tap(page.locator("nav.languages a[hreflang=en]"))
    english_only("table-closed")


def test_a_stammtisch_evening_and_season_in_english(english_device):
    """The Stammtisch pages tapped in English: found a group, play an evening, end it,
    the group page with its standings and a member's page, the season closed."""

    name, page = english_device

    def english_only(shot: str) -> str:
        assert page.get_attribute("html", "lang") == "en", page.url
        text = page.inner_text("body")
        assert not GERMAN.search(text), (page.url, GERMAN.search(text))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], (page.url, width)
        page.screenshot(path=str(ARTIFACTS / f"english-{shot}-{name}.png"), full_page=True)
        return text

    page.goto("/stammtisch/neu")
    english_only("new-group")
    page.fill("input[name=name]", "Friday club")
    page.fill("textarea[name=members]", "Anton\nBerta\nCarl\nDora")
    page.get_by_role("button", name="Create the group").click()
    page.wait_for_selector("h1:has-text('New evening')")
    group_url = page.url
    english_only("group")
    for member in ("Anton", "Berta", "Carl"):
        page.locator(f"input[name=player][value={member}]").check(force=True)
    page.get_by_role("button", name="Start the evening").click()
    landed(page, "#hand-form")
    declarer = page.locator("input[name=declarer]").first.get_attribute("value")
    plain_hand(page, declarer, "Frage", 75, declarer, words=WORDS["en"])
    page.get_by_role("link", name="End the evening").click()
    page.get_by_role("button", name="Yes, settle up").click()
    page.wait_for_url(re.compile(r"/abrechnung$"))
    english_only("group-settle-up")
    page.goto(group_url)
    assert page.locator("table.standings tbody tr").count() == 3  # those who played
    page.get_by_role("link", name="Anton").first.click()
    page.wait_for_url("**/spieler/Anton")
    assert "Hands played" in english_only("member")
    page.goto(group_url)
    page.get_by_role("button", name=re.compile("End the season")).click()
    assert "The season's final table" in english_only("season-confirm")
    page.get_by_role("button", name="Yes, end the season").click()
    page.wait_for_selector("text=Season closed")
    english_only("season-closed")
    page.get_by_role("navigation", name="Seasons").get_by_role("link", name="Season 1").click()
    page.wait_for_selector("h2:has-text('Season 1 · finished')")
    assert page.locator("table.standings tbody tr").count() == 3
    english_only("season-1")


def test_the_organiser_pages_in_english(english_device):
    """Sign-up, the tournament list, a new tournament's form, a tournament with its drawn
    round, the round's tables and the live standings, in English."""
    from tests.conftest import SETUP_CODE

    name, page = english_device

    def english_only(shot: str) -> str:
        assert page.get_attribute("html", "lang") == "en", page.url
        text = page.inner_text("body")
        assert not GERMAN.search(text), (page.url, GERMAN.search(text))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], (page.url, width)
        page.screenshot(path=str(ARTIFACTS / f"english-{shot}-{name}.png"), full_page=True)
        return text

    page.goto("/veranstalter/registrieren")
    english_only("sign-up")
    page.fill("input[name=setup_code]", SETUP_CODE)
    page.fill("input[name=name]", "Orga")
    page.fill("input[name=email]", "orga@example.org")
    page.fill("input[name=password]", "geheim123")
    page.fill("input[name=confirm]", "geheim123")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url("**/turniere")
    auth = {"Authorization": "Basic b3JnYUBleGFtcGxlLm9yZzpnZWhlaW0xMjM="}
    body = {
        "name": "Cup",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 2,
        "players": [f"P{i}" for i in range(7)],
    }
    tournament = page.request.post("/api/v1/tournaments", headers=auth, data=body).json()
    tid = tournament["id"]
    page.request.post(f"/api/v1/tournaments/{tid}/rounds", headers=auth, data={})

    page.goto("/turniere/neu")
    english_only("new-tournament")
    page.goto("/turniere")
    english_only("tournaments")
    with page.expect_navigation():
        page.get_by_role("link", name="Cup").first.click()
    assert "Cup" in english_only("tournament")
    page.goto(f"/turniere/{tid}/runde/1/tische")
    english_only("round-tables")
    page.goto(f"/turnier/{tournament['key']}/stand")
    english_only("standings")


def test_two_tablets_tap_all_paid(device):
    """A collected settle-up, its group page open on two tablets: both tap "All paid".
    The first marks the evening paid; the second, on a page that did not follow (no
    script), is told nothing is left to pay.
    Screenshots: paid-first-<device>.png, paid-second-<device>.png."""
    name, page = device
    body = {
        "name": "Freitagsrunde",
        "game": "haferltarock",
        "system": "parlett-units",
        "members": ["Anton", "Berta", "Carl"],
        "settle": "collected",
    }
    group = page.request.post("/api/v1/groups", data=body).json()["key"]
    evening = page.request.post(
        f"/api/v1/groups/{group}/evenings", data={"players": ["Anton", "Berta", "Carl"]}
    ).json()["key"]
    hand = {"declarer": "Anton", "contract": "frage", "points": 70}
    assert page.request.post(f"/api/v1/sessions/{evening}/hands", data=hand).status == 201
    assert page.request.post(f"/api/v1/sessions/{evening}/close", data={}).status == 200
    page.goto(f"/s/{group}")
    # The second tablet's page does not follow live (no script): a page that does would
    # drop the button as soon as the first tablet's payment is in.
    other = (
        page.context.browser.new_context(
            locale="de-DE",
            viewport=page.viewport_size,
            has_touch=True,
            is_mobile=name == "phone",
            base_url=page.url.split("/s/")[0],
            java_script_enabled=False,
        )
    ).new_page()
    other.goto(f"/s/{group}")
    for tablet, shot, said in (
        (page, "first", "1 Abend als bezahlt vermerkt."),
        (other, "second", "Nichts mehr zu bezahlen: jeder abgeschlossene Abend ist bezahlt."),
    ):
        with tablet.expect_navigation():
            Taps(tablet).tap(tablet.get_by_role("button", name="Alles bezahlt"))
        flash = tablet.locator(".flash")
        assert flash.inner_text().strip() == said, shot
        on_screen(tablet, flash)
        tablet.screenshot(path=str(ARTIFACTS / f"paid-{shot}-{name}.png"))
    paid = page.request.get(f"/api/v1/groups/{group}").json()["evenings"]
    assert [e["paid"] for e in paid] == [True]
