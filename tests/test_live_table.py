"""The live table through the test client: the page says which hand it enters, a stale page
(JavaScript or not) stores nothing and says why, the script's JSON answers, and the ETags
that let watching devices ask cheaply whether anything changed."""

from __future__ import annotations

import gzip
import json
import re
import time

from scorer.api import tournaments as tournament_api
from scorer.i18n import words
from scorer.live import RecentPages, recent_page
from scorer.store.database import db
from scorer.tournaments import routes
from tests.support.clocks import Clock
from tests.support.groups import FOUR, create_group, evening, play
from tests.support.languages import a_reader
from tests.support.tables import FRAGE, api_hand, form_fields, new_table, session_json, table_url
from tests.support.tournaments import API, active_players, created, draw, organiser, session_of

JSON = {"Accept": "application/json"}


def page_form(client, url: str) -> dict[str, str]:
    return form_fields(client.get(url).get_data(as_text=True))


def test_the_page_says_which_hand_it_enters(client):
    url = table_url(new_table(client))
    assert page_form(client, url)["number"] == "1"
    api_hand(client, url, "Anton")
    assert page_form(client, url)["number"] == "2"


def test_a_stale_page_without_javascript_stores_nothing_and_says_why(client):
    url = table_url(new_table(client))
    stale = page_form(client, url)  # shows hand 1
    api_hand(client, url, "Berta", 66)  # another device enters hand 1 first
    before = session_json(client, url)
    response = client.post(url + "/spiel", data={**stale, **FRAGE, "declarer": "Charlotte"})
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Spiel 1 wurde schon auf einem anderen Gerät eingetragen: Berta, Frage, 66 Augen" in html
    assert "Deins: Charlotte, Frage, 70 Augen" in html
    assert 'name="renumber" value="2"' in html and "Meins als Spiel 2 eintragen" in html
    assert "Meins verwerfen" in html
    kept = form_fields(html)
    assert kept["declarer"] == "Charlotte" and kept["points"] == "70" and kept["number"] == "1"
    after = session_json(client, url)
    assert after["hand_count"] == 1 and after["balances"] == before["balances"]
    # "Enter mine as hand 2": the same entry, now as the next hand.
    response = client.post(url + "/spiel", data={**kept, "renumber": "2"})
    assert response.status_code == 302
    hands = session_json(client, url)["hands"]
    assert [(h["number"], h["hand"]["declarer"]) for h in hands] == [(1, "Berta"), (2, "Charlotte")]


def test_a_number_beyond_the_next_is_refused_on_the_page(client):
    url = table_url(new_table(client))
    fields = {**page_form(client, url), **FRAGE, "declarer": "Anton", "number": "5"}
    response = client.post(url + "/spiel", data=fields)
    assert response.status_code == 422
    assert "Das nächste Spiel ist Nummer 1" in response.get_data(as_text=True)
    assert session_json(client, url)["hand_count"] == 0


def test_the_scripts_save_answers_json(client):
    url = table_url(new_table(client))
    fields = {**page_form(client, url), **FRAGE, "declarer": "Anton"}
    key = {"Idempotency-Key": "k-1", **JSON}
    first = client.post(url + "/spiel", data=fields, headers=key)
    assert first.status_code == 201
    answer = first.get_json()
    assert answer["number"] == 1
    assert "Spiel 1 eingetragen: <bdi>Anton</bdi> +0,20 €" in answer["bar"]
    assert "Rückgängig" in answer["bar"]
    # The answer was lost and the queue sends it again: the same hand, stored once.
    again = client.post(url + "/spiel", data=fields, headers=key)
    assert again.status_code == 201 and again.get_json()["number"] == 1
    assert session_json(client, url)["hand_count"] == 1
    # The page after it has the ETag the answer named: no notice for one's own hand.
    assert client.get(url).headers["ETag"] == f'W/"{answer["etag"]}"'


def test_the_scripts_save_of_a_taken_number_is_409_with_the_panel(client):
    url = table_url(new_table(client))
    fields = {**page_form(client, url), **FRAGE, "declarer": "Anton"}
    api_hand(client, url, "Berta")
    response = client.post(url + "/spiel", data=fields, headers={"Idempotency-Key": "k", **JSON})
    assert response.status_code == 409
    answer = response.get_json()
    assert answer["error"]["code"] == "hand_exists"
    assert answer["next_number"] == 2
    assert 'role="alertdialog"' in answer["conflict"]
    assert 'data-renumber="2"' in answer["conflict"]
    assert "Deins: Anton, Frage, 70 Augen" in answer["conflict"]
    assert session_json(client, url)["hand_count"] == 1


