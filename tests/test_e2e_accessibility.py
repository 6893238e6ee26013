"""WCAG 2.1 A/AA in Chromium with axe-core (packaged by axe-playwright-python): the pages
players and organisers use, at 1024×768 and 390×844, light and dark, German, with no
serious or critical violation. The rules axe checked and what it found are printed (`-s`)."""

from __future__ import annotations

from collections import Counter

from axe_playwright_python.sync_playwright import Axe

from tests.support.accessibility import SERIOUS, THEMES, WCAG
from tests.support.browser import chromium, chromium_or_skip, sign_up_organiser
from tests.support.devices import VIEWPORTS

chromium_or_skip()

API = "/api/v1"
THREE = ["Anton", "Berta", "Clara"]


def pages_of_an_evening(page) -> dict[str, str]:
    """Sets up, through the API in the browser's own session, a table before and one after
    a hand, a group with a closed evening and an organiser's tournament with a round drawn;
    returns the pages by name."""
    auth = sign_up_organiser(page)

    def post(path: str, body: dict, headers: dict | None = None) -> dict:
        response = page.request.post(path, data=body, headers=headers or {})
        assert response.ok, (path, response.status, response.text())
        return response.json()

    seating = {"game": "haferltarock", "system": "parlett-units", "players": THREE}
    empty = post(f"{API}/sessions", seating)["key"]
    table = post(f"{API}/sessions", seating)["key"]
    post(f"{API}/sessions/{table}/hands", {"declarer": "Berta", "contract": "frage", "points": 70})
    group = post(f"{API}/groups", {**seating, "members": THREE})["key"]
    evening = post(f"{API}/groups/{group}/evenings", {"players": THREE})["key"]
    for declarer, points in (("Anton", 70), ("Berta", 50)):
        hand = {"declarer": declarer, "contract": "frage", "points": points}
        post(f"{API}/sessions/{evening}/hands", hand)
    assert page.request.post(f"{API}/sessions/{evening}/close").ok
    tournament = post(
        f"{API}/tournaments",
        {
            "name": "Turnier",
            "date": "2026-03-14",
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": 2,
            "deals_per_player": 1,
            "players": [f"Spieler {i}" for i in range(1, 9)],
        },
        auth,
    )
    post(f"{API}/tournaments/{tournament['id']}/rounds", {}, auth)
    event = post(
        f"{API}/tournaments",
        {
            "name": "Cup",
            "game": "haferltarock",
            "system": "parlett-units",
            "players": [],
            "entry_fee_cents": 1500,
            "registration_open": True,
            "cap": 4,
        },
        auth,
    )
    for name, club in (("Anna", "TC Au"), ("Bert", None), ("Cilli", "TC Au")):
        post(f"{API}/tournaments/{event['id']}/players", {"name": name, "club": club}, auth)
    post(f"{API}/tournaments/{event['id']}/players/Anna/check-in", {"paid": True}, auth)
    cup = post(f"{API}/series", {"name": "Cup 2027", "cup_points": [100, 90, 82]}, auth)
    return {
        "cup table": f"/cup/{cup['key']}",
        "door": f"/turniere/{event['id']}/einlass",
        "registration": f"/turnier/{event['key']}/anmelden",
        "phone check-in": f"/turnier/{event['key']}/da",
        "start": "/",
        "new table": "/neu",
        "table": f"/t/{empty}",
        "table after a hand": f"/t/{table}",
        "hand list": f"/t/{table}/spiele",
        "edit": f"/t/{table}/spiele/1",
        "settle-up": f"/t/{table}/abrechnung",
        "group": f"/s/{group}",
        "member": f"/s/{group}/spieler/Anton",
        "new group": "/stammtisch/neu",
        "tournaments": "/turniere",
        "tournament": f"/turniere/{tournament['id']}",
        "new tournament": "/turniere/neu",
        "standings": f"/turnier/{tournament['key']}/stand",
        "import": "/import",
    }


def test_no_serious_or_critical_wcag_violation(live_server):
    axe = Axe()
    found: list[str] = []
    lesser: Counter[tuple[str, str]] = Counter()
    checked: set[str] = set()
    runs = 0
    with chromium() as browser:
        setup = browser.new_context(locale="de-DE", base_url=live_server)
        pages = pages_of_an_evening(setup.new_page())
        logged_in = setup.storage_state()  # the organiser's pages need the login
        for size, (width, height) in VIEWPORTS.items():
            for theme in THEMES:
                context = browser.new_context(
                    locale="de-DE",
                    viewport={"width": width, "height": height},
                    color_scheme=theme,
                    base_url=live_server,
                    storage_state=logged_in,
                )
                page = context.new_page()
                for name, path in pages.items():
                    page.goto(path)  # the load event: the page as the server wrote it
                    response = axe.run(page, options=WCAG).response
                    runs += 1
                    for kind in ("passes", "violations", "incomplete", "inapplicable"):
                        checked |= {rule["id"] for rule in response.get(kind, [])}
                    for violation in response["violations"]:
                        rule, impact = violation["id"], violation["impact"]
                        if impact in SERIOUS:
                            where = [node["target"] for node in violation["nodes"]][:3]
                            found.append(f"{name} {size} {theme}: {rule} ({impact}) {where}")
                        else:
                            lesser[rule, impact] += 1
                context.close()
    print(
        f"\naxe-core: {len(checked)} rules; {len(pages)} pages × {len(VIEWPORTS)} sizes × "
        f"{len(THEMES)} themes = {runs} runs; {len(found)} serious or critical violations"
    )
    for (rule, impact), count in sorted(lesser.items()):
        print(f"  {rule} ({impact}) in {count} runs")
    assert found == [], "\n".join(found)
