"""Hours at the table, in Chromium on a page that is not a secure context: what a page
remembers (an Undo, a token, a half-entered form, a URL) never enters a hand twice or at
the wrong seat.

A reload after Undo; Undo after another device's hand; a page older than its token (a
server whose tokens live two seconds); the Durch bid made and lost; a half-entered form
when another device's hand comes in; Enter on every game's incomplete hand; the same hand
entered on two devices. Screenshots go to tests/artifacts/ (hours-*.png).
"""

from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from tests.conftest import dispose, make_app
from tests.support.browser import ARTIFACTS, chromium_or_skip
from tests.support.devices import (
    LIVE_WITHIN_MS,
    WORDS,
    Table,
    Taps,
    enter,
    fall_behind,
    open_table,
    save,
    saved,
)

sync_api = chromium_or_skip()

THREE = ("Anton", "Berta", "Charlotte")


def create(table: Table, game: str, system: str, players=THREE, dealer: str | None = None):
    body = {"name": "Freitag", "game": game, "system": system, "players": list(players)}
    if dealer:
        body["first_dealer"] = dealer
    response = table.helper.request.post(f"{table.api}/sessions", data=body)
    assert response.status == 201, response.text()
    table.key = response.json()["key"]


def tap_value(page, name: str, value: str) -> None:
    """Tap the choice `value` of the group `name`; again when the live refresh that follows
    a save swapped the form in under the finger."""
    for attempt in range(3):
        try:
            Taps(page).tap(page.locator(f"label:has(input[name={name}][value='{value}'])"))
        except sync_api.Error:
            if attempt == 2:
                raise
            page.wait_for_timeout(200)
        else:
            return


def showing_hand(page, number: int) -> None:
    """Wait (as long as a live update may take) until the form enters hand `number`."""
    page.wait_for_function(
        f"() => document.querySelector('input[name=number]').value === '{number}'",
        timeout=LIVE_WITHIN_MS + 500,
    )


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"hours-{name}.png"))


def queued(page, table: Table) -> list:
    return page.evaluate(f"JSON.parse(localStorage.getItem('haferl.queue.{table.key}')) || []")


# --- 1. Undo is a correction of the hand it names ----------------------------------------


@pytest.mark.parametrize("kind,locale", [("tablet", "de-DE"), ("phone", "en-GB")])
def test_a_reload_after_undo_brings_nothing_back(table, kind, locale):
    language = locale[:2]
    table.create()
    page = table.device(kind, locale)
    open_table(page, table)
    enter(page, "Berta", "Frage", 66, WORDS[language])
    save(page)
    saved(page, 1, language)
    with page.expect_navigation():
        Taps(page).tap(page.locator(".entry-bar [data-undo] button"))
    assert page.url.endswith(f"/t/{table.key}")  # nothing in the address brings it back
    note = page.locator("#hand-form .form-note")
    assert note.inner_text() == (
        "Spiel 1, zurückgenommen, steht wieder im Formular: korrigieren und als Spiel 2 eintragen."
        if language == "de"
        else "Hand 1, taken back, is in the form again: correct it and enter it as hand 2."
    )
    assert page.input_value("#points") == "66"
    assert page.locator("input[name=declarer][value=Berta]").is_checked()
    shot(page, f"undo-refilled-{kind}-{language}")
    page.reload()
    assert page.input_value("#points") == ""
    assert page.locator("#hand-form .form-note").count() == 0
    assert page.locator("input[name=declarer]:checked").count() == 0
    page.wait_for_timeout(1000)
    assert table.hands() == []  # struck out, and not entered again
    shot(page, f"undo-reloaded-{kind}-{language}")


