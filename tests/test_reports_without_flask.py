"""The papers are made without Flask (scorer.reports.desk): a Jinja environment of their
own says them in the language `words.speaking` chose, with no app and no request."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

from flask import has_app_context, has_request_context

from scorer.i18n import words
from scorer.i18n.catalogue import say
from scorer.i18n.formats import euros
from scorer.i18n.words import speaking
from scorer.reports.chart import balance_chart_svg
from scorer.reports.desk import Desk
from scorer.reports.paper import Clock

ROOT = Path(__file__).resolve().parent.parent
BERLIN = Clock("Europe/Berlin")


def cards(desk: Desk, lang: str) -> str:
    table = SimpleNamespace(number=3, session=SimpleNamespace(players=["Anton", "<Berta>"]))
    with speaking(lang):
        return desk.render(
            "exports/tournament_cards.html",
            tournament=SimpleNamespace(name="Herbstturnier"),
            round_=SimpleNamespace(number=2),
            cards=[(table, "data:,")],
            fingerprint="0D65-6A23",
        )


def test_a_paper_is_said_in_its_language_with_no_app_and_no_request(tmp_path):
    assert not has_app_context() and not has_request_context()
    desk = Desk(ROOT / "templates", ROOT / "static", tmp_path)
    german, english = cards(desk, "de"), cards(desk, "en")
    assert '<html lang="de">' in german and "Tisch 3" in german and "Runde 2" in german
    assert '<html lang="en">' in english and "Table 3" in english and "Round 2" in english
    assert "&lt;Berta&gt;" in german  # escaped as the pages are


def test_money_dates_and_messages_follow_the_language_spoken(tmp_path):
    from scorer.domain.message import msg

    moment = datetime(2026, 12, 2, 20, 7)  # stored in UTC: 21:07 on the club's clock
    with speaking("de"):
        assert (euros(-120), BERLIN.long_date(moment), BERLIN.time(moment)) == (
            "−1,20 €",
            "2. Dezember 2026",
            "21:07",
        )
        assert say(msg("must be text")) == "muss Text sein"
    with speaking("en"):
        assert (euros(-120), BERLIN.long_date(moment)) == ("−€1.20", "2 December 2026")
        assert say(msg("must be text")) == "must be text"
    assert words.current().language == "de"  # no reader: German


def test_the_chart_writes_money_in_the_language_spoken():
    with speaking("en"):
        svg = balance_chart_svg(["Anton"], {"Anton": [0, 150]})
    assert "€1.50" in svg


def test_a_spreadsheet_from_the_api_is_german_unless_asked_otherwise(client):
    """Under /api/ the reader's words default to English, a file's to German: the pages'
    words and the papers' say the file's language alike (`words.speaking`)."""
    table = {"game": "haferltarock", "system": "parlett-units", "players": ["A", "B", "C"]}
    key = client.post("/api/v1/sessions", json=table).get_json()["key"]
    hand = {"declarer": "A", "contract": "frage", "points": 70}
    assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
    german = client.get(f"/api/v1/sessions/{key}/export.csv").get_data(as_text=True)
    english = client.get(
        f"/api/v1/sessions/{key}/export.csv", headers={"Accept-Language": "en"}
    ).get_data(as_text=True)
    assert german.splitlines()[0].startswith("\ufeffNr.;Runde;Geber")
    assert ";gewonnen;" in german.splitlines()[1]
    assert english.splitlines()[0].startswith("\ufeffNo.,Round,Dealer")
    assert ",won," in english.splitlines()[1]
