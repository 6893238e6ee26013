"""A table through its pages, as a browser uses it (the test client): a new table from the
form, a hand entered on the page, the fields a form posts, a change of players; and another
device's hand through the API."""

from __future__ import annotations

import re

from scorer.store.database import db
from scorer.store.table_rows import get_session
from tests.conftest import DefaultFields, PostedFields

PLAYERS = ["Anton", "Berta", "Charlotte", "Dieter"]
PLAYERS3 = ["Anton", "Berta", "Charlotte"]
FRAGE = {"contract": "frage", "points": "70", "points_of": "declarer"}
"""A Frage won with 70 as the hand form posts it (the declarer left to the caller)."""


def new_table(client, game="haferltarock", system="parlett-units", players=PLAYERS, **extra):
    """The new-table form sent with its defaults (`extra` on top); the answer, a redirect to
    the table (`table_url`). The fourth player deals first."""
    data = {"game": game, "system": system, "name": "Stammtisch", "first_dealer": "3"}
    for i, name in enumerate(players):
        data[f"player_{i}"] = name
    parser = DefaultFields()
    parser.feed(client.get(f"/neu?game={game}&system={system}").get_data(as_text=True))
    data.update(parser.values)
    data.update(extra)
    return client.post("/neu", data=data)


def table_url(response) -> str:
    """Where the new table's answer leads: the table's page."""
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return response.headers["Location"]


def record(client, url: str, **fields) -> None:
    """A hand entered on the page; by default a Frage 70 of the first player who plays."""
    if "declarer" not in fields:
        page = client.get(url).get_data(as_text=True)
        fields["declarer"] = re.search(r'name="declarer" value="([^"]+)"', page).group(1)
    response = client.post(url + "/spiel", data={**FRAGE, **fields})
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]


def session_json(client, url: str) -> dict:
    """The API's session of the table at `url`."""
    key = url.rstrip("/").rsplit("/", 1)[-1]
    return client.get(f"/api/v1/sessions/{key}").get_json()


def form_fields(html: str) -> dict[str, str]:
    """What the page's hand form posts, untouched."""
    parser = PostedFields("hand-form")
    parser.feed(html)
    return dict(parser.values)


def change_players(client, url: str, names: list[str], dealer: int | None = None, **extra):
    """The players page's form sent with `names` (up to four; `dealer` deals next)."""
    page = client.get(url + "/spieler")
    assert page.status_code == 200
    fields = dict(lineup_fields(page.get_data(as_text=True), "lineup"))
    for i in range(4):
        fields[f"player_{i}"] = names[i] if i < len(names) else ""
    if dealer is not None:
        fields["next_dealer"] = str(dealer)
    fields.update(extra)
    return client.post(url + "/spieler", data=fields)


def lineup_fields(html: str, form_class: str) -> list[tuple[str, str]]:
    """The fields of the (only) lineup form: it has a class, not an id."""
    parser = PostedFields("lineup-form")
    parser.feed(html.replace(f'class="{form_class}"', 'id="lineup-form"', 1))
    return parser.values


def api_hand(client, url: str, declarer: str, points: int = 66, **extra) -> int:
    """Another device enters a hand through the API; its number."""
    key = url.rstrip("/").rsplit("/", 1)[-1]
    hand = {"declarer": declarer, "contract": "frage", "points": points, **extra}
    response = client.post(f"/api/v1/sessions/{key}/hands", json=hand)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["number"]


def lineup(players: list[str], version: int) -> dict[str, str]:
    """The players page's form: these players from the next hand on, the first deals."""
    fields = {f"player_{i}": name for i, name in enumerate(players)}
    return {**fields, "next_dealer": "0", "version": str(version)}


def table_version(app, key: str) -> int:
    """The table's version as stored."""
    with app.app_context():
        version = get_session(key).version
        db.session.remove()
        return version
