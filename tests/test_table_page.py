"""The table page as players use it: the entry bar, Undo back into the form, hand numbers,
the edit preview, Bettel won or lost, a closed evening and reopening it."""

from __future__ import annotations

import re

from scorer.domain.money import format_euros
from tests.conftest import PostedFields
from tests.test_web import PLAYERS, new_table, table_url

FRAGE = {"contract": "frage", "points": "70", "points_of": "declarer"}


def record(client, url: str, **fields) -> None:
    """A hand entered on the page; by default a Frage 70 of the first player who plays."""
    if "declarer" not in fields:
        page = client.get(url).get_data(as_text=True)
        fields["declarer"] = re.search(r'name="declarer" value="([^"]+)"', page).group(1)
    response = client.post(url + "/spiel", data={**FRAGE, **fields})
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]


def session_json(client, url: str) -> dict:
    key = url.rstrip("/").rsplit("/", 1)[-1]
    return client.get(f"/api/v1/sessions/{key}").get_json()


def form_fields(html: str) -> dict[str, str]:
    parser = PostedFields("hand-form")
    parser.feed(html)
    return dict(parser.values)


def bar(html: str) -> str:
    """The entry bar: what is shown at the bottom of the screen."""
    match = re.search(r'<div class="entry-bar".*?</button>\s*</div>', html, re.S)
    assert match, "the page has no entry bar"
    return match.group(0)


def test_the_save_button_and_the_confirmation_live_in_the_entry_bar(client):
    url = table_url(new_table(client))
    html = client.get(url).get_data(as_text=True)
    assert 'form="hand-form">Eintragen</button>' in bar(html)
    record(client, url)
    html = client.get(url).get_data(as_text=True)
    shown = bar(html)
    assert "Spiel 1 eingetragen: <bdi>Anton</bdi> +0,20 €" in shown
    assert "Rückgängig" in shown and "data-keep" in shown
    # not a second time in the page's flow, where it would push the form down
    assert html.count("Spiel 1 eingetragen") == 1
    assert "data-autohide" not in html


def test_undo_puts_the_hand_back_into_the_form(client):
    url = table_url(new_table(client))
    record(client, url, contract="hand", bid="76", points="83", doublings="1")
    hand = session_json(client, url)["hands"][0]
    response = client.post(
        f"{url}/spiele/1/streichen", data={"version": hand["version"], "next": "table"}
    )
    assert response.status_code == 302
    assert response.headers["Location"].endswith("?wieder=1")
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    fields = form_fields(html)
    assert fields["declarer"] == "Anton"
    assert fields["contract"] == "hand"
    assert fields["bid"] == "76"
    assert fields["points"] == "83"
    assert fields["doublings"] == "1"
    message = bar(html)
    assert "Spiel 1 zurückgenommen" in message and "steht wieder im Formular" in message
    assert "neu abgerechnet" not in message  # nothing came after it
    # Saved again, it is hand 2, and the page said so before.
    assert "Spiel 2 · gibt:" in html
    record(client, url, contract="hand", bid="76", points="83")
    assert [h["number"] for h in session_json(client, url)["hands"]] == [2]


def test_only_a_hand_struck_out_goes_back_into_the_form(client):
    url = table_url(new_table(client))
    record(client, url)
    html = client.get(url + "?wieder=1").get_data(as_text=True)
    assert "points" not in form_fields(html) or form_fields(html)["points"] == ""
    assert client.get(url + "?wieder=99").status_code == 200
    assert client.get(url + "?wieder=x").status_code == 200
    assert client.get(url + "?wieder=x%00").status_code == 400  # control characters


def test_a_void_names_the_hands_settled_anew(client):
    url = table_url(new_table(client))
    for _ in range(3):
        record(client, url)
    version = session_json(client, url)["hands"][0]["version"]
    client.post(f"{url}/spiele/1/streichen", data={"version": version})
    html = client.get(url + "/spiele").get_data(as_text=True)
    assert "Spiel 1 gestrichen; die 2 Spiele danach sind neu abgerechnet." in html
    version = session_json(client, url)["hands"][-1]["version"]
    client.post(f"{url}/spiele/3/streichen", data={"version": version})
    html = client.get(url + "/spiele").get_data(as_text=True)
    assert "Spiel 3 gestrichen." in html


def test_hand_numbers_agree_after_a_void(client):
    url = table_url(new_table(client))
    for _ in range(3):
        record(client, url)
    version = session_json(client, url)["hands"][1]["version"]
    client.post(f"{url}/spiele/2/streichen", data={"version": version})
    html = client.get(url).get_data(as_text=True)
    assert "Spiel 4 · gibt:" in html  # the number the next hand is saved under
    assert "Alle Spiele (2)" in html
    assert "· 2 Spiele" in re.search(r'data-summary="([^"]*)"', html).group(1)
    record(client, url)
    assert session_json(client, url)["hands"][-1]["number"] == 4