def test_undo_after_another_devices_hand_strikes_nothing(table):
    table.create()  # Anton, Berta, Charlotte, Dieter; Dieter deals and sits out first
    tablet, phone = table.device("tablet"), table.device("phone")
    for page in (tablet, phone):
        open_table(page, table)
    enter(tablet, "Berta", "Frage", 66)
    save(tablet)
    saved(tablet, 1)
    assert tablet.locator(".entry-bar [data-undo] button").count() == 1
    phone.wait_for_selector("#live-recent td.what >> text=Berta", timeout=LIVE_WITHIN_MS + 500)
    enter(phone, "Charlotte", "Frage", 70)
    save(phone)
    saved(phone, 2)
    # The tablet stops offering Undo as soon as hand 2 comes in; what it saved stays said.
    tablet.wait_for_selector(
        ".entry-bar [data-undo] form", state="detached", timeout=LIVE_WITHIN_MS + 500
    )
    assert "Spiel 1 eingetragen" in tablet.inner_text(".entry-bar")
    shot(tablet, "undo-gone-after-another-hand-tablet")
    # A device that fell behind still shows Undo for its hand 3 after hand 4 came in.
    fall_behind(tablet)
    enter(tablet, "Anton", "Frage", 75)
    save(tablet)
    saved(tablet, 3)
    showing_hand(phone, 4)
    enter(phone, "Dieter", "Frage", 80)
    save(phone)
    saved(phone, 4)
    before = table.session()["hands"]
    with tablet.expect_navigation() as answer:
        Taps(tablet).tap(tablet.locator(".entry-bar [data-undo] button"))
    assert answer.value.status == 409
    said = tablet.inner_text("main")
    assert "Spiel 4 ist schon eingetragen: Spiel 3 im Formular korrigieren?" in said
    assert "Nichts wurde zurückgenommen" in said
    assert table.session()["hands"] == before  # nothing struck, nothing settled anew
    shot(tablet, "undo-refused-tablet")
    with tablet.expect_navigation():
        Taps(tablet).tap(tablet.get_by_role("link", name="Spiel 3 korrigieren"))
    assert tablet.url.endswith(f"/t/{table.key}/spiele/3")


# --- 2. A page open all evening keeps saving ----------------------------------------------


@pytest.fixture
def short_tokens(tmp_path, monkeypatch):
    """A server whose form tokens live two seconds (the hour of a real table, shortened
    through the setting a club would use)."""
    monkeypatch.setenv("SCORER_WTF_CSRF_TIME_LIMIT", "2")
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    assert app.config["WTF_CSRF_TIME_LIMIT"] == 2
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    dispose(app)


@pytest.fixture
def short_table(browser, short_tokens):
    ARTIFACTS.mkdir(exist_ok=True)
    table = Table(browser, short_tokens)
    yield table
    table.close()


def test_a_page_older_than_its_token_keeps_saving(short_table):
    table = short_table
    table.create()
    page = table.device("tablet")
    open_table(page, table)
    served = page.input_value("input[name=csrf_token]")
    page.wait_for_timeout(5000)  # two and a half lifetimes of the token it was served with
    assert page.input_value("input[name=csrf_token]") != served  # renewed while open
    enter(page, "Berta", "Frage", 66)
    save(page)
    saved(page, 1)
    # A page whose timers slept (a tablet's screen off): its token is refused once, then
    # sent again with a fresh one, without a word to the player. (A renewal that got no
    # answer asks again only after half a minute: the token stays the old one till then.)
    page.route("**/formular-token", lambda route: route.abort())
    page.wait_for_timeout(1500)
    page.unroute("**/formular-token")
    refused = []
    page.on("response", lambda r: refused.append(r.url) if r.status == 400 else None)
    page.evaluate(
        "document.querySelectorAll('input[name=csrf_token]').forEach(i => i.value = 'old')"
    )
    enter(page, "Charlotte", "Frage", 70)
    save(page)
    saved(page, 2)
    # The hand is refused once; a preview asked meanwhile (when the machine is slow the
    # preview's pause ends before the tap) may be refused too, and is asked again.
    assert sum(url.endswith("/spiel") for url in refused) == 1, refused
    assert all(url.endswith(("/spiel", "/vorschau")) for url in refused), refused
    assert "veraltet" not in page.inner_text(".entry-bar")
    # Undo (a plain post) takes a fresh token first.
    page.route("**/formular-token", lambda route: route.abort())
    page.wait_for_timeout(1500)
    page.unroute("**/formular-token")
    page.evaluate(
        "document.querySelectorAll('input[name=csrf_token]').forEach(i => i.value = 'old')"
    )
    with page.expect_navigation() as answer:
        Taps(page).tap(page.locator(".entry-bar [data-undo] button"))
    assert answer.value.status == 200
    assert page.input_value("#points") == "70"
    assert [h[0] for h in table.hands()] == [1]
    shot(page, "token-renewed-undo-tablet")


