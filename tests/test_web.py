"""The table pages through the test client: forms, CSRF, errors beside the fields."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from scorer import create_app
from scorer.domain import commands
from scorer.domain.commands import RecordHand
from scorer.store.database import db
from scorer.web import qr
from tests.support.tables import PLAYERS, new_table, table_url


def test_start_page_offers_a_new_table(client):
    html = client.get("/").get_data(as_text=True)
    assert "Neuer Tisch" in html
    assert "Tisch öffnen" in html


def test_new_table_lists_only_the_games_systems(client):
    html = client.get("/neu?game=tapp-tarock").get_data(as_text=True)
    assert "Tapp-Punkte" in html
    assert "Einheiten (Parlett)" not in html
    assert "Wert eines Punktes (Cent)" in html  # the parameter's help line


@pytest.mark.parametrize(
    ("path", "game", "system"),
    [
        ("/neu?game=haferltarock&system=parlett-units", None, None),
        ("/neu?game=haferltarock&system=multiples", None, None),
        ("/neu?game=tarok&system=points-kasse", None, None),
        ("/neu?game=strohmandeln&system=furr", None, None),
        ("/regeln/haferltarock", None, None),
        ("/regeln/tarok", None, None),
        ("/regeln/strohmandeln", None, None),
    ],
)
def test_settings_are_shown_in_players_words(client, path, game, system):
    """No parameter id, raw value or Python literal reaches a player: names, choices and
    values are words (the ids are the API's)."""
    from scorer.domain import GAMES, SYSTEMS

    html = client.get(path).get_data(as_text=True)
    assert client.get(path).status_code == 200
    visible = re.sub(r'(name|id|for|value|class|href|src|action)="[^"]*"', "", html)
    for game_ in GAMES.values():
        for system_id in game_.systems:
            for param in game_.all_params(SYSTEMS[system_id]):
                assert param.name not in visible, (path, param.name)
                for choice in param.choices:
                    assert f">{choice}<" not in visible, (path, choice)
    for raw in ("= True", "= False", "'split'", "'keep'", "'draw'", "'loss'", "'pocket'"):
        assert raw not in visible, (path, raw)


@pytest.mark.parametrize(
    ("game", "system", "players", "dealer", "forehand"),
    [
        # Names go in the order the deal passes; the first dealt to leads, whichever way
        # round the table plays (Tapp Tarock counter-clockwise).
        ("tapp-tarock", "tapp-points", ["A", "B", "C"], "A", "B"),
        ("tapp-tarock", "tapp-points", ["A", "B", "C"], "C", "A"),
        ("tarok", "points-kasse", ["A", "B", "C"], "B", "C"),
        ("haferltarock", "parlett-units", ["A", "B", "C", "D"], "D", "A"),
    ],
)
def test_the_forehand_is_the_next_after_the_dealer(client, game, system, players, dealer, forehand):
    response = client.post(
        "/api/v1/sessions",
        json={"game": game, "system": system, "players": players, "first_dealer": dealer},
    )
    html = client.get(f"/t/{response.get_json()['key']}").get_data(as_text=True)
    assert f"gibt: <strong>{dealer}</strong>" in html
    assert f"Vorhand: <strong>{forehand}</strong>" in html


def test_create_table_and_open_it(client):
    url = table_url(new_table(client))
    html = client.get(url).get_data(as_text=True)
    assert "Haferl <strong>4,00 €</strong>" in html
    assert "gibt: <strong>Dieter</strong> (setzt aus)" in html
    assert "Vorhand: <strong>Anton</strong>" in html
    # The dealer who sits out cannot be tapped as declarer.
    assert 'name="declarer" value="Dieter"' not in html
    assert 'name="declarer" value="Anton"' in html
    # The table page leaves what the start page lists (from localStorage: see test_e2e).
    assert 'data-remember data-url="/t/' in html and '"name": "Stammtisch' in html
    assert "/t/" not in client.get("/").get_data(as_text=True)  # no table listed by the server


def test_new_table_errors_beside_the_fields(client):
    response = new_table(client, players=["Anton", "Anton", "Berta"])
    assert response.status_code == 422
    assert "„Anton“ ist zweimal genannt" in response.get_data(as_text=True)
    response = new_table(client, players=["Anton", "Berta"])
    assert response.status_code == 422
    assert "Name fehlt" in response.get_data(as_text=True)
    response = new_table(client, param_stake_cents="-5")
    assert response.status_code == 422


def test_record_a_hand_and_see_the_explanation(client):
    url = table_url(new_table(client))
    response = client.post(
        url + "/spiel",
        data={
            "declarer": "Anton",
            "contract": "hand",
            "bid": "76",
            "points": "83",
            "points_of": "declarer",
            "doublings": "0",
        },
    )
    assert response.status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert "Spiel 1 eingetragen: <bdi>Anton</bdi> +0,80 €" in html
    assert "Rückgängig" in html
    # The dealer moved on: Anton deals hand 2 and sits out.
    assert "gibt: <strong>Anton</strong> (setzt aus)" in html


def test_defenders_points_switch(client):
    url = table_url(new_table(client))
    client.post(
        url + "/spiel",
        data={
            "declarer": "Anton",
            "contract": "frage",
            "points": "50",
            "points_of": "defenders",
            "doublings": "0",
        },
    )
    key = url.rsplit("/", 1)[1]
    hand = client.get(f"/api/v1/sessions/{key}").get_json()["hands"][0]
    assert hand["hand"]["points"] == 70


def test_the_calculator_takes_the_card_values_from_the_rules(client):
    """static/js/counter.js adds up what the page says a card is worth (cardpoints.py's)."""
    bavarian = client.get(table_url(new_table(client))).get_data(as_text=True)
    assert 'name="count_aces" data-value="11" data-label="Asse" min="0" max="4"' in bavarian
    tapp = new_table(client, game="tapp-tarock", system="tapp-points", players=["A", "B", "C"])
    threes = client.get(table_url(tapp)).get_data(as_text=True)
    assert 'name="count_honours_kings" data-value="5"' in threes and 'max="7"' in threes
    assert 'name="count_cards" data-value="0"' in threes and 'max="54"' in threes


def test_card_count_calculator_fills_the_points(client):
    url = table_url(new_table(client))
    # 4 Aces, 3 Tens, 2 Kings, 1 Ober = 44 + 30 + 8 + 3 = 85
    client.post(
        url + "/spiel",
        data={
            "declarer": "Anton",
            "contract": "frage",
            "points": "",
            "points_of": "declarer",
            "count_aces": "4",
            "count_tens": "3",
            "count_kings": "2",
            "count_obers": "1",
            "doublings": "0",
        },
    )
    key = url.rsplit("/", 1)[1]
    assert client.get(f"/api/v1/sessions/{key}").get_json()["hands"][0]["hand"]["points"] == 85


def test_bad_hand_is_refused_with_a_message_and_nothing_saved(client):
    url = table_url(new_table(client))
    response = client.post(
        url + "/spiel",
        data={
            "declarer": "Anton",
            "contract": "frage",
            "points": "130",
            "points_of": "declarer",
            "doublings": "0",
        },
    )
    assert response.status_code == 422
    assert "Augen: 0 bis 120" in response.get_data(as_text=True)
    response = client.post(
        url + "/spiel",
        data={"declarer": "Dieter", "contract": "frage", "points": "70", "doublings": "0"},
    )
    assert response.status_code == 422
    assert "Dieter gibt und setzt aus" in response.get_data(as_text=True)
    key = url.rsplit("/", 1)[1]
    assert client.get(f"/api/v1/sessions/{key}").get_json()["hand_count"] == 0


def test_preview_shows_what_the_hand_pays(client):
    url = table_url(new_table(client))
    html = client.post(
        url + "/vorschau",
        data={
            "declarer": "Anton",
            "contract": "hand",
            "bid": "76",
            "points": "83",
            "doublings": "0",
        },
    ).get_data(as_text=True)
    assert "Anton" in html and "+0,80 €" in html and "warum?" in html
    html = client.post(url + "/vorschau", data={"contract": "hand"}).get_data(as_text=True)
    assert "Noch offen" in html
    key = url.rsplit("/", 1)[1]
    assert client.get(f"/api/v1/sessions/{key}").get_json()["hand_count"] == 0


def test_edit_and_void_resettle_the_evening(client):
    url = table_url(new_table(client))
    key = url.rsplit("/", 1)[1]
    for declarer in ("Anton", "Berta", "Charlotte"):
        client.post(
            url + "/spiel",
            data={"declarer": declarer, "contract": "frage", "points": "90", "doublings": "0"},
        )
    edit_page = client.get(url + "/spiele/1")
    assert edit_page.status_code == 200
    response = client.post(
        url + "/spiele/1",
        data={
            "declarer": "Anton",
            "contract": "frage",
            "points": "40",
            "doublings": "0",
            "version": "1",
        },
    )
    assert response.status_code == 302
    hands = client.get(f"/api/v1/sessions/{key}").get_json()["hands"]
    assert hands[0]["result"] == "lost" and hands[0]["version"] == 2
    # A stale form is refused and changes nothing.
    response = client.post(
        url + "/spiele/1",
        data={
            "declarer": "Anton",
            "contract": "frage",
            "points": "90",
            "doublings": "0",
            "version": "1",
        },
    )
    assert response.status_code == 302
    assert client.get(f"/api/v1/sessions/{key}").get_json()["hands"][0]["result"] == "lost"
    # Void asks first, then voids.
    assert "Ja, streichen" in client.get(url + "/spiele/2/streichen").get_data(as_text=True)
    client.post(url + "/spiele/2/streichen", data={"version": "1"})
    numbers = [h["number"] for h in client.get(f"/api/v1/sessions/{key}").get_json()["hands"]]
    assert numbers == [1, 3]
    assert "gestrichen" in client.get(url + "/spiele").get_data(as_text=True)


def test_close_and_settle_up(client):
    url = table_url(new_table(client))
    client.post(
        url + "/spiel",
        data={
            "declarer": "Anton",
            "contract": "hand",
            "bid": "61",
            "points": "70",
            "doublings": "0",
        },
    )
    assert "Abend beenden?" in client.get(url + "/schliessen").get_data(as_text=True)
    response = client.post(url + "/schliessen")
    assert response.headers["Location"].endswith("/abrechnung")
    html = client.get(url + "/abrechnung").get_data(as_text=True)
    # Hand won 70 of bid 61: 2 + 2·⌊9/5⌋ = 4 units = 40 ct from Berta and from Charlotte;
    # the untouched pot (4,00 €) is shared out, so everyone gets their stake back.
    assert "<bdi>Berta</bdi> zahlt <bdi>Anton</bdi> <strong>0,40 €</strong>" in html
    assert "<bdi>Charlotte</bdi> zahlt <bdi>Anton</bdi> <strong>0,40 €</strong>" in html
    # No more hands after closing.
    response = client.post(
        url + "/spiel",
        data={"declarer": "Anton", "contract": "frage", "points": "70", "doublings": "0"},
    )
    assert response.status_code in (302, 409, 422)
    key = url.rsplit("/", 1)[1]
    assert client.get(f"/api/v1/sessions/{key}").get_json()["hand_count"] == 1


def test_open_table_by_code_or_link(client):
    url = table_url(new_table(client))
    key = url.rsplit("/", 1)[1]
    for code in (key, "http://tablet.local" + url, f" {key} "):
        response = client.post("/oeffnen", data={"code": code})
        assert response.status_code == 302 and response.headers["Location"].endswith(key)
    response = client.post("/oeffnen", data={"code": "x" * 30})
    assert response.status_code == 422
    assert "Kein offener Tisch mit diesem Code" in response.get_data(as_text=True)


def test_unknown_table_is_a_friendly_404(client):
    response = client.get("/t/" + "a" * 32)
    assert response.status_code == 404
    assert "Diesen Tisch gibt es nicht" in response.get_data(as_text=True)


def test_qr_code_points_at_the_table(client):
    url = table_url(new_table(client))
    svg = client.get(url + "/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.get_data(as_text=True).lstrip().startswith("<?xml")


def test_a_qr_code_is_made_once_per_address(client, monkeypatch):
    """A tournament's tables page asks for hundreds of codes, again on every reload: each
    address's code is made once, then given as it was."""
    made: list[str] = []
    make = qr.segno.make
    monkeypatch.setattr(qr.segno, "make", lambda url, **how: made.append(url) or make(url, **how))
    url = table_url(new_table(client))  # a new table: an address no code was made for
    first, again = client.get(url + "/qr.svg"), client.get(url + "/qr.svg")
    assert first.data == again.data and b"<svg" in first.data
    assert made == [f"http://localhost{url}"]
    assert again.headers["Cache-Control"] == "no-store"  # the address is the table's key


@pytest.mark.parametrize(
    ("game", "system", "players"),
    [
        ("tarok-bettel", "points-kasse", ["A", "B", "C"]),
        ("scharfer-tarock", "scharf-fixed", ["A", "B", "C"]),
        ("tapp-tarock", "tapp-points", ["A", "B", "C"]),
        ("strohmandeln", "furr", ["A", "B"]),
    ],
)
def test_every_game_has_a_working_table_page(client, game, system, players):
    url = table_url(new_table(client, game=game, system=system, players=players))
    html = client.get(url).get_data(as_text=True)
    assert "Eintragen" in html
    assert client.get(f"/regeln/{game}").status_code == 200


def test_tapp_bonus_is_entered_by_tapping(client):
    url = table_url(
        new_table(client, game="tapp-tarock", system="tapp-points", players=["A", "B", "C"])
    )
    response = client.post(
        url + "/spiel",
        data={
            "declarer": "B",
            "contract": "unterer",
            "points": "36",
            "doublings": "0",
            "bonus_pagat_ultimo__declarer": "announced",
        },
    )
    assert response.status_code == 302
    key = url.rsplit("/", 1)[1]
    # Unterer 4 + announced Pagat 8 = 12 points × 10 ct from each defender.
    assert client.get(f"/api/v1/sessions/{key}").get_json()["balances"]["B"] == 240


def test_form_post_without_csrf_token_is_refused(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite3'}",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    response = client.post(
        "/neu",
        data={
            "game": "tarok",
            "system": "points-kasse",
            "player_0": "A",
            "player_1": "B",
            "player_2": "C",
        },
    )
    assert response.status_code == 400
    response = client.post("/oeffnen", data={"code": "x" * 30})
    assert response.status_code == 400
    with app.app_context():
        from scorer.store.models import TableSession

        assert db.session.query(TableSession).count() == 0
        db.engine.dispose()


def test_the_table_page_shows_the_balance_chart(client):
    url = table_url(new_table(client))
    assert "verlauf.svg" not in client.get(url).get_data(as_text=True)  # no hand yet
    client.post(
        url + "/spiel",
        data={
            "declarer": "Anton",
            "contract": "hand",
            "bid": "76",
            "points": "83",
            "doublings": "0",
        },
    )
    assert "verlauf.svg" in client.get(url).get_data(as_text=True)
    svg = client.get(url + "/verlauf.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    root = ElementTree.fromstring(svg.data)
    text = " ".join(root.itertext())
    for name in PLAYERS:
        assert name in text


def test_the_hand_list_shows_a_hundred_hands_a_page_the_latest_first(app, client):
    from scorer.domain import Hand
    from scorer.services import tables

    with app.app_context():
        session = tables.create_session(
            commands.open_table(
                name="Lang",
                game="haferltarock",
                system="parlett-units",
                params={},
                players=["Anton", "Berta", "Charlotte"],
                first_dealer=None,
            )
        )
        for n in range(250):
            tables.record_hand(session, RecordHand(Hand("Berta", "frage", points=61 + n % 50)))
        db.session.commit()
        key = session.key

    def numbers(page: str) -> list[int]:
        html = client.get(f"/t/{key}/spiele{page}").get_data(as_text=True)
        return [int(n) for n in re.findall(r'aria-label="Spiel (\d+) ändern"', html)]

    assert numbers("") == list(range(201, 251))
    assert numbers("?seite=3") == list(range(201, 251))
    assert numbers("?seite=1") == list(range(1, 101))
    latest = client.get(f"/t/{key}/spiele").get_data(as_text=True)
    assert "Seite 3 von 3" in latest and "frühere Spiele" in latest
    assert "spätere Spiele" not in latest
    for page in ("?seite=0", "?seite=4", "?seite=zwei", "?seite=99999999999999"):
        assert client.get(f"/t/{key}/spiele{page}").status_code == 404, page


def test_bonus_states_say_what_a_side_did(client):
    url = table_url(new_table(client, game="strohmandeln", system="furr", players=["A", "B"]))
    html = client.get(url).get_data(as_text=True)
    uhu = html[html.index('name="bonus_uhu__declarer"') :]
    assert "verloren" in uhu[: uhu.index("</select>")]  # a bird lost in its trick
    trull = html[html.index('name="bonus_trull__declarer"') :]
    assert "nicht gemacht" in trull[: trull.index("</select>")]
    rostopschin = html[html.index('name="bonus_rostopschin__defenders"') :]
    assert "angesagt, verloren" in rostopschin[: rostopschin.index("</select>")]
    assert "gegen den Uhrzeigersinn" in client.get("/neu?game=tapp-tarock").get_data(as_text=True)


@pytest.mark.parametrize(
    ("game", "system", "params", "asked"),
    [
        ("haferltarock", "parlett-units", {}, False),  # a trump changes nothing there
        ("haferltarock", "parlett-units", {"param_frage_hearts_only": "y"}, True),
        ("tarok", "points-kasse", {}, True),  # required
        ("tarok-bettel", "multiples", {}, True),  # a Herzsolo counts more
    ],
)
def test_the_trump_is_asked_only_where_it_matters(client, game, system, params, asked):
    players = PLAYERS[:3]
    url = table_url(new_table(client, game=game, system=system, players=players, **params))
    html = client.get(url).get_data(as_text=True)
    assert ('aria-label="Trumpf"' in html) is asked


def test_a_trump_given_through_the_api_survives_an_edit_where_it_is_not_asked(client):
    key = client.post(
        "/api/v1/sessions",
        json={"game": "haferltarock", "system": "parlett-units", "players": PLAYERS[:3]},
    ).get_json()["key"]
    hand = {"declarer": "Anton", "contract": "frage", "trump": "gras", "points": 70}
    assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
    html = client.get(f"/t/{key}/spiele/1").get_data(as_text=True)
    assert '<input type="hidden" name="trump" value="gras">' in html


def test_a_stale_page_with_another_games_system_is_refused_never_replaced(app, client):
    """The new-table form posts its game and system (hidden): a system that is not the
    game's (a page left open while the game was changed elsewhere, or a hand-made post) is
    said so in the reader's words, and no table is made."""
    from sqlalchemy import func, select

    from scorer.store.models import TableSession

    response = new_table(client, system="tapp-points")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "„Tapp-Punkte“ ist kein Zahlungssystem von Haferltarock" in html
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(TableSession)) == 0
        db.session.remove()
    assert new_table(client, system="levels").status_code == 302


@pytest.mark.parametrize(
    "game, system, shown",
    [
        ("tarok", "points-kasse", False),
        ("tarok-bettel", "points-kasse", True),
        ("tarok", "fixed-direct", False),
        ("tarok-bettel", "fixed-direct", True),
    ],
)
def test_a_bettel_amount_is_offered_only_where_there_is_a_bettel(client, game, system, shown):
    """Rows that do not apply are not shown: Tarock (einfach) has no Bettel, so neither
    the new-table form nor the rules page asks for or shows a Bettel's value."""
    form = client.get(f"/neu?game={game}&system={system}").get_data(as_text=True)
    rules = client.get(f"/regeln/{game}").get_data(as_text=True)
    assert ("param_bettel" in form) is shown
    assert ("Wert eines Bettels" in rules) is shown  # points-kasse's Bettel amount
    assert ("ein Bettel wert" in rules) is shown  # fixed-direct's Bettel factor
    table = table_url(new_table(client, game=game, system=system))
    assert client.get(table).status_code == 200


def test_a_durch_that_pays_nothing_says_so(client):
    """Units (Parlett) pay a Durch by its card points alone: the explanation says so."""
    key = client.post(
        "/api/v1/sessions",
        json={"game": "haferltarock", "system": "parlett-units", "players": ["A", "B", "C"]},
    ).get_json()["key"]
    durch = {"declarer": "A", "contract": "frage", "points": 120, "all_tricks": True}
    stored = client.post(
        f"/api/v1/sessions/{key}/hands", json=durch, headers={"Accept-Language": "de"}
    ).get_json()
    texts = [line["text"] for line in stored["explanation"]]
    assert "ein Durch zählt bei Einheiten (Parlett) nichts extra" in texts
    won_durch = stored["net"]["A"]
    plain = {"declarer": "B", "contract": "frage", "points": 120}
    stored = client.post(f"/api/v1/sessions/{key}/hands", json=plain).get_json()
    assert not any("Durch" in line["text"] for line in stored["explanation"])
    assert stored["net"]["B"] == won_durch  # the same 120 points, the same money


@pytest.mark.parametrize("field", ["param_stake_cents", "param_unit_cents"])
def test_a_number_of_hundreds_of_digits_is_refused_not_a_500(client, field):
    """WTForms' range check turned it into a float (OverflowError): now refused as read."""
    response = new_table(client, **{field: "9" * 400})
    assert response.status_code == 422
    assert "höchstens 12 Ziffern" in response.get_data(as_text=True)