def test_the_edit_page_previews_the_changed_hand(client):
    url = table_url(new_table(client))
    record(client, url)  # Frage 70: +0,20
    record(client, url, declarer="Berta")
    html = client.get(url + "/spiele/1").get_data(as_text=True)
    assert 'data-preview="/t/' in html and "/spiele/1/vorschau" in html
    assert 'form="hand-form">Speichern</button>' in bar(html)
    fields = form_fields(html)
    preview = client.post(url + "/spiele/1/vorschau", data={**fields, "points": "95"})
    assert preview.status_code == 200
    text = preview.get_data(as_text=True)
    assert '<bdi>Anton</bdi> <span class="money pos">+0,70 €' in text  # Frage 95: 7 units
    # Nothing was saved.
    assert session_json(client, url)["hands"][0]["hand"]["points"] == 70
    wrong = client.post(url + "/spiele/1/vorschau", data={**fields, "points": "200"})
    assert wrong.status_code == 200 and "field-error" in wrong.get_data(as_text=True)
    assert client.post(url + "/spiele/9/vorschau", data=fields).status_code == 404


def test_bettel_is_won_or_lost_explicitly(client):
    url = table_url(new_table(client, game="tarok-bettel", system="points-kasse", players=PLAYERS3))
    bettel = {"declarer": "Anton", "contract": "bettel"}
    preview = client.post(url + "/vorschau", data=bettel).get_data(as_text=True)
    assert "Noch offen: gewonnen oder verloren" in preview
    response = client.post(url + "/spiel", data=bettel)
    assert response.status_code == 422
    assert "Bettel: gewonnen oder verloren?" in response.get_data(as_text=True)
    assert session_json(client, url)["hands"] == []
    record(client, url, **bettel, bettel="won")
    record(client, url, **{**bettel, "declarer": "Berta"}, bettel="lost")
    hands = session_json(client, url)["hands"]
    assert [h["result"] for h in hands] == ["won", "lost"]
    assert hands[0]["hand"]["no_tricks"] is True and hands[1]["hand"]["no_tricks"] is False
    html = client.get(url).get_data(as_text=True)
    assert 'data-show-for="bettel"' in html and "gewonnen: keinen Stich" in html


PLAYERS3 = ["Anton", "Berta", "Charlotte"]


def test_a_closed_evening_shows_the_settle_up_and_can_be_reopened(client):
    url = table_url(new_table(client))
    record(client, url)
    open_html = client.get(url).get_data(as_text=True)
    assert "gibt:" in open_html
    assert client.post(url + "/schliessen").status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert "Abend beendet" in html
    assert "gibt:" not in html and "Spiel 2" not in html
    assert 'class="entry-bar"' not in html
    settled = session_json(client, url)
    # The balances shown are those of the settle-up: the Haferl is shared out.
    key = url.rsplit("/", 1)[-1]
    final = client.get(f"/api/v1/sessions/{key}/settlement").get_json()["balances"]
    for name in PLAYERS:
        cents = final[name]
        shown = format_euros(cents, True)
        assert re.search(
            rf"<bdi>{name}</bdi></span>\s*<span class=\"money[^\"]*\">{re.escape(shown)}", html
        ), name
    assert settled["closed"] is True
    assert "Wieder öffnen" in html
    assert client.post(url + "/oeffnen").status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert "Der Abend ist wieder offen." in html
    assert "Spiel 2 · gibt:" in html
    record(client, url, declarer="Berta")
    assert len(session_json(client, url)["hands"]) == 2
    # Reopening an open evening changes nothing and says why.
    response = client.post(url + "/oeffnen", follow_redirects=True)
    assert "Der Abend ist noch offen" in response.get_data(as_text=True)


def test_durch_and_a_short_pot_are_shown_in_the_list_and_on_the_sheet(client):
    """A Durch and a pot that could not pay all it owed are visible without "warum?"."""
    from tests.test_pdf import pdf_text

    created = client.post(
        "/api/v1/sessions",
        json={
            "game": "haferltarock",
            "system": "parlett-units",
            "players": PLAYERS3,
            "params": {"stake_cents": 10},
        },
    ).get_json()
    key = created["key"]
    hand = {"declarer": "Anton", "contract": "frage", "points": 120, "all_tricks": True}
    stored = client.post(f"/api/v1/sessions/{key}/hands", json=hand).get_json()
    assert stored["round_end"] is True
    html = client.get(f"/t/{key}/spiele").get_data(as_text=True)
    assert '<span class="badge">Durch</span>' in html
    assert "Haferl reichte nicht" in html and "im Haferl sind nur noch 30 der" in html
    text = pdf_text(client.get(f"/api/v1/sessions/{key}/export.pdf").data)[1]
    assert "Durch" in text
    assert "im Haferl sind nur noch 30 der" in text.replace("\n", " ")