def test_a_token_that_cannot_be_renewed_says_reload_and_keeps_the_hand(short_table):
    table = short_table
    table.create()
    page = table.device("phone")
    open_table(page, table)
    page.route("**/formular-token", lambda route: route.abort())
    page.wait_for_timeout(3000)  # the token expired, no fresh one came
    enter(page, "Berta", "Frage", 66)
    save(page)
    page.wait_for_selector("#waiting >> text=Die Seite ist veraltet")
    assert table.hands() == [] and len(queued(page, table)) == 1
    shot(page, "token-stale-phone")
    page.unroute("**/formular-token")
    page.reload()  # as the bar says: the waiting hand is sent by the page loaded anew
    saved(page, 1)
    assert table.hands() == [(1, "Berta", 66)]


# --- 3. The form says one thing once -------------------------------------------------------


@pytest.mark.parametrize("kind,locale", [("tablet", "de-DE"), ("phone", "en-GB")])
def test_a_durch_bid_is_made_or_lost_with_one_answer(table, kind, locale):
    language = locale[:2]
    create(table, "haferltarock", "levels")
    page = table.device(kind, locale)
    open_table(page, table)
    tap_value(page, "declarer", "Anton")
    tap_value(page, "contract", "hand")
    Taps(page).tap(page.locator("label:has(input[name=durch])"))
    assert page.locator("input[name=bid]:checked").count() == 0  # no 61 beside Durch
    assert page.locator("label:has(input[name=all_tricks])").is_hidden()  # one "Durch"
    result = page.locator("[data-durch-only]")
    assert result.is_visible()
    save(page)  # made or lost is still open: nothing is taken
    assert page.evaluate("document.activeElement.name") == "durch_result"
    assert queued(page, table) == []
    shot(page, f"durch-asked-{kind}-{language}")
    tap_value(page, "durch_result", "made")
    assert page.locator("#points").is_hidden()  # every trick: all the card points
    page.wait_for_selector("#preview .preview-sum")
    shot(page, f"durch-made-{kind}-{language}")
    save(page)
    saved(page, 1, language)
    tap_value(page, "declarer", "Berta")
    tap_value(page, "contract", "hand")
    Taps(page).tap(page.locator("label:has(input[name=durch])"))
    tap_value(page, "durch_result", "lost")
    page.fill("#points", "120")  # all the points, but a trick went to the others
    save(page)
    saved(page, 2, language)
    made, lost = table.session()["hands"]
    assert made["hand"]["bid"] == "durch" and made["result"] == "won"
    assert made["hand"]["all_tricks"] is True and made["hand"]["points"] == 120
    assert lost["hand"]["bid"] == "durch" and lost["result"] == "lost"
    # Untick Durch: the bid is 61 again, the question goes.
    tap_value(page, "declarer", "Anton")
    tap_value(page, "contract", "hand")
    Taps(page).tap(page.locator("label:has(input[name=durch])"))
    Taps(page).tap(page.locator("label:has(input[name=bid][value='71'])"))
    assert not page.locator("input[name=durch]").is_checked()
    assert result.is_hidden()


def test_a_half_entered_form_moves_to_the_hand_being_played(table):
    table.create()  # four: Dieter deals hand 1 and sits out, Anton hand 2
    tablet, phone = table.device("tablet"), table.device("phone")
    for page in (tablet, phone):
        open_table(page, table)
    enter(phone, "Anton", "Frage", 70)  # begun as hand 1, where Anton plays
    enter(tablet, "Berta", "Frage", 66)
    save(tablet)
    saved(tablet, 1)
    showing_hand(phone, 2)
    assert "Spiel 2 · gibt: Anton" in phone.inner_text(".seats")
    assert phone.inner_text("#hand-form .form-note") == (
        "Spiel 1 kam von einem anderen Gerät: dieses ist jetzt Spiel 2."
    )
    assert phone.input_value("#points") == "70"  # what was typed stays
    assert phone.locator("input[name=declarer][value=Anton]").count() == 0  # he deals now
    refusal = phone.locator(".choices.players ~ .field-error")
    assert refusal.inner_text() == "Anton gibt Spiel 2 und setzt aus: wer spielt?"
    phone.wait_for_selector("#preview >> text=Noch offen: Wer spielt?")  # no stale amounts
    shot(phone, "half-entered-moved-phone")
    save(phone)  # no declarer: nothing taken
    assert queued(phone, table) == []
    tap_value(phone, "declarer", "Charlotte")
    save(phone)
    saved(phone, 2)
    assert table.hands() == [(1, "Berta", 66), (2, "Charlotte", 70)]
    assert phone.locator("#hand-form .form-note").count() == 0


