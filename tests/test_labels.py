"""Pages a screen reader can read: every input has a label (not only a placeholder), no id
appears twice, one heading per state of the settle page, hints that follow the input."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest

from tests.support.tables import new_table, table_url
from tests.support.tournaments import log_in, organiser

API = "/api/v1"


class Inputs(HTMLParser):
    """The ids of a page, its form controls, and the controls that labels name."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.controls: list[dict[str, str]] = []
        self.labelled: set[str] = set()
        self._open_labels = 0

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if a.get("id"):
            self.ids[a["id"]] += 1
        if tag == "label":
            self._open_labels += 1
            if a.get("for"):
                self.labelled.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") not in ("hidden", "submit"):
            self.controls.append({**a, "_wrapped": str(self._open_labels > 0)})

    def handle_endtag(self, tag):
        if tag == "label":
            self._open_labels -= 1


def unlabelled(html: str) -> list[dict[str, str]]:
    page = Inputs()
    page.feed(html)
    return [
        c
        for c in page.controls
        if c["_wrapped"] != "True"
        and c.get("id") not in page.labelled
        and not c.get("aria-label")
        and not c.get("aria-labelledby")
    ]


def twice(html: str) -> list[str]:
    page = Inputs()
    page.feed(html)
    return [i for i, n in page.ids.items() if n > 1]


@pytest.fixture
def pages(app, client) -> dict[str, str]:
    """The pages with forms: start, new table, a table before and after a hand, a hand's
    edit, the players, a new group, the group, the new tournament, the tournament."""
    key = table_url(new_table(client)).rsplit("/", 1)[-1]
    shown = {
        "start": client.get("/"),
        "new table": client.get("/neu"),
        "table": client.get(f"/t/{key}"),
    }
    hand = {"declarer": "Berta", "contract": "frage", "points": 70}
    assert client.post(f"{API}/sessions/{key}/hands", json=hand).status_code == 201
    shown["table after a hand"] = client.get(f"/t/{key}")
    shown["edit"] = client.get(f"/t/{key}/spiele/1")
    shown["players"] = client.get(f"/t/{key}/spieler")
    shown["new group"] = client.get("/stammtisch/neu")
    group = client.post(
        f"{API}/groups",
        json={"game": "haferltarock", "system": "parlett-units", "members": ["A", "B", "C"]},
    ).get_json()["key"]
    shown["group"] = client.get(f"/s/{group}")
    organiser(app)
    assert log_in(client).status_code == 302
    shown["new tournament"] = client.get("/turniere/neu")
    for name, response in shown.items():
        assert response.status_code == 200, name
    return {name: response.get_data(as_text=True) for name, response in shown.items()}


def test_every_input_has_a_label_and_every_id_is_unique(pages):
    for name, html in pages.items():
        assert unlabelled(html) == [], name
        assert twice(html) == [], name


def test_the_settle_page_has_one_heading_per_state_and_says_what_the_haferl_holds(client):
    shared = table_url(new_table(client)).rsplit("/", 1)[-1]  # the Haferl is shared out
    said = client.get(f"/t/{shared}/abrechnung").get_data(as_text=True)
    assert "ist gleich aufgeteilt" in said and "Im Haferl sind" not in said
    key = table_url(new_table(client, param_pot_at_end="keep")).rsplit("/", 1)[-1]
    hand = {"declarer": "Berta", "contract": "frage", "points": 70}
    assert client.post(f"{API}/sessions/{key}/hands", json=hand).status_code == 201
    running = client.get(f"/t/{key}/abrechnung").get_data(as_text=True)
    assert "Zwischenstand" in running and "Stand je Spieler" in running
    assert "Endstand" not in running
    assert "Im Haferl sind" in running and "an diesem Abend gewonnen oder verloren" in running
    assert client.post(f"{API}/sessions/{key}/close").status_code == 200
    closed = client.get(f"/t/{key}/abrechnung").get_data(as_text=True)
    assert "Endstand" in closed and "Zwischenstand" not in closed


def test_the_deals_hint_follows_the_number(app, client):
    organiser(app)
    assert log_in(client).status_code == 302
    page = client.get("/turniere/neu").get_data(as_text=True)
    assert "4: 16 Spiele an einem Vierertisch (jeder spielt 12), 12 an einem Dreiertisch." in page
    assert 'data-deals-hint="%(deals)s: %(four)s Spiele' in page  # static/js/deals-hint.js fills it
    refused = client.post(
        "/turniere/neu",
        data={"game": "haferltarock", "system": "parlett-units", "deals": "1", "rounds": "2"},
    )
    assert refused.status_code == 422
    said = refused.get_data(as_text=True)
    assert "1: 4 Spiele an einem Vierertisch (jeder spielt 3), 3 an einem Dreiertisch." in said
