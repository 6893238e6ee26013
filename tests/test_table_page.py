"""The table page as players use it: the entry bar, Undo back into the form (once, and never
past another device's hand), hand numbers, the edit preview, Bettel and Durch won or lost,
what is still open, the same hand twice, a fresh form token, a closed evening and
reopening it."""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape

from scorer.domain import commands
from scorer.store.database import db
from tests.conftest import PostedFields, dispose, make_app
from tests.support.languages import german_euros
from tests.support.pdfs import pdf_text
from tests.support.tables import (
    FRAGE,
    PLAYERS,
    PLAYERS3,
    change_players,
    form_fields,
    new_table,
    record,
    session_json,
    table_url,
)


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


def test_undo_puts_the_hand_back_into_the_form_once(client):
    url = table_url(new_table(client))
    record(client, url, contract="hand", bid="76", points="83", doublings="1")
    hand = session_json(client, url)["hands"][0]
    response = client.post(
        f"{url}/spiele/1/streichen", data={"version": hand["version"], "next": "table"}
    )
    assert response.status_code == 302
    # The address is the table's own: nothing in it brings the hand back.
    assert response.headers["Location"].endswith(url)
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
    assert "Spiel 1, zurückgenommen, steht wieder im Formular" in html  # the form says so
    # Saved again, it is hand 2, and the page said so before.
    assert "Spiel 2 · gibt:" in html
    # A reload (the app itself asks for one when a page is stale) shows an empty form.
    again = client.get(url).get_data(as_text=True)
    assert form_fields(again).get("points", "") == ""
    assert "zurückgenommen, steht wieder" not in again
    record(client, url, contract="hand", bid="76", points="83")
    assert [h["number"] for h in session_json(client, url)["hands"]] == [2]


def test_an_old_undo_address_refills_nothing(client):
    url = table_url(new_table(client))
    record(client, url)
    version = session_json(client, url)["hands"][0]["version"]
    client.post(f"{url}/spiele/1/streichen", data={"version": version})
    response = client.get(url + "?wieder=1")
    assert response.status_code == 302 and response.headers["Location"].endswith(url)
    html = client.get(url).get_data(as_text=True)
    assert form_fields(html).get("points", "") == ""
    assert client.get(url + "?wieder=x").status_code == 302
    assert client.get(url + "?wieder=x%00").status_code == 400  # control characters


def test_undo_after_another_devices_hand_strikes_nothing(client, app):
    url = table_url(new_table(client))
    record(client, url, points="70")
    first = session_json(client, url)["hands"][0]
    record(client, url, points="50")  # the other tablet's hand 2
    before = session_json(client, url)
    response = client.post(
        f"{url}/spiele/1/streichen", data={"version": first["version"], "next": "table"}
    )
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Spiel 2 ist schon eingetragen: Spiel 1 im Formular korrigieren?" in html
    assert f'href="{url}/spiele/1"' in html
    assert session_json(client, url) == before  # nothing struck, nothing settled anew
    # The page's next load refills nothing either.
    assert form_fields(client.get(url).get_data(as_text=True)).get("points", "") == ""


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
    assert "Alle Spiele (2, 1 gestrichen)" in html
    said = json.loads(html_unescape(re.search(r"data-said='([^']*)'", html).group(1)))
    assert "· 2 Spiele" in said["de"]["summary"] and "· 2 hands" in said["en"]["summary"]
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


def test_a_durch_bid_is_made_or_lost_with_one_answer(client):
    """Bid Durch, then made or lost: the Extras toggle is not asked beside it (a bid of
    Durch with 120 points and no toggle was once a lost game)."""
    url = table_url(new_table(client, system="levels", players=PLAYERS3))
    durch = {"declarer": "Anton", "contract": "hand", "durch": "y"}
    preview = client.post(url + "/vorschau", data=durch).get_data(as_text=True)
    assert "Noch offen: Durch: gemacht oder verloren" in preview
    response = client.post(url + "/spiel", data=durch)
    assert response.status_code == 422
    assert "Durch: gemacht oder verloren?" in response.get_data(as_text=True)
    assert session_json(client, url)["hands"] == []
    record(client, url, **durch, durch_result="made")  # no points typed: every trick
    record(client, url, **{**durch, "declarer": "Berta"}, durch_result="lost", points="120")
    made, lost = session_json(client, url)["hands"]
    assert made["result"] == "won" and made["hand"]["bid"] == "durch"
    assert made["hand"]["points"] == 120 and made["hand"]["all_tricks"] is True
    assert lost["result"] == "lost" and lost["hand"]["all_tricks"] is False
    html = client.get(url).get_data(as_text=True)
    assert "data-durch-only" in html and "data-not-durch" in html
    edit = form_fields(client.get(url + "/spiele/1").get_data(as_text=True))
    assert edit["durch_result"] == "made" and "bid" not in edit  # no 61 beside Durch


