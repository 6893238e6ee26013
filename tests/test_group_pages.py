"""The pages of a Stammtisch group: founding it, the group page, a new evening in one tap
with the last seating, the season's end, a member's page, the season chart."""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from tests.conftest import PostedFields
from tests.support.groups import API, BIG, FOUR, close, create_group, evening, play
from tests.support.pdfs import pdf_text

FRAGE_WON = {"contract": "frage", "points": 70}


def fields(html: str, action: str) -> list[tuple[str, str]]:
    """What the browser posts from the form whose action ends with `action`."""
    marked = re.sub(
        rf'(<form method="post" action="[^"]*{re.escape(action)}")', r'\1 id="the-form"', html
    )
    parser = PostedFields("the-form")
    parser.feed(marked)
    return parser.values


def test_found_a_group_on_its_page(client):
    page = client.get("/stammtisch/neu")
    assert page.status_code == 200
    posted = dict(fields(page.get_data(as_text=True), "/stammtisch/neu"))
    posted.update({"name": "Freitag", "members": "Anton\nBerta\n\nCharlotte\n"})
    response = client.post("/stammtisch/neu", data=posted)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    key = response.headers["Location"].rsplit("/", 1)[-1]
    data = client.get(f"{API}/groups/{key}").get_json()
    assert data["members"] == ["Anton", "Berta", "Charlotte"] and data["name"] == "Freitag"
    bad = client.post("/stammtisch/neu", data={**posted, "members": "Anton\nanton"})
    assert bad.status_code == 422 and "sehen gleich aus" in bad.get_data(as_text=True)


def test_a_system_of_another_game_is_refused_never_replaced(client):
    """The group form lists every game's systems: one that does not fit the game is said
    so beside the field, in the reader's words, and no group is made."""
    posted = dict(fields(client.get("/stammtisch/neu").get_data(as_text=True), "/stammtisch/neu"))
    posted.update({"members": "Anton\nBerta\nCharlotte", "game": "haferltarock"})
    for system in ("tapp-points", "", "schach"):
        refused = client.post("/stammtisch/neu", data={**posted, "system": system})
        assert refused.status_code == 422
        html = refused.get_data(as_text=True)
        assert "ist kein Zahlungssystem von Haferltarock" in html, html[:3000]
        assert "Einheiten (Parlett), Stufen (mit Reizen)" in html
    english = client.post(
        "/stammtisch/neu",
        data={**posted, "system": "tapp-points"},
        headers={"Accept-Language": "en"},
    )
    said = "“Tapp points” is not a payment system of Haferltarock. Choose one of: Units (Parlett)"
    assert said in english.get_data(as_text=True)
    made = client.post("/stammtisch/neu", data={**posted, "system": "levels"})
    assert made.status_code == 302
    key = made.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"{API}/groups/{key}").get_json()["system"] == "levels"