def test_the_scripts_save_of_a_broken_hand_is_422_with_the_form(client):
    url = table_url(new_table(client))
    fields = {**page_form(client, url), **FRAGE, "declarer": "Anton", "points": "130"}
    response = client.post(url + "/spiel", data=fields, headers=JSON)
    assert response.status_code == 422
    answer = response.get_json()
    assert answer["error"]["code"] == "validation" and answer["error"]["message"]
    assert 'name="number" value="1"' in answer["form"]
    assert "field-error" in answer["form"]
    assert session_json(client, url)["hand_count"] == 0


def test_the_scripts_save_on_a_closed_evening_is_a_plain_409(client):
    url = table_url(new_table(client))
    fields = {**page_form(client, url), **FRAGE, "declarer": "Anton"}
    api_hand(client, url, "Berta")
    client.post(url + "/schliessen")
    fields["number"] = "2"
    response = client.post(url + "/spiel", data=fields, headers=JSON)
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "conflict"
    assert "abgeschlossen" in response.get_json()["error"]["message"]


def test_a_bad_idempotency_key_is_refused(client):
    url = table_url(new_table(client))
    fields = {**page_form(client, url), **FRAGE, "declarer": "Anton"}
    response = client.post(
        url + "/spiel", data=fields, headers={"Idempotency-Key": "k" * 201, **JSON}
    )
    assert response.status_code == 422
    assert session_json(client, url)["hand_count"] == 0


def test_live_pages_answer_304_until_the_table_changes(client):
    url = table_url(new_table(client))
    for address in (url, url + "/spiele", url + "/abrechnung"):
        first = client.get(address)
        etag = first.headers["ETag"]
        html = first.get_data(as_text=True)
        assert etag.startswith('W/"')  # a version of what it says, compressed or not
        assert f'data-live-etag="{etag[3:-1]}"' in html
        same = client.get(address, headers={"If-None-Match": etag, "X-Haferl-Live": "1"})
        assert same.status_code == 304 and same.get_data() == b""
    etags = {address: client.get(address).headers["ETag"] for address in (url, url + "/spiele")}
    api_hand(client, url, "Anton")
    for address, etag in etags.items():
        changed = client.get(address, headers={"If-None-Match": etag, "X-Haferl-Live": "1"})
        assert changed.status_code == 200
        assert changed.headers["ETag"] != etag
        assert "Neu von einem anderen Gerät: Spiel 1, Anton, Frage, 66 Augen" in (
            changed.get_data(as_text=True)
        )


def test_the_etag_names_the_language(client):
    url = table_url(new_table(client))
    german = client.get(url).headers["ETag"]
    english = client.get(url + "?lang=en").headers["ETag"]
    assert german != english


def test_a_poll_leaves_the_flash_for_the_readers_own_page(client):
    url = table_url(new_table(client))
    fields = {**page_form(client, url), **FRAGE, "declarer": "Anton"}
    assert client.post(url + "/spiel", data=fields).status_code == 302  # flashes "entered"
    polled = client.get(url, headers={"X-Haferl-Live": "1"}).get_data(as_text=True)
    assert "Spiel 1 eingetragen" not in polled
    own = client.get(url).get_data(as_text=True)
    assert "Spiel 1 eingetragen" in own


def test_the_hand_list_counts_what_it_shows(client):
    url = table_url(new_table(client))
    for declarer in ("Anton", "Berta", "Charlotte"):
        api_hand(client, url, declarer)
    version = session_json(client, url)["hands"][1]["version"]
    client.post(f"{url}/spiele/2/streichen", data={"version": version})
    html = client.get(url + "/spiele").get_data(as_text=True)
    assert re.search(r"<h1[^>]*>2 Spiele, 1 gestrichen</h1>", html)
    assert "Alle Spiele (2, 1 gestrichen)" in client.get(url).get_data(as_text=True)


def test_the_page_knows_the_seats_of_the_next_hands(client):
    url = table_url(new_table(client))  # Anton, Berta, Charlotte, Dieter; Anton deals
    html = client.get(url).get_data(as_text=True)
    ahead = re.search(r'<template class="upcoming-seats">(.*?)</template>', html, re.S).group(1)
    numbers = re.findall(r'data-number="(\d+)"', ahead)
    assert numbers[:3] == ["1", "2", "3"]
    second = re.search(r'data-number="2" data-active="([^"]*)">(.*?)</span>', ahead, re.S)
    assert "Spiel 2" in second.group(2)


