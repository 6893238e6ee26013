"""The live table in Chromium, on a page that is not a secure context (plain http on a
name that is not localhost, as a tablet on the pub's Wi-Fi opens it): two devices at one
table, a hand entered twice, the Wi-Fi dropped, a page closed with hands waiting, a page
without JavaScript, the screen kept on, the entry bar after saving, the keyboard.

Chromium maps haferl.test to 127.0.0.1 (`--host-resolver-rules`): all traffic stays on
loopback. Screenshots go to tests/artifacts/ (live-*.png).
"""

from __future__ import annotations

import time

import pytest

from tests.support.browser import ARTIFACTS, chromium_or_skip
from tests.support.devices import (
    LIVE_WITHIN_MS,
    WORDS,
    Taps,
    enter,
    fall_behind,
    open_table,
    save,
    saved,
)

chromium_or_skip()


def bar_fits(page) -> None:
    """Everything in the entry bar is shown: nothing cut off or scrolled inside it."""
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.entry-bar .bar-status')]
               .filter(el => !el.hidden)
               .map(el => [el.scrollHeight, el.clientHeight, el.scrollWidth, el.clientWidth])"""
    )
    assert sizes, "no status shown in the bar"
    for scroll_height, height, scroll_width, width in sizes:
        assert scroll_height <= height and scroll_width <= width, sizes
    bar = page.locator(".entry-bar").bounding_box()
    view = page.viewport_size
    assert bar["y"] + bar["height"] <= view["height"] + 0.5 and bar["y"] >= 0, bar


def test_a_second_device_shows_the_first_ones_hand_within_two_seconds(table):
    table.create()
    tablet, phone = table.device("tablet"), table.device("phone")
    for page in (tablet, phone):
        open_table(page, table)
    phone_form_top = phone.locator("#hand-form").bounding_box()["y"]
    enter(tablet, "Berta", "Frage", 66)
    save(tablet)
    saved(tablet, 1)
    start = time.monotonic()
    phone.wait_for_selector("#live-recent td.what >> text=Berta", timeout=LIVE_WITHIN_MS + 500)
    waited = (time.monotonic() - start) * 1000
    assert waited <= LIVE_WITHIN_MS, waited
    assert "Spiel 2" in phone.inner_text(".seats")
    assert phone.locator("input[name=number]").input_value() == "2"
    notice = phone.locator("#live-notice")
    assert "Neu von einem anderen Gerät: Spiel 1, Berta, Frage, 66 Augen" in notice.inner_text()
    assert phone.locator("#hand-form").bounding_box()["y"] == phone_form_top
    balances = phone.inner_text("#live-balances")
    assert "Berta\n−0,80 €" in balances
    phone.screenshot(path=str(ARTIFACTS / "live-second-device-phone.png"))
    # What the player on the second device is entering is kept; it moves to the hand now
    # being played (hand 3: Berta deals and sits out, Charlotte still plays).
    enter(phone, "Charlotte", "Frage", 70)
    enter(tablet, "Charlotte", "Frage", 61)
    save(tablet)
    saved(tablet, 2)
    phone.wait_for_selector("#live-recent td.result >> text=61", timeout=LIVE_WITHIN_MS + 500)
    assert phone.locator("#points").input_value() == "70"
    assert phone.locator("input[name=declarer][value=Charlotte]").is_checked()
    assert phone.locator("input[name=number]").input_value() == "3"  # the hand it shows
    assert "Spiel 3 · gibt: Berta" in phone.inner_text(".seats")


@pytest.mark.parametrize(
    "kind,locale",
    [("tablet", "de-DE"), ("phone", "de-DE"), ("tablet", "en-GB"), ("phone", "en-GB")],
)
def test_a_hand_entered_on_two_devices_is_stored_once(table, kind, locale):
    language = locale[:2]
    words = WORDS[language]
    contract = "Frage"  # a word German and English players share
    table.create()
    first, second = table.device("tablet"), table.device(kind, locale)
    for page in (first, second):
        open_table(page, table)
    # The slower device: its hand half entered, and it has not heard of the other's hand
    # (its live poll falls behind; one that hears of it moves its hand along, see
    # test_e2e_hours.py).
    fall_behind(second)
    enter(second, "Charlotte", contract, 83, words)
    enter(first, "Berta", "Frage", 66)
    save(first)
    saved(first, 1)
    save(second)
    panel = second.locator("#conflict")
    panel.wait_for()
    said = panel.inner_text()
    if language == "de":
        assert (
            "Spiel 1 wurde schon auf einem anderen Gerät eingetragen: Berta, Frage, 66 Augen"
            in (said)
        )
        assert "Deins: Charlotte, Frage, 83 Augen" in said
        as_next, drop = "Meins als Spiel 2 eintragen", "Meins verwerfen"
    else:
        assert "Hand 1 was entered on another device already: Berta, Frage, 66 card points" in said
        assert "Yours: Charlotte, Frage, 83 card points" in said
        as_next, drop = "Enter mine as hand 2", "Drop mine"
    box = panel.bounding_box()
    view = second.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], box
    second.screenshot(path=str(ARTIFACTS / f"live-conflict-{language}-{kind}.png"))
    assert table.hands() == [(1, "Berta", 66)]
    if kind == "tablet":
        Taps(second).tap(second.get_by_role("button", name=as_next))
        saved(second, 2, language)
        assert table.hands() == [(1, "Berta", 66), (2, "Charlotte", 83)]
    else:
        second.unroute("**/t/*")
        assert second.evaluate("document.activeElement.hasAttribute('data-drop')")
        Taps(second).tap(second.get_by_role("link", name=drop))
        second.wait_for_selector("#conflict", state="detached")
        second.wait_for_timeout(500)
        assert table.hands() == [(1, "Berta", 66)]
        assert second.locator("input[name=number]").input_value() == "2"


def test_hands_entered_while_the_wifi_is_down_are_sent_once_in_order(table):
    table.create()
    page = table.device("phone")
    open_table(page, table)
    page.context.set_offline(True)
    enter(page, "Anton", "Frage", 70)
    save(page)
    page.wait_for_selector("#waiting >> text=Offline – 1 Spiel wartet")
    assert "Spiel 2" in page.inner_text(".seats")  # the next hand, its dealer moved on
    assert "gibt: Anton" in page.inner_text(".seats")
    assert page.locator("input[name=declarer][value=Anton]").count() == 0  # he sits out
    enter(page, "Berta", "Frage", 80)
    save(page)
    page.wait_for_selector("#waiting >> text=Offline – 2 Spiele warten")
    waiting = page.inner_text("#waiting")
    assert "#1 · Anton, Frage, 70" in waiting
    assert "#2 · Berta, Frage, 80" in waiting
    bar_fits(page)
    page.screenshot(path=str(ARTIFACTS / "live-offline-two-waiting-phone.png"))
    assert table.hands() == []
    page.context.set_offline(False)
    saved(page, 2)
    assert table.hands() == [(1, "Anton", 70), (2, "Berta", 80)]
    page.wait_for_timeout(3500)  # retries and polls after it store nothing twice
    assert table.hands() == [(1, "Anton", 70), (2, "Berta", 80)]


def test_a_hand_kept_while_offline_is_sent_when_the_table_is_opened_again(table):
    table.create()
    page = table.device("tablet")
    open_table(page, table)
    page.context.set_offline(True)
    enter(page, "Charlotte", "Frage", 75)
    save(page)
    page.wait_for_selector("#waiting >> text=Offline – 1 Spiel wartet")
    context = page.context
    page.close()
    assert table.hands() == []  # nothing reached the server while offline
    context.set_offline(False)
    again = context.new_page()
    again.on("pageerror", lambda e: table.problems.append(str(e)))
    open_table(again, table)
    saved(again, 1)
    assert table.hands() == [(1, "Charlotte", 75)]
    again.reload()
    again.wait_for_timeout(1000)
    assert table.hands() == [(1, "Charlotte", 75)]  # once, whoever sent it
    assert again.evaluate(f"localStorage.getItem('haferl.queue.{table.key}')") is None


def test_a_hand_queued_offline_whose_number_was_taken_comes_back_as_a_conflict(table):
    table.create(players=("Anton", "Berta", "Charlotte"), dealer="Charlotte")  # all play
    page = table.device("tablet")
    open_table(page, table)
    page.context.set_offline(True)
    enter(page, "Anton", "Frage", 70)
    save(page)
    enter(page, "Berta", "Frage", 80)
    save(page)
    page.wait_for_selector("#waiting >> text=Offline – 2 Spiele warten")
    other = table.helper.request.post(
        f"{table.api}/sessions/{table.key}/hands",
        data={"declarer": "Charlotte", "contract": "frage", "points": 90, "number": 1},
    )
    assert other.status == 201
    page.context.set_offline(False)
    panel = page.locator("#conflict")
    panel.wait_for()
    assert "Spiel 1 wurde schon auf einem anderen Gerät eingetragen: Charlotte" in (
        panel.inner_text()
    )
    assert table.hands() == [(1, "Charlotte", 90)]
    # Mine after theirs: the hand queued after mine moves along with it.
    Taps(page).tap(page.get_by_role("button", name="Meins als Spiel 2 eintragen"))
    saved(page, 3)
    assert table.hands() == [(1, "Charlotte", 90), (2, "Anton", 70), (3, "Berta", 80)]


def test_a_stale_page_without_javascript_stores_nothing_and_says_why(table):
    table.create()
    page = table.device("tablet", java_script_enabled=False)
    open_table_plain = page.goto(f"/t/{table.key}")
    assert open_table_plain.status == 200
    table.helper.request.post(
        f"{table.api}/sessions/{table.key}/hands",
        data={"declarer": "Berta", "contract": "frage", "points": 66},
    )
    page.locator("label:has(input[name=declarer][value=Charlotte])").click()
    page.locator("label:has(input[name=contract][value=frage])").click()
    page.fill("#points", "83")
    with page.expect_navigation() as response_info:
        page.locator(".entry-bar button[type=submit]").click()
    assert response_info.value.status == 409
    said = page.inner_text("#conflict")
    assert "Spiel 1 wurde schon auf einem anderen Gerät eingetragen: Berta, Frage, 66 Augen" in said
    assert page.input_value("#points") == "83"
    assert table.hands() == [(1, "Berta", 66)]
    page.screenshot(path=str(ARTIFACTS / "live-conflict-no-script-tablet.png"))
    with page.expect_navigation():
        page.get_by_role("button", name="Meins als Spiel 2 eintragen").click()
    assert table.hands() == [(1, "Berta", 66), (2, "Charlotte", 83)]


def test_the_screen_stays_on_where_there_is_no_wake_lock(table):
    table.create()
    page = table.device("tablet")
    open_table(page, table)
    assert page.evaluate("'wakeLock' in navigator") is False
    page.wait_for_function(
        "() => { const v = document.querySelector('video.keep-awake');"
        " return v && !v.paused && v.currentTime > 0; }",
        timeout=5000,
    )
    page.evaluate(
        "() => { Object.defineProperty(document, 'visibilityState', {value: 'hidden',"
        " configurable: true}); document.dispatchEvent(new Event('visibilitychange')); }"
    )
    assert page.evaluate("document.querySelector('video.keep-awake').paused") is True


@pytest.mark.parametrize(
    "kind,scale,locale",
    [
        ("phone", 1, "de-DE"),
        ("phone", 1, "en-GB"),
        ((512, 384), 2, "de-DE"),  # the tablet's 1024×768 at 200 % zoom
        ((512, 384), 2, "en-GB"),
    ],
    ids=["phone-de", "phone-en", "zoom200-de", "zoom200-en"],
)
def test_the_entry_bar_shows_all_it_says(table, kind, scale, locale):
    language = locale[:2]
    table.create()
    page = table.device(kind, locale, scale)
    open_table(page, table)
    bar_fits(page)
    enter(page, "Charlotte", "Frage", 86, WORDS[language])
    page.wait_for_function(
        "() => document.getElementById('preview').textContent.includes('0,')"
        if language == "de"
        else "() => document.getElementById('preview').textContent.includes('0.')"
    )
    bar_fits(page)
    save(page)
    saved(page, 1, language)
    bar_fits(page)
    for label in ("Rückgängig", "warum?") if language == "de" else ("Undo", "why?"):
        item = page.locator(".entry-bar").get_by_text(label, exact=True)
        box = item.bounding_box()
        assert box and box["y"] + box["height"] <= page.viewport_size["height"], label
    name = "zoom200" if scale == 2 else "phone"
    page.screenshot(path=str(ARTIFACTS / f"live-bar-after-saving-{name}-{language}.png"))


def test_the_keyboard_walks_the_form_and_comes_back_to_it(table):
    table.create()
    page = table.device("tablet")
    open_table(page, table)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "declarer"
    page.keyboard.press("Space")
    page.locator("input[name=contract][value=hand]").focus()
    page.keyboard.press("Space")
    page.fill("#points", "77")
    page.locator("input[name=bid][value='61']").focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.name") == "bid"
    assert page.evaluate("document.querySelector('input[name=bid]:checked').value") == "76"
    assert page.input_value("#points") == "77"  # typed points kept
    page.locator("#points").focus()
    page.keyboard.press("Enter")
    saved(page, 1)
    assert page.evaluate("document.activeElement.name") == "declarer"
    page.wait_for_timeout(2000)  # the live refresh swaps the form in: the focus stays
    assert page.evaluate("document.activeElement.name") == "declarer"
    assert table.hands() == [(1, "Anton", 77)]


def test_a_queued_hand_the_rules_refuse_stops_the_queue_until_the_player_chooses(table):
    """Four at the table: moved along behind another device's hand, Anton's hand falls on
    the deal he sits out. The queue stops with the reason; nothing is dropped untapped."""
    table.create()  # Anton, Berta, Charlotte, Dieter; Dieter deals the first hand
    page = table.device("tablet")
    open_table(page, table)
    page.context.set_offline(True)
    enter(page, "Anton", "Frage", 70)
    save(page)
    enter(page, "Berta", "Frage", 80)
    save(page)
    page.wait_for_selector("#waiting >> text=Offline – 2 Spiele warten")
    other = table.helper.request.post(
        f"{table.api}/sessions/{table.key}/hands",
        data={"declarer": "Charlotte", "contract": "frage", "points": 90, "number": 1},
    )
    assert other.status == 201
    page.context.set_offline(False)
    page.locator("#conflict").wait_for()
    Taps(page).tap(page.get_by_role("button", name="Meins als Spiel 2 eintragen"))
    panel = page.locator("#conflict >> text=Spiel 2 wurde nicht eingetragen")
    panel.wait_for()  # Anton deals hand 2 and sits out
    page.screenshot(path=str(ARTIFACTS / "live-refused-tablet.png"))
    assert table.hands() == [(1, "Charlotte", 90)]
    Taps(page).tap(page.get_by_role("button", name="Im Formular korrigieren"))
    page.locator("#conflict >> text=Spiel 3 wurde nicht eingetragen").wait_for()  # Berta's
    assert page.input_value("#points") == "70"  # Anton's hand, back in the form
    Taps(page).tap(page.get_by_role("button", name="Meins verwerfen"))
    page.wait_for_selector("#conflict", state="detached")
    assert table.hands() == [(1, "Charlotte", 90)]
    assert page.evaluate(f"localStorage.getItem('haferl.queue.{table.key}')") is None
