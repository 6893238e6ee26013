"""The pages of a Stammtisch group: founding it, the group page, a new evening in one tap
with the last seating, the season's end, a member's page, the season chart."""

from __future__ import annotations

import re

from werkzeug.datastructures import MultiDict

from tests.conftest import PostedFields
from tests.test_groups import API, BIG, FOUR, close, create_group, evening, play

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
    from tests.test_pdf import pdf_text

    key = create_group(client, members=[*FOUR, "<b>Bär & Co</b>"])["key"]
    for players in (FOUR, ["Anton", "Berta", "<b>Bär & Co</b>"]):
        session = evening(client, key, players)
        play(client, session, [FRAGE_WON, {"contract": "frage", "points": 40}])
        close(client, session)
    lines = client.get(f"{API}/groups/{key}/standings").get_json()
    pdf = client.get(f"/s/{key}/saison.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = pdf_text(pdf.data)[1]
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
    from tests.test_pdf import pdf_text

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
        assert pdf.status_code == 200 and f"Saison {number}" in pdf_text(pdf.data)[1]
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
