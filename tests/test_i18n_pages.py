"""Every page in German and in English, with no word of the other language left: a table
with hands (open and closed), its lists and forms, the rules of every game, a tournament
from the organiser's side and the public standings, a Stammtisch and the sign-in pages.

The word lists (tests/support/languages.py) hold common words of each language that the
other never uses; card terms that keep their German names in English (Frage, Solo, Haferl,
Bettel, …) are not on them.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from scorer.domain import GAMES
from tests.support.groups import FOUR, close, create_group, evening, play
from tests.support.languages import ENGLISH, GERMAN
from tests.support.tournaments import PASSWORD, created, draw, organiser

PLAYERS = ["Anton", "Berta", "Charlotte"]


class VisibleText(HTMLParser):
    """The text a reader sees (and hears: titles, labels, alt texts), without scripts."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        attributes = dict(attrs)
        if tag in ("input", "button") and attributes.get("type") in ("submit", "button"):
            self.parts.append(attributes.get("value") or "")
        for name, value in attrs:
            if name in ("title", "alt", "aria-label", "placeholder") and value:
                self.parts.append(value)
            spoken = value and " " in value and not value.startswith(("{", "["))
            if name.startswith("data-") and name != "data-said" and spoken:
                # A script's sentence keeps its placeholders (%(count)s) for it to fill.
                self.parts.append(re.sub(r"%\(\w+\)s", "", value))

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    # The language switch names each language in its own words.
    return " ".join(parser.parts).replace("Deutsch", "").replace("English", "")


def pages(app, client) -> list[str]:
    """A filled instance's page addresses."""
    body = {"name": "T1", "game": "haferltarock", "system": "parlett-units", "players": PLAYERS}
    key = client.post("/api/v1/sessions", json=body).get_json()["key"]
    for hand in (
        {"declarer": "Anton", "contract": "hand", "bid": 76, "points": 83},
        {"declarer": "Berta", "contract": "frage", "points": 50},
    ):
        assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
    body = dict(body, name="T2")
    closed = client.post("/api/v1/sessions", json=body).get_json()["key"]
    hand = {"declarer": "Anton", "contract": "frage", "points": 70}
    assert client.post(f"/api/v1/sessions/{closed}/hands", json=hand).status_code == 201
    assert client.post(f"/api/v1/sessions/{closed}/close").status_code == 200
    group = create_group(client)["key"]
    session = evening(client, group, FOUR)
    play(client, session, [{"contract": "frage", "points": 70}])
    close(client, session)
    auth = organiser(app)
    tournament = created(client, auth, [f"P{i}" for i in range(1, 10)], rounds=2, name="Cup")
    seated = draw(client, auth, tournament["id"])["tables"][0]["key"]
    return [
        "/",
        "/neu",
        "/import",
        f"/t/{key}",
        f"/t/{key}/spiele",
        f"/t/{key}/spiele/1",
        f"/t/{key}/spiele/1/streichen",
        f"/t/{key}/schliessen",
        f"/t/{key}/spieler",
        f"/t/{key}/abrechnung",
        f"/t/{closed}",
        f"/t/{closed}/abrechnung",
        f"/t/{seated}",
        f"/t/{seated}/spiele",
        *(f"/regeln/{game_id}" for game_id in GAMES),
        "/stammtisch/neu",
        f"/s/{group}",
        f"/s/{group}/spieler/Anton",
        "/veranstalter/anmelden",
        f"/turnier/{tournament['key']}/stand",
        "LOGIN",
        "/turniere",
        "/turniere/neu",
        f"/turniere/{tournament['id']}",
        f"/turniere/{tournament['id']}/runde/1/tische",
    ]


def log_in(client) -> None:
    form = {"email": "orga@example.org", "password": PASSWORD}
    assert client.post("/veranstalter/anmelden", data=form).status_code == 302


@pytest.mark.parametrize(("language", "other"), [("de", ENGLISH), ("en", GERMAN)])
def test_every_page_speaks_one_language(app, client, language, other):
    leftovers = {}

    def check(address: str) -> None:
        response = client.get(f"{address}?lang={language}")
        assert response.status_code == 200, (address, response.status_code)
        html = response.get_data(as_text=True)
        assert f'<html lang="{language}">' in html, address
        words = set(other.findall(visible(html)))
        if words:
            leftovers[address] = sorted(words)

    check("/veranstalter/registrieren")  # the first sign-up, while nobody has signed up
    for address in pages(app, client):
        if address == "LOGIN":
            log_in(client)
        else:
            check(address)
    assert not leftovers, leftovers


@pytest.mark.parametrize(("language", "other"), [("de", ENGLISH), ("en", GERMAN)])
def test_answers_to_forms_and_error_pages_speak_one_language(client, language, other):
    """A refused hand (422), a page that cannot be opened with GET (405), a missing page
    (404): each in the reader's language, and the language link leads to a page that can
    be opened."""
    client.get(f"/?lang={language}")
    body = {"game": "haferltarock", "system": "parlett-units", "players": PLAYERS}
    key = client.post("/api/v1/sessions", json=body).get_json()["key"]
    refused = client.post(
        f"/t/{key}/spiel",
        data={"declarer": "Anton", "contract": "frage", "points": "999"},
        headers={"Referer": f"http://localhost/t/{key}"},
    )
    assert refused.status_code == 422
    answers = {
        "refused hand": refused,
        "405": client.get(f"/t/{key}/spiel"),
        "404": client.get("/t/not-a-table-key-00000000000"),
        "404 page": client.get("/nirgends"),
    }
    assert [r.status_code for r in answers.values()] == [422, 405, 404, 404]
    leftovers = {}
    for what, response in answers.items():
        html = response.get_data(as_text=True)
        assert f'<html lang="{language}">' in html, what
        words = set(other.findall(visible(html)))
        if words:
            leftovers[what] = sorted(words)
    assert not leftovers, leftovers
    # The language link of the refused hand's page goes back to the table, not to /spiel.
    links = re.findall(r'href="([^"]*lang=(?:de|en)[^"]*)"', refused.get_data(as_text=True))
    assert links and all(link.startswith(f"/t/{key}?") for link in links), links
    for link in links:
        assert client.get(link.replace("&amp;", "&")).status_code == 200