def test_a_groups_page_follows_its_evenings(client):
    key = create_group(client)["key"]
    first = client.get(f"/s/{key}")
    etag = first.headers["ETag"]
    assert 'id="live-season" data-live-region' in first.get_data(as_text=True)
    polled = client.get(f"/s/{key}", headers={"If-None-Match": etag, "X-Haferl-Live": "1"})
    assert polled.status_code == 304
    tonight = evening(client, key, FOUR)
    after_start = client.get(f"/s/{key}", headers={"If-None-Match": etag})
    assert after_start.status_code == 200 and after_start.headers["ETag"] != etag
    etag = after_start.headers["ETag"]
    play(client, tonight, [{"contract": "frage", "points": 70}])  # a hand at the evening
    after_hand = client.get(f"/s/{key}", headers={"If-None-Match": etag})
    assert after_hand.status_code == 200 and after_hand.headers["ETag"] != etag


def test_the_standings_follow_the_tables(app, client, standings_clock):
    auth = organiser(app)
    players = [f"Spieler {i}" for i in range(1, 7)]
    tournament = created(client, auth, players, rounds=2)
    address = f"/turnier/{tournament['key']}/stand"
    before = client.get(address)
    etag = before.headers["ETag"]
    html = before.get_data(as_text=True)
    assert 'id="live-standings" data-live-region' in html and "js/standings.js" in html
    assert '<noscript><meta http-equiv="refresh"' in html
    assert client.get(address, headers={"If-None-Match": etag}).status_code == 304
    round_ = draw(client, auth, tournament["id"])
    kept_past_half_a_second(client, address, routes.STANDINGS, standings_clock)
    drawn = client.get(address, headers={"If-None-Match": etag})
    assert drawn.status_code == 200
    etag = drawn.headers["ETag"]
    table = round_["tables"][0]["key"]
    declarer = active_players(session_of(client, table))[0]
    hand = {"declarer": declarer, "contract": "frage", "points": 90}
    assert client.post(f"/api/v1/sessions/{table}/hands", json=hand).status_code == 201
    kept_past_half_a_second(client, address, routes.STANDINGS, standings_clock)
    after = client.get(address, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag


def test_spectators_polling_the_standings_cost_no_database_read(app, client, standings_clock):
    """While the page kept for the spectators is younger than half a second, a poll is
    answered from it: no read of the database, the bytes gzipped once for everyone."""
    from sqlalchemy import event

    tournament = created(client, organiser(app), [f"Spieler {i}" for i in range(1, 7)])
    address = f"/turnier/{tournament['key']}/stand"
    plain = client.get(address)
    statements: list[str] = []

    def counted(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", counted)
    try:
        packed = client.get(address, headers={"Accept-Encoding": "gzip, deflate"})
        poll = {"If-None-Match": plain.headers["ETag"], "X-Haferl-Live": "1"}
        polled = client.get(address, headers=poll)
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    assert statements == []
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"] and "Cookie" in packed.headers["Vary"]
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert packed.headers["ETag"] == plain.headers["ETag"]
    assert polled.status_code == 304
    standings_clock.later(0.6)
    event.listen(engine, "before_cursor_execute", counted)
    try:
        assert client.get(address, headers=poll).status_code == 304
        refreshed(routes.STANDINGS)
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    assert statements  # older than half a second: it looks again (in a refresher thread)
    assert client.get("/turnier/" + "x" * len(tournament["key"]) + "/stand").status_code == 404


def kept_past_half_a_second(client, address: str, pages: RecentPages, clock: Clock) -> None:
    """The page kept for the spectators is at most half a second old: past that (the clock
    moved on), the next reader gets it once more while a refresher thread renders the new
    one."""
    clock.later(0.6)
    client.get(address)
    refreshed(pages)


def refreshed(pages: RecentPages) -> None:
    """Wait until no refresher thread is refreshing a page of `pages`."""
    deadline = time.monotonic() + 30
    while pages.refreshing():
        assert time.monotonic() < deadline, "the refresher thread never finished"
        time.sleep(0.01)


def connections_given_back(app) -> None:
    """Wait until no connection of the app's pool is out: a refresher thread has a session
    of its own and gives its connection back when it ends (one kept in a transaction held
    its locks on PostgreSQL until the server stopped)."""
    deadline = time.monotonic() + 10
    with app.app_context():
        while db.engine.pool.checkedout():
            assert time.monotonic() < deadline, "a connection was kept after the refresh"
            time.sleep(0.01)


def test_an_old_standings_page_is_given_while_one_thread_renders_the_new_one(
    app, client, standings_clock
):
    """Past half a second the kept page is still given (no spectator waits for a render)
    while a refresher thread looks and renders; the next reader gets the new page."""

    auth = organiser(app)
    tournament = created(client, auth, [f"Spieler {i}" for i in range(1, 7)])
    address = f"/turnier/{tournament['key']}/stand"
    first = client.get(address)
    late = client.post(
        f"{API}/tournaments/{tournament['id']}/players", json={"name": "Spät"}, headers=auth
    )
    assert late.status_code == 201
    standings_clock.later(0.6)
    stale = client.get(address)
    assert stale.headers["ETag"] == first.headers["ETag"]  # given at once, as it was
    refreshed(routes.STANDINGS)
    connections_given_back(app)
    fresh = client.get(address)
    assert fresh.headers["ETag"] != first.headers["ETag"]
    assert "Spät" in fresh.get_data(as_text=True)


def test_a_refresh_that_fails_leaves_the_next_reader_to_look_itself(app):
    clock = Clock()
    pages = RecentPages(max_age=0.05, clock=clock)
    looks: list[str] = []

    def look() -> str:
        looks.append("look")
        if len(looks) == 2:
            raise LookupError("the tournament is gone")
        return f"v{len(looks)}"

    with app.test_request_context("/turnier/x/stand"):
        assert recent_page(pages, "x", look, render=lambda etag: etag).get_data() == b"v1"
        clock.later(0.06)
        assert recent_page(pages, "x", look, render=lambda etag: etag).get_data() == b"v1"  # stale
        refreshed(pages)
        assert pages.stale("x") is None  # forgotten
        assert recent_page(pages, "x", look, render=lambda etag: etag).get_data() == b"v3"
    assert looks == ["look"] * 3


def test_a_page_refreshed_in_a_refresher_thread_speaks_its_reader_language(app):
    """The refresher thread renders in a copy of the reader's context: an English reader's
    kept page is rendered again in English, not in the German of a thread without a reader."""
    clock = Clock()
    pages = RecentPages(max_age=0.05, clock=clock)
    looks: list[str] = []

    def look() -> str:
        looks.append("look")
        return f"v{len(looks)}"

    def render(etag: str) -> str:
        return f"{etag} {words.current().language}"

    with a_reader(app, "/turnier/x/stand?lang=en"):
        assert recent_page(pages, "x", look, render=render).get_data() == b"v1 en"
        clock.later(0.06)
        assert recent_page(pages, "x", look, render=render).get_data() == b"v1 en"  # stale
        refreshed(pages)
        assert recent_page(pages, "x", look, render=render).get_data() == b"v2 en"
    assert words.current().language == "de"  # the reader gone, nobody reads: German


def test_recent_pages_render_at_most_once_per_max_age():
    clock = Clock()
    pages = RecentPages(max_age=60, clock=clock)
    renders = []

    def render(text: str):
        def page() -> str:
            renders.append(text)
            return text

        return page

    def given(page) -> tuple[str, str]:
        return page.etag, page.body

    assert pages.young("standings") is None
    assert given(pages.page("standings", "v1", render("one"))) == ("v1", "one")
    assert given(pages.young("standings")) == ("v1", "one")
    assert given(pages.page("standings", "v2", render("two"))) == ("v1", "one")  # young
    assert renders == ["one"]
    clock.later(59)
    assert given(pages.young("standings")) == ("v1", "one")  # 59 s old: still young
    clock.later(1)
    assert pages.young("standings") is None  # the next reader looks at the database
    assert given(pages.page("standings", "v2", render("two"))) == ("v2", "two")
    assert given(pages.page("standings", "v2", render("three"))) == ("v2", "two")  # same
    assert renders == ["one", "two"]
    kept = pages.page("standings", "v2", render("four"))
    assert gzip.decompress(kept.gzipped()) == b"two" and kept.gzipped() is kept.gzipped()


def test_an_earlier_page_of_the_hand_list_watches_itself(client, monkeypatch):
    from scorer.table import hand_pages

    monkeypatch.setattr(hand_pages, "HANDS_PER_PAGE", 2)
    url = table_url(new_table(client))
    for declarer in ("Anton", "Berta", "Charlotte"):
        api_hand(client, url, declarer)
    first = client.get(url + "/spiele?seite=1").get_data(as_text=True)
    assert f'data-live="{url.split("localhost")[-1]}/spiele?seite=1"' in first
    latest = client.get(url + "/spiele").get_data(as_text=True)
    assert f'data-live="{url.split("localhost")[-1]}/spiele"' in latest


def test_the_public_standings_json_answers_304_until_something_changes(
    app, client, standings_clock
):
    auth = organiser(app)
    tournament = created(client, auth, [f"Spieler {i}" for i in range(1, 7)], rounds=2)
    address = f"/api/v1/standings/{tournament['key']}"
    first = client.get(address)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and isinstance(first.get_json(), list)
    assert client.get(address, headers={"If-None-Match": etag}).status_code == 304
    draw(client, auth, tournament["id"])
    kept_past_half_a_second(client, address, tournament_api.PUBLIC_STANDINGS, standings_clock)
    drawn = client.get(address, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
    assert drawn.status_code == 200 and drawn.mimetype == "application/json"
    assert drawn.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(drawn.get_data())) == client.get(address).get_json()
    assert client.get(address.replace(tournament["key"], "x" * 20)).status_code == 404