@pytest.mark.parametrize("kind,locale", [("phone", "de-DE"), ("tablet", "en-GB")])
def test_the_same_hand_on_two_devices_is_said_once_and_stored_once(table, kind, locale):
    language = locale[:2]
    table.create()
    tablet, other = table.device("tablet"), table.device(kind, locale)
    for page in (tablet, other):
        open_table(page, table)
    enter(other, "Berta", "Frage", 66, WORDS[language])  # the same hand, half entered
    enter(tablet, "Berta", "Frage", 66)
    save(tablet)
    saved(tablet, 1)
    showing_hand(other, 2)
    save(other)
    panel = other.locator("#conflict")
    panel.wait_for()
    said = panel.inner_text()
    assert (
        "Spiel 1 ist schon eingetragen, genau so." in said
        if language == "de"
        else "Hand 1 is entered already, exactly so." in said
    )
    # OK has the focus; entering it again is the small second way (two Bettel in a row).
    assert panel.locator("[data-renumber].small").count() == 1
    assert other.evaluate("document.activeElement.textContent.trim()") == "OK"
    shot(other, f"same-hand-{kind}-{language}")
    Taps(other).tap(panel.get_by_text("OK", exact=True))
    other.wait_for_selector("#conflict", state="detached")
    other.wait_for_timeout(1000)
    assert table.hands() == [(1, "Berta", 66)]
    assert queued(other, table) == []
    assert other.input_value("input[name=number]") == "2"  # the hand now being played


INCOMPLETE = [
    # game, system, players, contract, points, what is still open (a field's name)
    ("tarok", "points-kasse", THREE, "frage", 70, "trump"),
    ("tarok-bettel", "points-kasse", THREE, "frage", 70, "trump"),
    ("tarok-bettel", "points-kasse", THREE, "bettel", None, "bettel"),
    ("haferltarock", "parlett-units", THREE, "frage", None, "points"),
    ("haferltarock", "levels", THREE, "durch", None, "durch_result"),
    ("scharfer-tarock", "scharf-fixed", THREE, "hand", 70, "trump"),
    ("strohmandeln", "beck", ("Anton", "Berta"), "game", None, "points"),
    ("tapp-tarock", "tapp-points", THREE, "dreier", None, "points"),
]


@pytest.mark.parametrize(
    "game,system,players,contract,points,open_field",
    INCOMPLETE,
    ids=[f"{g}-{s}-{c}" for g, s, _p, c, _n, _o in INCOMPLETE],
)
def test_enter_takes_no_incomplete_hand(table, game, system, players, contract, points, open_field):
    create(table, game, system, players)
    page = table.device("tablet")
    open_table(page, table)
    tap_value(page, "declarer", "Anton")
    if contract == "durch":
        tap_value(page, "contract", "hand")
        Taps(page).tap(page.locator("label:has(input[name=durch])"))
    else:
        tap_value(page, "contract", contract)
    if points is not None:
        page.fill("#points", str(points))
    # Enter, where the keypad's Enter key is: in the points field, or on the last tap.
    if page.locator("#points").is_visible():
        page.locator("#points").press("Enter")
    else:
        page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.evaluate("document.activeElement.name") == open_field
    save(page)  # and Eintragen: the same check
    page.wait_for_selector("#preview >> text=Noch offen")
    assert page.input_value("input[name=number]") == "1"
    assert queued(page, table) == []
    page.wait_for_timeout(500)
    assert table.hands() == []
    shot(page, f"incomplete-{game}-{contract}-tablet")


