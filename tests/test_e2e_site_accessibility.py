"""The published websites (`scorer.reports.site`) in Chromium with axe-core, as the app's
pages are checked (tests/test_e2e_accessibility.py): a finished tournament's and a series'
zip unpacked into a folder, every page opened from the disk (file://) at a tablet's and a
phone's size, light and dark, German, with no serious or critical violation."""

from __future__ import annotations

import io
import zipfile

from axe_playwright_python.sync_playwright import Axe

from tests.support.accessibility import SERIOUS, THEMES, WCAG
from tests.support.browser import chromium
from tests.support.devices import VIEWPORTS
from tests.support.series import a_season, finished_tournament
from tests.support.tournaments import API, organiser


def unpacked(response, folder):
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    folder.mkdir()
    with zipfile.ZipFile(io.BytesIO(response.data)) as archive:
        archive.extractall(folder)
    return sorted(folder.glob("*.html"))


def test_the_published_sites_have_no_serious_or_critical_wcag_violation(app, client, tmp_path):
    auth = organiser(app, name="TC Hinterhofen")
    tid = finished_tournament(client, auth)
    cup = a_season(client, auth)
    pages = [
        *unpacked(client.get(f"{API}/tournaments/{tid}/site.zip", headers=auth), tmp_path / "t"),
        *unpacked(client.get(f"{API}/series/{cup['id']}/site.zip", headers=auth), tmp_path / "s"),
    ]
    assert len(pages) == 8  # index, standings, two rounds; index, table, two tournaments
    axe = Axe()
    found: list[str] = []
    with chromium() as browser:
        for size, (width, height) in VIEWPORTS.items():
            for theme in THEMES:
                context = browser.new_context(
                    locale="de-DE", viewport={"width": width, "height": height}, color_scheme=theme
                )
                page = context.new_page()
                for path in pages:
                    page.goto(path.as_uri())
                    response = axe.run(page, options=WCAG).response
                    for violation in response["violations"]:
                        rule, impact = violation["id"], violation["impact"]
                        if impact in SERIOUS:
                            where = [node["target"] for node in violation["nodes"]][:3]
                            name = path.relative_to(tmp_path)
                            found.append(f"{name} {size} {theme}: {rule} ({impact}) {where}")
                context.close()
    assert found == [], "\n".join(found)
