"""Publishing: a finished tournament and a series as a static website (a zip of pages
whose every link is a file of the zip, no script, nothing from elsewhere, the standings as
the JSON has them) and as CSV (rows equal to the JSON); refused before the finish and to
anyone but the organiser."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from html.parser import HTMLParser

import pytest

from tests.support.series import a_season, finished_tournament, new_series
from tests.support.tournaments import API, organiser


@pytest.fixture
def auth(app):
    return organiser(app, name="TC Hinterhofen")


class Page(HTMLParser):
    """A page's links, its tags, and the text of each row of its `standings` table."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.tags: set[str] = set()
        self.rows: list[list[str]] = []
        self._in_standings = self._in_body = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        attributes = dict(attrs)
        self.links += [attributes[name] for name in ("href", "src") if attributes.get(name)]
        if tag == "table" and "standings" in (attributes.get("class") or ""):
            self._in_standings = True
        elif tag == "tbody" and self._in_standings:
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.rows.append([])
        elif tag in ("td", "th") and self._in_body:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._in_standings = self._in_body = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parsed(text: str) -> Page:
    page = Page()
    page.feed(text)
    return page


def number(cell: str) -> int:
    return int(cell.rstrip(".").replace("\u2212", "-").replace("+", ""))


def site_files(response) -> dict[str, str]:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.content_type == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.data)) as archive:
        return {name: archive.read(name).decode("utf-8") for name in archive.namelist()}


def assert_self_contained(files: dict[str, str]) -> None:
    """Every link a file of the zip; no script and no address elsewhere in any file."""
    for name, text in files.items():
        assert "http://" not in text and "https://" not in text, name
        assert not re.search(r"<script|javascript:", text, re.IGNORECASE), name
        if name.endswith(".html"):
            page = parsed(text)
            assert "script" not in page.tags
            for link in page.links:
                assert link.split("#")[0] in files, (name, link)


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response.content_type == "text/csv; charset=utf-8"
    text = response.data.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def test_a_finished_tournament_as_a_website(client, auth):
    tid = finished_tournament(client, auth)
    files = site_files(client.get(f"{API}/tournaments/{tid}/site.zip", headers=auth))
    assert {"index.html", "tabelle.html", "runde-1.html", "runde-2.html", "site.css"} == set(files)
    assert_self_contained(files)
    index = files["index.html"]
    assert "TC Hinterhofen" in index and "Turnier" in index and 'lang="de"' in index
    mark = re.search(r'class="mark">([^<]+)<', index)
    assert mark is not None
    for name in ("tabelle.html", "runde-1.html", "runde-2.html"):
        assert "TC Hinterhofen" in files[name]
        assert mark.group(1) in files[name]  # the rules block and its mark on every page
    standings = client.get(f"{API}/tournaments/{tid}/standings", headers=auth).get_json()
    shown = [(number(r[0]), r[1], number(r[-1])) for r in parsed(files["tabelle.html"]).rows]
    assert shown == [(s["place"], s["player"], s["total"]) for s in standings]
    round_one = client.get(f"{API}/tournaments/{tid}/rounds/1", headers=auth).get_json()
    for table in round_one["tables"]:
        for player in table["players"]:
            assert player in files["runde-1.html"]


def test_a_tournament_in_english(client, auth):
    tid = finished_tournament(client, auth, rounds=1)
    files = site_files(client.get(f"{API}/tournaments/{tid}/site.zip?lang=en", headers=auth))
    assert 'lang="en"' in files["index.html"] and "Round 1" in files["runde-1.html"]


def test_the_tournament_standings_as_csv(client, auth):
    tid = finished_tournament(client, auth)
    rows = csv_rows(client.get(f"{API}/tournaments/{tid}/standings.csv", headers=auth))
    assert rows[0] == ["Platz", "Spieler", "R1", "R2", "Anp.", "Punkte"]
    standings = client.get(f"{API}/tournaments/{tid}/standings", headers=auth).get_json()
    assert [(int(r[0]), r[1], *map(int, r[2:])) for r in rows[1:]] == [
        (s["place"], s["player"], *s["per_round"], s["adjustment"], s["total"]) for s in standings
    ]


def test_an_unfinished_tournament_is_not_published(client, auth):
    tid = finished_tournament(client, auth, rounds=1, finish=False)
    answer = client.get(f"{API}/tournaments/{tid}/site.zip", headers=auth)
    assert answer.status_code == 409
    assert answer.get_json()["error"]["code"] == "conflict"
    # The standings as they stand are a spreadsheet at any time.
    assert client.get(f"{API}/tournaments/{tid}/standings.csv", headers=auth).status_code == 200


def test_only_the_organiser_gets_them(app, client, auth):
    tid = finished_tournament(client, auth, rounds=1)
    cup = new_series(client, auth).get_json()
    other = organiser(app, email="other@example.org", name="Other")
    paths = [
        f"{API}/tournaments/{tid}/site.zip",
        f"{API}/tournaments/{tid}/standings.csv",
        f"{API}/series/{cup['id']}/site.zip",
        f"{API}/series/{cup['id']}/standings.csv",
    ]
    for path in paths:
        assert client.get(path).status_code == 401, path
        assert client.get(path, headers=other).status_code == 404, path
    assert client.get(f"{API}/series/{cup['id'] + 99}/site.zip", headers=auth).status_code == 404


def test_a_series_as_a_website(client, auth):
    cup = a_season(client, auth)
    files = site_files(client.get(f"{API}/series/{cup['id']}/site.zip", headers=auth))
    assert {"index.html", "tabelle.html", "turnier-1.html", "turnier-2.html", "site.css"} == set(
        files
    )
    assert_self_contained(files)
    assert "TC Hinterhofen" in files["index.html"] and "Haferl-Cup 2027" in files["index.html"]
    assert "Auftakt" in files["turnier-1.html"] and 'class="mark"' in files["turnier-2.html"]
    rows = client.get(f"{API}/series/{cup['key']}/standings").get_json()
    shown = [(number(r[0]), r[1], number(r[-1])) for r in parsed(files["tabelle.html"]).rows]
    assert shown == [(r["place"], r["player"], r["points"]) for r in rows]


def test_the_series_table_as_csv(client, auth):
    cup = a_season(client, auth)
    rows = csv_rows(client.get(f"{API}/series/{cup['id']}/standings.csv", headers=auth))
    assert rows[0] == ["Platz", "Spieler", "Auftakt", "Herbst", "Punkte"]
    table = client.get(f"{API}/series/{cup['key']}/standings").get_json()
    assert [(int(r[0]), r[1], int(r[-1])) for r in rows[1:]] == [
        (r["place"], r["player"], r["points"]) for r in table
    ]
    done = next(r for r in rows[1:] if r[1] == "Done")
    assert done[2] == ""  # not at the first tournament
