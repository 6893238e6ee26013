"""The door of a 200-player event in Chromium, by tapping: the desk finds each player by
typing a few letters of his surname and taps "Da, bezahlt" (at 1024×768, touch). Measured
and written to tests/artifacts/door-taps.txt: seconds and taps per player. Also the
screenshots of the desk (tablet and phone), the public registration page and a phone's
check-in, and a player who checks himself in on his phone with the desk's code."""

from __future__ import annotations

import random
import time

import pytest

from tests.support.browser import ARTIFACTS, chromium, chromium_or_skip, sign_up_organiser

chromium_or_skip()

API = "/api/v1"
FIRST = [
    "Anna",
    "Bert",
    "Cilli",
    "Done",
    "Emil",
    "Franz",
    "Gabi",
    "Hans",
    "Inge",
    "Josef",
    "Kathi",
    "Lorenz",
    "Maria",
    "Niko",
    "Olga",
    "Peter",
    "Resi",
    "Sepp",
    "Traudl",
    "Vroni",
]
LAST = [
    "Huber",
    "Bauer",
    "Wagner",
    "Maier",
    "Gruber",
    "Berger",
    "Hofer",
    "Pichler",
    "Moser",
    "Steiner",
    "Eder",
    "Leitner",
    "Fuchs",
    "Schmid",
    "Aigner",
    "Winkler",
    "Brunner",
    "Lang",
    "Baumann",
    "Auer",
    "Egger",
    "Koller",
    "Reiter",
    "Wimmer",
    "Haas",
    "Kainz",
    "Lechner",
    "Schwarz",
    "Strasser",
    "Holzer",
    "Mayr",
    "Zauner",
    "Hauser",
    "Lindner",
]
CLUBS = ["TC Au", "Tarockrunde Laim", "Stammtisch Giesing", None]


def field(count: int) -> list[tuple[str, str | None]]:
    """`count` different names (first and last) with a club or none, reproducibly."""
    rng = random.Random(7)
    names = [f"{first} {last}" for last in LAST for first in FIRST]
    rng.shuffle(names)
    return [(name, rng.choice(CLUBS)) for name in names[:count]]


def letters_to_find(name: str, everyone: list[str]) -> str:
    """What the desk types: the fewest letters of the surname, and a space and the first
    name's first letters if needed, that only this player fits (each word typed must begin a
    word of a row's name or club, as the page matches; `everyone`: each row's name and club)."""
    first, last = name.split(" ")

    def fits(typed: str, other: str) -> bool:
        parts = other.lower().split()
        return all(any(part.startswith(word) for part in parts) for word in typed.split())

    tries = sorted(
        {last[:k] for k in range(1, len(last) + 1)}
        | {
            f"{last[:k]} {first[:j]}"
            for k in range(1, len(last) + 1)
            for j in range(1, len(first) + 1)
        },
        key=len,
    )
    for typed in tries:
        if sum(fits(typed.lower(), other) for other in everyone) == 1:
            return typed.lower()
    raise AssertionError(name)  # two players who cannot be told apart


@pytest.fixture
def desk(live_server):
    ARTIFACTS.mkdir(exist_ok=True)
    with chromium() as browser:
        context = browser.new_context(
            locale="de-DE",
            viewport={"width": 1024, "height": 768},
            has_touch=True,
            base_url=live_server,
        )
        yield browser, context, context.new_page()


def post(page, path: str, body: dict, auth: dict) -> dict:
    response = page.request.post(path, data=body, headers=auth)
    assert response.ok, (path, response.status, response.text())
    return response.json() if response.status != 204 else {}


def test_200_players_checked_in_by_tapping_at_the_desk(desk, live_server):
    browser, context, page = desk
    auth = sign_up_organiser(page)
    tournament = post(
        page,
        f"{API}/tournaments",
        {
            "name": "Haferl-Cup",
            "game": "haferltarock",
            "system": "parlett-units",
            "players": [],
            "entry_fee_cents": 1500,
            "prizes": {"percent": [30, 25, 15, 10]},
            "registration_open": True,
        },
        auth,
    )
    tid = tournament["id"]
    players = field(200)
    for name, club in players:
        body = {"name": name} if club is None else {"name": name, "club": club}
        post(page, f"{API}/tournaments/{tid}/players", body, auth)
    names = [name for name, _ in players]
    said = [f"{name} {club or ''}" for name, club in players]  # what a row is matched on
    shots = {}
    page.goto(f"/turniere/{tid}/einlass")
    page.screenshot(path=str(ARTIFACTS / "door-tablet.png"))
    shots["door-tablet"] = True
    taps = 0
    started = time.perf_counter()
    for index, name in enumerate(names):
        typed = letters_to_find(name, said)
        search = page.locator("[data-door-search]")
        search.tap()
        search.press_sequentially(typed)
        rows = page.locator("li.door-row:visible")
        assert rows.count() == 1, (name, typed)
        assert name in rows.first.inner_text()
        with page.expect_navigation():
            rows.first.get_by_role("button", name="Da, 15,00 € bezahlt").tap()
        taps += 1 + len(typed) + 1  # the search box, each letter, the button
        if index == 99:
            page.locator("[data-door-search]").press_sequentially("hub")
            page.screenshot(path=str(ARTIFACTS / "door-tablet-searching.png"))
            page.locator("[data-door-search]").fill("")
    seconds = time.perf_counter() - started
    assert "200 von 200 da" in page.locator(".door-counts").inner_text()
    assert "200 bezahlt" in page.locator(".door-counts").inner_text()
    cash = page.request.get(f"{API}/tournaments/{tid}/cash", headers=auth).json()
    assert cash["received_cents"] == 200 * 1500 and cash["unpaid"] == []
    (ARTIFACTS / "door-taps.txt").write_text(
        f"200 players checked in by tapping at 1024x768: {seconds:.1f} s in all, "
        f"{seconds / 200:.2f} s and {taps / 200:.1f} taps per player "
        f"(the search box, {sum(len(letters_to_find(n, said)) for n in names) / 200:.1f} "
        f"letters on average, the button)\n"
    )
    phone = browser.new_context(
        locale="de-DE",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        base_url=live_server,
        storage_state=context.storage_state(),
    ).new_page()
    phone.goto(f"/turniere/{tid}/einlass")
    phone.locator("[data-door-search]").press_sequentially("wag")
    phone.screenshot(path=str(ARTIFACTS / "door-phone.png"))
    register = browser.new_context(
        locale="de-DE",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        base_url=live_server,
    ).new_page()
    register.goto(f"/turnier/{tournament['key']}/anmelden")
    register.screenshot(path=str(ARTIFACTS / "register-phone.png"))
    register.get_by_label("Dein Name").fill("Zenzi Obermaier")
    register.get_by_label("Verein (freiwillig)").fill("TC Au")
    with register.expect_navigation():
        register.get_by_role("button", name="Anmelden").tap()
    assert "Zenzi Obermaier ist angemeldet" in register.inner_text("main")
    page.reload()
    code = page.locator(".door-code strong").inner_text()
    register.goto(f"/turnier/{tournament['key']}/da")
    register.get_by_label("Dein Name").fill("zenzi obermaier")
    register.get_by_label("Code vom Einlass").fill(code)
    register.screenshot(path=str(ARTIFACTS / "phone-check-in.png"))
    with register.expect_navigation():
        register.get_by_role("button", name="Ich bin da").tap()
    assert "Zenzi Obermaier ist eingecheckt" in register.inner_text("main")
    register.screenshot(path=str(ARTIFACTS / "phone-checked-in.png"))
