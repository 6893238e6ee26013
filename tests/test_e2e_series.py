"""A cup's public table in Chromium on a tablet (also at 200 %), a phone and a projector,
opened at http://haferl.test (not a secure context), after a season of three tournaments
(screenshots in tests/artifacts/series-*.png), checked by reading it: the counted results
bold, the others in brackets, nothing cut off sideways."""

from __future__ import annotations

import pytest

from tests.support.browser import (
    ARTIFACTS,
    HOST,
    chromium,
    chromium_or_skip,
    sign_up_organiser,
)

chromium_or_skip()

API = "/api/v1"
SIZES = {
    "tablet": (1024, 768),
    "tablet-zoomed": (512, 384),  # the tablet at 200 %: half the CSS pixels
    "phone": (390, 844),
    "projector": (1920, 1080),
}


@pytest.fixture
def season(live_server):
    with chromium(f"--host-resolver-rules=MAP {HOST} 127.0.0.1") as browser:
        context = browser.new_context(locale="de-DE", base_url=live_server)
        page = context.new_page()
        auth = sign_up_organiser(page)

        def post(path, body):
            answer = page.request.post(path, data=body, headers=auth)
            assert answer.ok, (path, answer.status, answer.text())
            return answer.json() if answer.status != 204 else {}

        s = post(
            f"{API}/series",
            {"name": "Haferl-Cup 2027", "cup_points": [100, 90, 82, 76, 70, 65], "best_of": 2},
        )
        names = [
            "Anna Huber",
            "Bert Bauer",
            "Cilli Wagner",
            "Done Maier",
            "Emil Gruber",
            "Franz Berger",
            "Gabi Hofer",
            "Hans Pichler",
        ]
        for number in range(3):
            t = post(
                f"{API}/tournaments",
                {
                    "name": f"Turnier {number + 1}",
                    "game": "haferltarock",
                    "system": "parlett-units",
                    "rounds": 1,
                    "deals_per_player": 1,
                    "players": names,
                    "series": s["id"],
                },
            )
            post(f"{API}/tournaments/{t['id']}/rounds", {})
            for index, name in enumerate(names):
                points = ((index + number * 3) % len(names)) * 7 + 1
                post(
                    f"{API}/tournaments/{t['id']}/adjustments",
                    {"player": name, "points": points, "reason": "Wertung"},
                )
            post(f"{API}/tournaments/{t['id']}/rounds/1/close", {})
            post(f"{API}/tournaments/{t['id']}/finish", {})
        yield browser, live_server, s["key"]


def test_the_cup_table_on_a_tablet_a_phone_and_a_projector(season):
    browser, base, key = season
    ARTIFACTS.mkdir(exist_ok=True)
    lan = base.replace("127.0.0.1", HOST)  # as a phone on the club's Wi-Fi opens it
    for size, (width, height) in SIZES.items():
        context = browser.new_context(
            locale="de-DE",
            viewport={"width": width, "height": height},
            device_scale_factor=2 if size == "tablet-zoomed" else 1,
            has_touch=size != "projector",
            base_url=lan,
        )
        page = context.new_page()
        page.goto(f"/cup/{key}")
        assert page.evaluate("window.isSecureContext") is False
        page.screenshot(path=str(ARTIFACTS / f"series-{size}.png"))
        assert page.locator("table.standings tbody tr").count() == 8
        assert page.locator("table.standings strong").count() == 16  # 2 counted × 8
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, (size, wide)
        context.close()
