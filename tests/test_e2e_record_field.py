"""The record event's pages with 1,500 names, in Chromium at http://haferl.test (not a
secure context, as a tablet on the club's Wi-Fi opens it), on a tablet (1024×768) and a
phone (390×844): the desk finds one of 1,500 registered players by four typed digits and
checks him in with a tap; a field of 1,500 is drawn, and the round's tables page, the
public seating plan and the standings page carry every name; the papers (tables, table
cards, score slips, standings) are printed with every name on them. Screenshots and the
papers' sizes and times are written to tests/artifacts/ (record-field-*.png,
record-field.txt)."""

from __future__ import annotations

import base64
import time
from urllib.parse import urlsplit

from scorer.tournaments.director_pages import SEATS_PER_PAGE
from tests.support.browser import ARTIFACTS, HOST, chromium_or_skip, sign_up_organiser
from tests.support.pdfs import pdf_pages
from tests.support.servers import call

chromium_or_skip()

API = "/api/v1"
FIELD = 1500
NAMES = [f"Spielerin {n:04d}" for n in range(1, FIELD + 1)]
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}


def made(port: int, auth: dict, name: str, **extra) -> dict:
    body = {
        "name": name,
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 3,
        "deals_per_player": 1,
        "players": NAMES,
        **extra,
    }
    status, tournament = call(port, "POST", f"{API}/tournaments", body, auth, timeout=60)
    assert status == 201, tournament
    return tournament


FETCH = """async path => {
  const answer = await fetch(path);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return [answer.status, btoa(text)];
}"""
"""A paper fetched by the page itself (the organiser's cookie, haferl.test)."""


def printed(page, path: str) -> tuple[bytes, float]:
    """A paper asked for as the "being printed" page does until it is there; its bytes
    and the seconds it took."""
    began = time.perf_counter()
    deadline = began + 120
    while (answer := page.evaluate(FETCH, path))[0] == 202:
        assert time.perf_counter() < deadline, path
        time.sleep(0.2)
    status, body = answer
    assert status == 200, (path, status)
    return base64.b64decode(body), time.perf_counter() - began


def not_cut_off(page) -> None:
    """Nothing wider than the screen: the page does not scroll sideways."""
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
        " > innerWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className + ' '"
        " + Math.round(e.getBoundingClientRect().right) + ' ' + (e.innerText || '').slice(0, 40))"
    )
    assert width <= page.viewport_size["width"], (page.url, width, wide)


def test_1500_names_at_the_desk_in_the_draw_on_the_pages_and_the_papers(live_server, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    port = urlsplit(live_server).port
    base = f"http://{HOST}:{port}"
    context = browser.new_context(locale="de-DE", viewport=TABLET, has_touch=True, base_url=base)
    page = context.new_page()
    auth = sign_up_organiser(page)
    figures: list[str] = []

    def figure(line: str) -> None:
        figures.append(line)
        (ARTIFACTS / "record-field.txt").write_text("\n".join(figures) + "\n")

    door = made(port, auth, "Rekord: Einlass", check_in=True, entry_fee_cents=1500)
    page.goto(f"/turniere/{door['id']}/einlass")
    assert page.evaluate("window.isSecureContext") is False
    assert page.locator(".door-counts strong").inner_text() == "0 von 1500 da"
    page.screenshot(path=str(ARTIFACTS / "record-field-desk-tablet.png"))
    search = page.locator("[data-door-search]")
    search.tap()
    search.press_sequentially("1234")
    rows = page.locator("li.door-row:visible")
    assert rows.count() == 1 and "Spielerin 1234" in rows.first.inner_text()
    with page.expect_navigation():
        rows.first.get_by_role("button", name="Da, 15,00 € bezahlt").tap()
    assert page.locator(".door-counts strong").inner_text() == "1 von 1500 da"
    phone = browser.new_context(
        locale="de-DE",
        viewport=PHONE,
        has_touch=True,
        base_url=base,
        storage_state=context.storage_state(),
    ).new_page()
    phone.goto(f"/turniere/{door['id']}/einlass")
    phone.locator("[data-door-search]").tap()
    phone.locator("[data-door-search]").press_sequentially("149")
    assert phone.locator("li.door-row:visible").count() == 10  # 1490..1499
    phone.screenshot(path=str(ARTIFACTS / "record-field-desk-phone.png"))
    not_cut_off(phone)
    with phone.expect_navigation():  # here, pays later: the row offers paid, waive, undo
        phone.locator("li.door-row:visible").first.get_by_role(
            "button", name="Da, zahlt später"
        ).tap()
    phone.locator("[data-door-search]").tap()
    phone.locator("[data-door-search]").press_sequentially("1490")
    assert "Startgeld offen" in phone.locator("li.door-row:visible").first.inner_text()
    phone.screenshot(path=str(ARTIFACTS / "record-field-desk-phone-present.png"))
    not_cut_off(phone)

    field = made(port, auth, "Rekordturnier")
    began = time.perf_counter()
    status, drawn = call(
        port, "POST", f"{API}/tournaments/{field['id']}/rounds", {}, auth, timeout=60
    )
    figure(f"draw of 1500 players: {time.perf_counter() - began:.2f} s")
    assert status == 201, drawn
    assert sorted(n for t in drawn["tables"] for n in t["players"]) == NAMES
    assert len(drawn["tables"]) == FIELD // 4
    seating = f"/turnier/{field['key']}/runde/1/sitzplan"
    pages = FIELD // SEATS_PER_PAGE + 1  # the projector's pages turn by themselves
    shown = "".join(
        page.request.get(f"{live_server}{seating}?seite={n}").text() for n in range(1, pages + 1)
    )
    assert all(name in shown for name in NAMES)
    figure(f"seating plan for the projector: {pages} pages of {SEATS_PER_PAGE} names")
    for viewer, label in ((page, "tablet"), (phone, "phone")):
        viewer.goto(f"{seating}?seite={pages}")
        assert "Spielerin" in viewer.inner_text("main")
        viewer.screenshot(path=str(ARTIFACTS / f"record-field-seating-{label}.png"))
        not_cut_off(viewer)
        for path, shot in (
            (f"/turniere/{field['id']}/runde/1/tische", "tables"),
            (f"/turnier/{field['key']}/stand", "standings"),
        ):
            began = time.perf_counter()
            viewer.goto(path)
            figure(f"{shot} page, {label}: {time.perf_counter() - began:.2f} s to load")
            text = viewer.inner_text("main")
            assert all(name in text for name in NAMES), (path, label)
            viewer.screenshot(path=str(ARTIFACTS / f"record-field-{shot}-{label}.png"))
            not_cut_off(viewer)

    for path, paper in (
        (f"/turniere/{field['id']}/runde/1/tische.pdf", "tables"),
        (f"/turniere/{field['id']}/runde/1/karten.pdf", "table cards"),
        (f"/turniere/{field['id']}/runde/1/spielzettel.pdf", "score slips"),
        (f"/turniere/{field['id']}/tabelle.pdf", "standings"),
    ):
        pdf, seconds = printed(page, path)
        pages = pdf_pages(pdf)
        text = "\n".join(pages)
        missing = [name for name in NAMES if name not in text]
        assert not missing, (paper, missing[:5])
        figure(
            f"{paper} PDF: {len(pages)} pages, {len(pdf) / 1000:.0f} kB, printed in {seconds:.1f} s"
        )
        (ARTIFACTS / f"record-field-{paper.replace(' ', '-')}.pdf").write_bytes(pdf)
