"""Devices at one table in Chromium: the server seen two ways (`Table`: by the devices as
http://haferl.test:PORT, by the test straight at 127.0.0.1 for the API), its fixture
`table` (a plugin registered in tests/conftest.py), the screen sizes, and what a player
does: taps counted, a hand entered and saved."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.support.browser import ARTIFACTS, HOST

VIEWPORTS = {"tablet": (1024, 768), "phone": (390, 844)}
"""The screens the tests play on: a tablet and a phone (width, height)."""


WORDS = {
    "de": {"who": "Wer spielt?", "what": "Was?", "trump": "Trumpf"},
    "en": {"who": "Who plays?", "what": "What?", "trump": "Trump"},
}
"""The names of the form's groups, as a screen reader (and the test) finds them."""


def landed(page, selector: str) -> None:
    """After a tap that loads a new page: it shows `selector` and its scripts have run.
    Module scripts run before DOMContentLoaded, and the page's text shows before them: a
    test that taps as soon as the text shows taps a page that does not listen yet (which a
    busy machine made happen: the preview of the hand never came)."""
    page.wait_for_selector(selector)
    page.wait_for_load_state("domcontentloaded")


class Taps:
    """Counts the taps a player makes."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def tap(self, locator) -> None:
        locator.scroll_into_view_if_needed()
        box = locator.bounding_box()
        assert box is not None
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.count += 1

    def choice(self, group: str, label: str) -> None:
        self.tap(
            self.page.get_by_role("radiogroup", name=group)
            .locator("label")
            .filter(has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
        )


LIVE_WITHIN_MS = 2000
"""Another device's hand shows on this one within this time (the issue's promise)."""


class Table:
    """The server seen two ways: by Chromium as http://haferl.test:PORT (not secure), and by
    the test itself straight at 127.0.0.1 for the API."""

    def __init__(self, browser, live_server):
        port = urlsplit(live_server).port
        self.browser = browser
        self.site = f"http://{HOST}:{port}"
        self.api = f"{live_server}/api/v1"
        self.contexts: list = []
        self.problems: list[str] = []
        self.helper = browser.new_context()
        self.key = ""

    def device(self, kind: str = "tablet", locale: str = "de-DE", scale: float = 1, **extra):
        width, height = VIEWPORTS.get(kind, kind)
        context = self.browser.new_context(
            locale=locale,
            viewport={"width": width, "height": height},
            device_scale_factor=scale,
            has_touch=True,
            is_mobile=kind == "phone",
            base_url=self.site,
            **extra,
        )
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: self.problems.append(str(e)))
        return page

    def create(self, players=("Anton", "Berta", "Charlotte", "Dieter"), dealer="Dieter") -> str:
        body = {
            "name": "Freitag",
            "game": "haferltarock",
            "system": "parlett-units",
            "players": list(players),
            "first_dealer": dealer,
        }
        response = self.helper.request.post(f"{self.api}/sessions", data=body)
        assert response.status == 201, response.text()
        self.key = response.json()["key"]
        return self.key

    def session(self) -> dict:
        return self.helper.request.get(f"{self.api}/sessions/{self.key}").json()

    def close(self) -> None:
        """Close every device; no page raised a script error meanwhile."""
        for context in self.contexts:
            context.close()
        self.helper.close()
        assert self.problems == [], self.problems

    def hands(self) -> list[tuple[int, str, int | None]]:
        return [
            (h["number"], h["hand"]["declarer"], h["hand"].get("points"))
            for h in self.session()["hands"]
        ]


@pytest.fixture
def table(browser, live_server):
    """The table's server as the devices (`table.device()`) and the test see it; at the end
    every device is closed, none having raised a script error."""
    ARTIFACTS.mkdir(exist_ok=True)
    table = Table(browser, live_server)
    yield table
    table.close()


def open_table(page, table: Table) -> None:
    page.goto(f"/t/{table.key}")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("location.hostname") == HOST


def fall_behind(page) -> None:
    """The page's live polls get no answer, as on a device whose Wi-Fi lags (its writes
    still go through)."""
    page.route(
        "**/t/*",
        lambda route: (
            route.abort() if route.request.headers.get("x-haferl-live") else route.continue_()
        ),
    )


def enter(page, declarer: str, contract: str, points: int, words=WORDS["de"]) -> None:
    """Declarer, contract and points by tapping and typing; not saved."""
    taps = Taps(page)
    taps.choice(words["who"], declarer)
    taps.choice(words["what"], contract)
    page.fill("#points", str(points))


def save(page) -> None:
    Taps(page).tap(page.locator(".entry-bar button[type=submit]"))


def saved(page, number: int, language: str = "de") -> None:
    text = f"Spiel {number} eingetragen" if language == "de" else f"Hand {number} entered"
    page.wait_for_selector(f".entry-bar .confirmation >> text={text}")