# --- 6. A short table code -----------------------------------------------------------------


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_a_second_device_joins_by_typing_the_short_code(table, locale):
    table.create()
    tablet, phone = table.device("tablet", locale), table.device("phone", locale)
    open_table(tablet, table)
    code = tablet.inner_text(".qr .code")
    assert len(code) == 9 and code[4] == "-"
    box = tablet.locator(".qr").bounding_box()
    assert box["x"] + box["width"] <= tablet.viewport_size["width"]
    tablet.locator(".qr").scroll_into_view_if_needed()
    shot(tablet, f"code-on-the-table-tablet-{locale[:2]}")
    phone.goto("/")
    phone.locator("#code").fill(code.lower().replace("-", " "))  # as typed on a phone
    shot(phone, f"code-typed-phone-{locale[:2]}")
    with phone.expect_navigation():
        Taps(phone).tap(phone.locator(".open-form button"))
    assert phone.url.endswith(f"/t/{table.key}")
    phone.goto("/")
    phone.locator("#code").fill("AAAA-AAAA")
    with phone.expect_navigation():
        Taps(phone).tap(phone.locator(".open-form button"))
    assert phone.locator(".open-form .field-error").is_visible()
    shot(phone, f"code-wrong-phone-{locale[:2]}")


# --- 4. Offline, the player knows what he has --------------------------------------------


def test_offline_the_preview_the_waiting_list_and_the_start_page_say_what_waits(table):
    table.create()
    page = table.device("phone")
    open_table(page, table)
    # The server is out of reach for the writes and the preview (the pages came before).
    page.route("**/t/*/spiel", lambda route: route.abort())
    page.route("**/t/*/vorschau", lambda route: route.abort())
    enter(page, "Berta", "Frage", 66)
    tap_value(page, "doublings", "1")
    page.wait_for_selector("#preview >> text=Keine Vorschau ohne Server")
    shot(page, "offline-preview-phone")
    save(page)
    page.wait_for_selector("#waiting >> text=Offline – 1 Spiel wartet")
    assert "#1 · Berta, Frage, 66, Kontra" in page.inner_text("#waiting")
    shot(page, "offline-waiting-kontra-phone")
    page.goto("/")
    recent = page.locator("[data-recent-tables]")
    assert "1 Spiel wartet aufs Senden" in recent.inner_text()
    shot(page, "offline-start-page-phone")
    page.unroute("**/t/*/spiel")
    page.unroute("**/t/*/vorschau")
    Taps(page).tap(recent.locator("a").first)
    saved(page, 1)
    assert table.hands() == [(1, "Berta", 66)]
    assert table.session()["hands"][0]["hand"]["doublings"] == 1


# --- 7. The notice of another device's hand --------------------------------------------------


def test_the_notice_comes_for_another_devices_hand_only_and_covers_nothing_it_changed(table):
    table.create(players=("Anton", "Berta", "Charlotte"), dealer="Charlotte")  # all play
    tablet, phone = table.device("tablet"), table.device("phone")
    for page in (tablet, phone):
        open_table(page, table)
    tablet.context.set_offline(True)
    for declarer, points in (("Anton", 70), ("Berta", 80), ("Charlotte", 90)):
        enter(tablet, declarer, "Frage", points)
        save(tablet)
    tablet.context.set_offline(False)
    saved(tablet, 3)
    tablet.wait_for_timeout(2500)  # the live polls after the queue was sent
    assert tablet.locator("#live-notice:visible").count() == 0  # its own hands: no news
    showing_hand(phone, 4)
    enter(phone, "Anton", "Frage", 61)
    save(phone)
    saved(phone, 4)
    notice = tablet.locator("#live-notice")
    notice.wait_for(timeout=LIVE_WITHIN_MS + 500)
    assert "Spiel 4" in notice.inner_text()
    box, bar = notice.bounding_box(), tablet.locator(".entry-bar").bounding_box()
    for changed in (".topbar .pot", "#live-seats"):
        other = tablet.locator(changed).bounding_box()
        assert box["y"] >= other["y"] + other["height"], changed  # not over what changed
    assert box["y"] + box["height"] <= bar["y"]
    # The phone was told of the tablet's hands, never of its own hand 4.
    phone.wait_for_timeout(2000)
    phone_notices = phone.locator("#live-notice:visible")
    assert phone_notices.count() == 0 or "Spiel 4" not in phone_notices.inner_text()
    shot(tablet, "notice-another-device-tablet")


def test_the_new_table_page_fits_a_phone_whatever_the_system_is_called(table):
    page = table.device("phone")
    for game in ("strohmandeln", "haferltarock", "tarok-bettel", "tapp-tarock"):
        page.goto(f"/neu?game={game}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, game