def test_the_preview_names_every_answer_still_open(client):
    url = table_url(new_table(client, game="tarok-bettel", system="points-kasse", players=PLAYERS3))
    frage = {"declarer": "Anton", "contract": "frage"}
    preview = client.post(url + "/vorschau", data=frage).get_data(as_text=True)
    assert "Noch offen: Trumpf, Augen" in preview
    assert "field-error" not in preview  # said quietly, before anyone typed
    counted = client.post(url + "/vorschau", data={**frage, "trump": "herz", "count_aces": "2"})
    assert "Noch offen" not in counted.get_data(as_text=True)
    html = client.get(url).get_data(as_text=True)
    assert 'data-required="trump"' in html and 'data-required="points"' in html


def test_the_same_hand_twice_offers_only_ok(client):
    url = table_url(new_table(client))
    hand = {"declarer": "Anton", "contract": "frage", "points": "70"}
    record(client, url, **hand)
    headers = {"Accept": "application/json"}
    same = client.post(url + "/spiel", data={**hand, "number": "1"}, headers=headers)
    assert same.status_code == 409
    panel = same.get_json()["conflict"]
    assert "Spiel 1 ist schon eingetragen, genau so." in panel
    assert ">OK<" in panel and panel.index(">OK<") < panel.index("data-renumber")
    assert "Es war ein anderes Spiel: als Spiel 2 eintragen" in panel  # two Bettel in a row
    other = client.post(
        url + "/spiel", data={**hand, "points": "50", "number": "1"}, headers=headers
    )
    panel = other.get_json()["conflict"]
    # "Drop mine" comes first (it takes the focus); entering it again is the second way.
    assert panel.index("Meins verwerfen") < panel.index("Meins als Spiel 2 eintragen")
    assert len(session_json(client, url)["hands"]) == 1
    # A half-entered form that moved on to hand 2 when hand 1 came in live: the very hand
    # is not stored again; another hand is hand 2.
    moved = {**hand, "number": "2", "begun": "1"}
    twice = client.post(url + "/spiel", data=moved, headers=headers)
    assert twice.status_code == 409 and "genau so" in twice.get_json()["conflict"]
    assert len(session_json(client, url)["hands"]) == 1
    another = client.post(url + "/spiel", data={**moved, "declarer": "Berta"}, headers=headers)
    assert another.status_code == 201 and another.get_json()["number"] == 2


def test_a_page_asks_for_a_fresh_token(app, client):
    url = table_url(new_table(client))
    answer = client.get(url + "/formular-token")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    assert answer.get_json()["renew_in_s"] == 1200  # a third of Flask-WTF's hour
    assert 'data-token-renew="1200"' in client.get(url).get_data(as_text=True)
    assert client.get("/t/" + "x" * 30 + "/formular-token").status_code == 404


def test_a_page_open_past_its_tokens_lifetime_saves_with_a_fresh_one(tmp_path, monkeypatch):
    """Two hours after the page was served its token is refused (400, nothing stored); the
    token the page asks for then saves the hand."""
    from itsdangerous import TimestampSigner

    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    try:
        client = app.test_client()
        created = client.post(
            "/api/v1/sessions",
            json={"game": "haferltarock", "system": "parlett-units", "players": PLAYERS3},
        )
        url = "/t/" + created.get_json()["key"]
        old = PostedFields("hand-form")
        old.feed(client.get(url).get_data(as_text=True))
        token = dict(old.values)["csrf_token"]
        hand = {"declarer": "Anton", "contract": "frage", "points": "70", "number": "1"}
        later = TimestampSigner.get_timestamp(None) + 7200  # type: ignore[arg-type]
        monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: later)
        headers = {"Accept": "application/json"}
        stale = client.post(url + "/spiel", data={**hand, "csrf_token": token}, headers=headers)
        assert stale.status_code == 400
        assert client.get(f"/api/v1/sessions/{url[3:]}").get_json()["hands"] == []
        fresh = client.get(url + "/formular-token").get_json()["csrf_token"]
        saved = client.post(url + "/spiel", data={**hand, "csrf_token": fresh}, headers=headers)
        assert saved.status_code == 201
    finally:
        dispose(app)


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
        shown = german_euros(cents, True)
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
    text = pdf_text(client.get(f"/api/v1/sessions/{key}/export.pdf").data)
    assert "Durch" in text
    assert "im Haferl sind nur noch 30 der" in text.replace("\n", " ")