def test_next_friday_is_one_tap(client):
    key = create_group(client, members=[*FOUR, "Emil"])["key"]
    first = evening(client, key, ["Berta", "Anton", "Charlotte"])
    play(client, first, [FRAGE_WON])
    close(client, first)
    html = client.get(f"/s/{key}").get_data(as_text=True)
    assert "Saison 1" in html and "Haferl" in html
    posted = fields(html, "/abend")
    # The last seating, in its order, is already ticked: one tap starts the evening.
    assert [v for n, v in posted if n == "player"] == ["Berta", "Anton", "Charlotte"]
    carried = client.get(f"{API}/groups/{key}").get_json()["pot_cents"]
    assert carried > 0
    response = client.post(f"/s/{key}/abend", data=MultiDict(posted))
    assert response.status_code == 302
    table_key = response.headers["Location"].rsplit("/", 1)[-1]
    session = client.get(f"{API}/sessions/{table_key}").get_json()
    assert session["players"] == ["Berta", "Anton", "Charlotte"]
    assert session["balances"]["pot"] == carried  # the Haferl carried in, no stake
    # The group page lists both evenings, the season table, and links each member.
    html = client.get(f"/s/{key}").get_data(as_text=True)
    assert html.count("Saison 1 ·") >= 2
    assert f'href="/s/{key}/spieler/Anton"' in html
    player = client.get(f"/s/{key}/spieler/Anton")
    assert player.status_code == 200 and "Spiele gespielt" in player.get_data(as_text=True)
    assert client.get(f"/s/{key}/spieler/Zoe").status_code == 404
    chart = client.get(f"/s/{key}/saison.svg")
    assert chart.status_code == 200 and b"Abend" in chart.data
    mine = client.get(f"/s/{key}/spieler/Anton/verlauf.svg")
    assert mine.status_code == 200 and b"Anton" in mine.data
    assert client.get(f"/s/{key}/spieler/Zoe/verlauf.svg").status_code == 404
    qr = client.get(f"/s/{key}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"


def test_the_season_ends_on_the_page(client):
    key = create_group(client)["key"]
    session = evening(client, key, FOUR)
    play(client, session, [FRAGE_WON])
    html = client.get(f"/s/{key}").get_data(as_text=True)
    posted = MultiDict(fields(html, "/saison"))
    blocked = client.post(f"/s/{key}/saison", data=posted, follow_redirects=True)
    assert "noch offen" in blocked.get_data(as_text=True)  # an open evening blocks it
    close(client, session)
    asked = client.post(f"/s/{key}/saison", data=posted)
    assert asked.status_code == 200 and "Saison 1 beenden?" in asked.get_data(as_text=True)
    assert client.get(f"{API}/groups/{key}").get_json()["season"] == 1  # nothing yet
    posted["bestaetigt"] = "ja"
    done = client.post(f"/s/{key}/saison", data=posted, follow_redirects=True)
    assert "Saison beendet; das Haferl ist verteilt" in done.get_data(as_text=True)
    assert client.get(f"{API}/groups/{key}").get_json()["season"] == 2
    assert client.get("/s/not-a-group-key-000000000000").status_code == 404


def test_the_season_report_as_pdf_and_csv(client):
    key = create_group(client, members=[*FOUR, "<b>Bär & Co</b>"])["key"]
    for players in (FOUR, ["Anton", "Berta", "<b>Bär & Co</b>"]):
        session = evening(client, key, players)
        play(client, session, [FRAGE_WON, {"contract": "frage", "points": 40}])
        close(client, session)
    lines = client.get(f"{API}/groups/{key}/standings").get_json()
    pdf = client.get(f"/s/{key}/saison.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = pdf_text(pdf.data)
    assert "Saison 1" in text and "<b>Bär & Co</b>" in text and "Das Haferl" in text
    for line in lines:
        assert line["player"] in text
    csv = client.get(f"/s/{key}/saison.csv")
    assert csv.status_code == 200 and csv.mimetype == "text/csv"
    rows = csv.data.decode("utf-8-sig").splitlines()
    assert rows[0] == "Saison;Datum;Abend;Name;Cent;Euro"
    totals: dict[str, int] = {}
    for row in rows[1:]:
        _, _, _, player, cents, euros = row.split(";")
        totals[player] = totals.get(player, 0) + int(cents)
        assert "," in euros
    assert totals == {line["player"]: line["net_cents"] for line in lines}


def test_every_closed_season_stays_readable(client):
    """Two seasons closed, the third running: the group page, a member's page, the chart,
    the PDF and the CSV of each season by `?season=N`, with a switcher; the Haferl's
    history across seasons; the confirmation shows the final table and offers the PDF."""

    key = create_group(client)["key"]
    nets = []
    for players, hands in ((FOUR, [FRAGE_WON, FRAGE_WON]), (["Anton", "Berta", "Emil"], [BIG])):
        session = evening(client, key, players)
        play(client, session, hands)
        close(client, session)
        html = client.get(f"/s/{key}").get_data(as_text=True)
        confirm = client.post(f"/s/{key}/saison", data=MultiDict(fields(html, "/saison")))
        said = confirm.get_data(as_text=True)
        assert "Abschlusstabelle der Saison" in said and "/saison.pdf" in said
        nets.append(client.get(f"{API}/groups/{key}/standings").get_json())
        assert client.post(f"{API}/groups/{key}/season/close").status_code == 200
    group = client.get(f"{API}/groups/{key}").get_json()
    assert group["season"] == 3 and len(group["closed_seasons"]) == 2

    page = client.get(f"/s/{key}").get_data(as_text=True)
    assert "Saison 3 · läuft" in page and f"/s/{key}?season=1" in page
    assert "Noch kein Abend dieser Saison abgeschlossen." in page
    assert f'action="/s/{key}/saison"' in page
    for number, lines in enumerate(nets, 1):
        shown = client.get(f"/s/{key}?season={number}")
        assert shown.status_code == 200
        html = shown.get_data(as_text=True)
        assert f"Saison {number} · beendet" in html and 'aria-current="page"' in html
        assert "Am Ende hielt das Haferl" in html
        assert f'action="/s/{key}/saison"' not in html  # the running season is ended there
        for line in lines:
            assert f"/s/{key}/spieler/{line['player']}?season={number}" in html
        assert f"/s/{key}/saison.pdf?season={number}" in html
        pdf = client.get(f"/s/{key}/saison.pdf?season={number}")
        assert pdf.status_code == 200 and f"Saison {number}" in pdf_text(pdf.data)
        rows = client.get(f"/s/{key}/saison.csv?season={number}").data.decode("utf-8-sig")
        totals: dict[str, int] = {}
        for row in rows.splitlines()[1:]:
            season, _, _, player, cents, _ = row.split(";")
            assert season == str(number)
            totals[player] = totals.get(player, 0) + int(cents)
        assert {p: c for p, c in totals.items() if c} == {
            line["player"]: line["net_cents"] for line in lines if line["net_cents"]
        }
        chart = client.get(f"/s/{key}/saison.svg?season={number}")
        assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
        member = client.get(f"/s/{key}/spieler/Anton?season={number}").get_data(as_text=True)
        assert (
            f"Saison {number}" in member and f"spieler/Anton/verlauf.svg?season={number}" in member
        )
    for wrong in ("0", "4", "eins", "-1"):
        assert client.get(f"/s/{key}?season={wrong}").status_code == 404
        assert client.get(f"/s/{key}/saison.pdf?season={wrong}").status_code == 404


def test_a_newcomer_joins_from_the_group_page(client):
    key = create_group(client)["key"]
    html = client.get(f"/s/{key}").get_data(as_text=True)
    posted = MultiDict([(n, v) for n, v in fields(html, "/abend") if n != "player"])
    for name in ("Anton", "Berta"):
        posted.add("player", name)
    posted["new_players"] = "Gustl"
    response = client.post(f"/s/{key}/abend", data=posted)
    assert response.status_code == 302
    table_key = response.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"{API}/sessions/{table_key}").get_json()["players"] == [
        "Anton",
        "Berta",
        "Gustl",
    ]
    assert "Gustl" in client.get(f"{API}/groups/{key}").get_json()["members"]
    too_few = client.post(
        f"/s/{key}/abend", data=MultiDict([("player", "Anton")]), follow_redirects=True
    )
    assert "Haferltarock spielen 3 oder 4 Spieler" in too_few.get_data(as_text=True)


def test_a_settle_up_paid_twice_says_nothing_is_left(client):
    key = create_group(client, settle="collected")["key"]
    session = evening(client, key, FOUR)
    play(client, session, [FRAGE_WON])
    close(client, session)
    # Two tablets show the page with its "paid" button; both tap it.
    posted = MultiDict(fields(client.get(f"/s/{key}").get_data(as_text=True), "/bezahlt"))
    first = client.post(f"/s/{key}/bezahlt", data=posted, follow_redirects=True)
    assert "1 Abend als bezahlt vermerkt." in first.get_data(as_text=True)
    second = client.post(f"/s/{key}/bezahlt", data=posted, follow_redirects=True)
    html = second.get_data(as_text=True)
    assert "Nichts mehr zu bezahlen: jeder abgeschlossene Abend ist bezahlt." in html
    assert "0 Abende als bezahlt" not in html


def test_a_group_plays_its_own_rules_and_changes_them_between_evenings(client):
    """The group form asks the chosen game's systems only, with every parameter and its
    help; the rules page changes them for the next evenings, an evening keeps its own."""
    page = client.get("/stammtisch/neu?game=tarok&system=points-kasse").get_data(as_text=True)
    choose = page.split('id="system"')[1].split("</select>")[0]
    assert "Kasse" in choose and "Tapp" not in choose and "Parlett" not in choose
    assert "param_stake_cents" in page and "param_bettel_cents" not in page  # no Bettel here
    posted = dict(fields(page, "/stammtisch/neu"))
    posted.update(
        {"name": "Donnerstag", "members": "Anton\nBerta\nClara", "param_stake_cents": "70"}
    )
    made = client.post("/stammtisch/neu", data=posted)
    assert made.status_code == 302, made.get_data(as_text=True)[:3000]
    key = made.headers["Location"].rsplit("/", 1)[-1]
    group = client.get(f"{API}/groups/{key}").get_json()
    assert (group["game"], group["system"]) == ("tarok", "points-kasse")
    assert group["params"]["stake_cents"] == 70

    first = evening(client, key, ["Anton", "Berta", "Clara"])
    rules = client.get(f"/s/{key}/regeln").get_data(as_text=True)
    assert 'value="70"' in rules  # the group's own amount, not the system's default
    assert "param_pot_at_end" not in rules  # a carried Haferl stays: nothing to choose
    changed = dict(fields(rules, "/regeln"))
    changed["param_stake_cents"] = "120"
    saved = client.post(f"/s/{key}/regeln", data=changed, follow_redirects=True)
    assert "Regeln gespeichert: sie gelten ab Abend 2." in saved.get_data(as_text=True)
    assert "gilt ab Abend 2" in client.get(f"/s/{key}").get_data(as_text=True)
    assert client.get(f"{API}/sessions/{first['key']}").get_json()["params"]["stake_cents"] == 70
    close(client, first)
    second = evening(client, key, ["Anton", "Berta", "Clara"])
    assert second["params"]["stake_cents"] == 120
    history = client.get(f"{API}/groups/{key}/archive.json").get_json()["history"]
    assert [line["from_evening"] for line in history if line["action"] == "rules"] == [2]

    # The API does the same; a system of another game is refused, nothing changes.
    api = client.put(f"{API}/groups/{key}/rules", json={"params": {"stake_cents": 90}})
    assert api.status_code == 200 and api.get_json()["from_evening"] == 3
    wrong = client.put(f"{API}/groups/{key}/rules", json={"system": "parlett-units"})
    assert wrong.status_code == 422
    assert client.get(f"{API}/groups/{key}").get_json()["params"]["stake_cents"] == 90


def test_a_member_is_renamed_and_stops_coming_on_the_page(client):
    key = create_group(client)["key"]
    session = evening(client, key, FOUR)
    play(client, session, [FRAGE_WON])
    close(client, session)
    member = client.get(f"/s/{key}/spieler/Dieter").get_data(as_text=True)
    renamed = client.post(
        f"/s/{key}/spieler/Dieter/name",
        data=dict(fields(member, "/spieler/Dieter/name"), name="Didi"),
        follow_redirects=True,
    )
    assert "Dieter heißt jetzt Didi." in renamed.get_data(as_text=True)
    group = client.get(f"{API}/groups/{key}").get_json()
    assert "Didi" in group["members"] and "Dieter" not in group["members"]
    assert "Didi" in client.get(f"{API}/sessions/{session['key']}").get_json()["players"]

    member = client.get(f"/s/{key}/spieler/Didi").get_data(as_text=True)
    away = client.post(f"/s/{key}/spieler/Didi/kommt", data=dict(fields(member, "/kommt")))
    assert away.status_code == 302
    page = client.get(f"/s/{key}").get_data(as_text=True)
    assert 'name="player" value="Didi"' not in page  # not offered for a new evening
    assert "Didi</bdi></a> (kommt nicht mehr)" in page  # kept in the group
    assert client.get(f"{API}/groups/{key}").get_json()["not_coming"] == ["Didi"]
    assert any(
        line["player"] == "Didi" for line in client.get(f"{API}/groups/{key}/standings").get_json()
    )
    # Named for an evening, Didi plays again.
    evening(client, key, ["Anton", "Berta", "Didi"])
    assert client.get(f"{API}/groups/{key}").get_json()["not_coming"] == []
    taken = client.post(
        f"/s/{key}/spieler/Didi/name", data={"name": "anton"}, follow_redirects=True
    )
    assert "Didi" in client.get(f"{API}/groups/{key}").get_json()["members"]
    assert "anton" in taken.get_data(as_text=True).lower()


@pytest.mark.parametrize(
    "field, value",
    [
        ("param_stake_cents", "-5"),
        ("param_stake_cents", "1e99"),
        ("param_stake_cents", "9" * 400),
        ("param_tie", "nach Hause"),
        ("system", "tapp-points"),
        ("system", "x" * 5000),
        ("param_refill", "\x00"),
    ],
)
def test_the_rules_page_refuses_bad_input_and_changes_nothing(client, field, value):
    key = create_group(client)["key"]
    before = client.get(f"{API}/groups/{key}").get_json()
    posted = dict(fields(client.get(f"/s/{key}/regeln").get_data(as_text=True), "/regeln"))
    refused = client.post(f"/s/{key}/regeln", data={**posted, field: value})
    assert 400 <= refused.status_code < 500, (field, refused.status_code)
    assert client.get(f"{API}/groups/{key}").get_json() == before


@pytest.mark.parametrize("name", ["", " ", "x" * 41, "Anton\x00", "anton", "Berta", "pot"])
def test_a_bad_new_name_is_refused_and_changes_nothing(client, name):
    key = create_group(client)["key"]
    before = client.get(f"{API}/groups/{key}").get_json()
    answer = client.post(f"/s/{key}/spieler/Dieter/name", data={"name": name})
    assert answer.status_code in (302, 400), answer.status_code  # back to the page, said why
    assert client.get(f"{API}/groups/{key}").get_json() == before
    assert client.post(f"/s/{key}/spieler/Niemand/name", data={"name": "X"}).status_code == 404
    assert client.post(f"/s/{key}/spieler/Niemand/kommt", data={"kommt": "nein"}).status_code in (
        400,
        404,
    )