def test_a_player_comes_and_one_goes(client):
    url = table_url(new_table(client, game="haferltarock", players=PLAYERS3))
    record(client, url)  # hand 1: Anton, Berta, Charlotte
    response = change_players(client, url, ["Anton", "Berta", "Charlotte", "Dieter"])
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    html = client.get(url).get_data(as_text=True)
    assert "Ab Spiel 2 spielen Anton, Berta, Charlotte, Dieter" in html
    assert "(setzt aus)" in html  # four at the table: the dealer sits out
    state = session_json(client, url)
    assert state["players"] == ["Anton", "Berta", "Charlotte", "Dieter"]
    assert sum(state["balances"].values()) == 0
    assert state["balances"]["Dieter"] == -100  # paid the stake as he sat down
    record(client, url)
    # Berta goes home.
    assert change_players(client, url, ["Anton", "Charlotte", "Dieter"]).status_code == 302
    record(client, url)
    state = session_json(client, url)
    assert state["players"] == ["Anton", "Charlotte", "Dieter"]
    assert "Berta" in state["balances"] and sum(state["balances"].values()) == 0
    hands = client.get(url + "/spiele").get_data(as_text=True)
    assert hands.count("nicht dabei") == 2  # Dieter in hand 1, Berta in hand 3
    table = client.get(url).get_data(as_text=True)
    assert 'class=" gone"' in table or "gone" in table  # Berta is listed, as gone
    # Editing hand 1 re-settles everything after it, the changes of players included.
    version = state["hands"][0]["version"]
    edit = {**FRAGE, "declarer": "Anton", "points": "95", "version": str(version)}
    assert client.post(url + "/spiele/1", data=edit).status_code == 302
    after = session_json(client, url)
    assert after["players"] == ["Anton", "Charlotte", "Dieter"]
    assert sum(after["balances"].values()) == 0
    key = url.rsplit("/", 1)[-1]
    settlement = client.get(f"/api/v1/sessions/{key}/settlement").get_json()
    assert sum(settlement["balances"].values()) == 0

    # The export carries the lineups, and an import rebuilds the same evening.
    exported = client.get(f"/api/v1/sessions/{key}/export.json").get_json()
    assert [lineup["at"] for lineup in exported["lineups"]] == [1, 2, 3]
    imported = client.post("/api/v1/sessions/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["players"] == after["players"] and copy["balances"] == after["balances"]


def test_changing_players_refuses_what_cannot_be_and_changes_nothing(client):
    url = table_url(new_table(client, game="haferltarock", players=PLAYERS3))
    record(client, url)
    before = session_json(client, url)
    too_few = change_players(client, url, ["Anton", "Berta"])
    assert too_few.status_code == 422
    assert "Haferltarock spielen 3 oder 4 Spieler" in too_few.get_data(as_text=True)
    stale = change_players(client, url, [*PLAYERS3, "Dieter"], version="1")
    assert stale.status_code == 302  # the conflict is flashed on the table page
    assert "an einem anderen Gerät geändert" in client.get(url).get_data(as_text=True)
    assert session_json(client, url) == before


def test_a_tournament_table_keeps_its_drawn_players(app, client):
    from scorer.store.models import TableSession

    with app.app_context():
        session = operations_create_points_table()
        key = session
    response = client.post(f"/t/{key}/spieler", data={"player_0": "X"})
    assert response.status_code in (302, 422)
    with app.app_context():
        stored = db.session.scalar(db.select(TableSession).where(TableSession.key == key))
        assert stored.players == ["Anna", "Bert", "Cora"]


def operations_create_points_table() -> str:

    from scorer.services import tables

    session = tables.create_session(
        commands.open_table(
            name="T",
            game="haferltarock",
            system="parlett-units",
            params={},
            players=["Anna", "Bert", "Cora"],
            first_dealer=None,
            scoring="points",
        )
    )
    db.session.commit()
    return session.key


def test_only_the_declarer_is_offered_an_announcement_at_tapp(client):
    url = table_url(new_table(client, game="tapp-tarock", system="tapp-points", players=PLAYERS3))
    html = client.get(url).get_data(as_text=True)
    declarer = re.search(r'<select[^>]*name="bonus_valat__declarer".*?</select>', html, re.S)
    defenders = re.search(r'<select[^>]*name="bonus_valat__defenders".*?</select>', html, re.S)
    assert declarer and "angesagt" in declarer.group(0)
    assert defenders and "angesagt" not in defenders.group(0)


def test_a_kasse_is_called_a_kasse(client):
    url = table_url(new_table(client, game="tarok", system="points-kasse", players=PLAYERS3))
    record(client, url, trump="eichel")
    html = client.get(url).get_data(as_text=True)
    assert '<span class="pot">Kasse <strong>' in html and "Haferl" not in html.split("<main")[1]


def test_units_lost_have_a_true_minus(client):
    players = ["Anton", "Berta"]
    url = table_url(new_table(client, game="strohmandeln", system="beck", players=players))
    lost = {"declarer": "Anton", "contract": "game", "points": "20"}
    preview = client.post(url + "/vorschau", data=lost).get_data(as_text=True)
    assert re.search(r"— −\d+ Einheit", preview) and not re.search(r"— -\d", preview)


def test_a_moved_hand_is_compared_with_the_hand_it_began_as_only(client):
    """Two hands that look the same in a row are two hands: a form begun as hand 1 that
    moved to hand 3 is refused only when it is hand 1 itself."""
    url = table_url(new_table(client, players=PLAYERS3))
    headers = {"Accept": "application/json"}
    first = {"declarer": "Berta", "contract": "frage", "points": "50"}
    again = {"declarer": "Anton", "contract": "frage", "points": "70"}
    record(client, url, **first)
    record(client, url, **again)
    moved = {**again, "number": "3", "begun": "1"}
    answer = client.post(url + "/spiel", data=moved, headers=headers)
    assert answer.status_code == 201 and answer.get_json()["number"] == 3
