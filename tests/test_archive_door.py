"""A tournament's archive carries the event's door: exported from a tournament with a desk
(registered players, a no-show, a waiting list, fees paid, unpaid and waived, clubs, a
fixed table, a charity pot, points for a missed round, a round seated by the standings
with club-mates apart) and imported on another server, it gives the same tournament, the
same cash and the same standings; a file written before the door imports as it always
did; each malformed new key is refused (422) and nothing is stored."""

from __future__ import annotations

import copy
import json
import random

import pytest
from sqlalchemy import func, select

from scorer.services import tournaments as ops
from scorer.store.database import db
from scorer.store.models import CharityGift, TableSession, Tournament, TournamentPlayer
from tests.conftest import dispose, make_app
from tests.support.tournaments import (
    API,
    created,
    draw,
    organiser,
    play_round,
    play_table,
    read_round,
)

CLUBS = {"Anna": "TC Au", "Bert": "TC Au", "Cilli": "TC Au", "Done": "SC Ried", "Emil": "SC Ried"}
FEES = {
    "Anna": "paid",
    "Bert": "paid",
    "Cilli": "waived",
    "Done": "unpaid",
    "Emil": "paid",
    "Fritz": "paid",
}
"""Who checks in for round 1, and his fee (Gabi comes for round 2, Hans never, Ida waits)."""
NEW_TOURNAMENT_KEYS = {
    "check_in",
    "registration_open",
    "cap",
    "missed_round_points",
    "entry_fee_cents",
    "prize_plan",
}
NEW_PLAYER_KEYS = {"club", "checked_in", "waiting", "fee", "fixed_table"}
NEW_ROUND_KEYS = {"seating", "keep_apart", "clubs_together"}
OLD_LAYOUT = {
    "document": {"format", "version", "exported_at", "tournament", "players", "rounds"},
    "tournament": {
        "name",
        "date",
        "game",
        "system",
        "params",
        "rounds",
        "deals_per_player",
        "seed",
        "created_at",
        "standings",
    },
    "player": {"name", "joined_round", "withdrawn_after"},
    "round": {"number", "seed", "byes", "closed_at", "tables"},
}
"""The tournament archive's keys before the door (commit 72d7d92 and earlier)."""


@pytest.fixture
def auth(app):
    return organiser(app)


@pytest.fixture
def elsewhere(tmp_path):
    """Another server: an app on a SQLite database of its own, with an organiser."""
    other = tmp_path / "elsewhere"
    other.mkdir()
    app = make_app(other, SQLALCHEMY_DATABASE_URI=f"sqlite:///{other / 'elsewhere.sqlite3'}")
    auth = organiser(app, "zweite@example.org", "Zweite")
    yield app, app.test_client(), auth
    dispose(app)


# --- helpers ------------------------------------------------------------------------------------


def post(client, auth, path, body, status):
    answer = client.post(f"{API}{path}", json=body, headers=auth)
    assert answer.status_code == status, (path, body, answer.get_json())
    return answer.get_json()


def check_in(client, auth, tid, name, fee):
    body = {"paid": fee == "paid", "waived": fee == "waived"}
    return post(client, auth, f"/tournaments/{tid}/players/{name}/check-in", body, 200)


def archive_of(client, auth, tid) -> dict:
    answer = client.get(f"{API}/tournaments/{tid}/archive.json", headers=auth)
    assert answer.status_code == 200
    return json.loads(answer.get_data())


def import_into(other, other_auth, document):
    return other.post(f"{API}/tournaments/import", json=document, headers=other_auth)


def imported(other, other_auth, document) -> dict:
    answer = import_into(other, other_auth, document)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


WITHOUT = {"id", "key", "url", "standings_url", "registration_url"}


def keyless(value):
    """An answer without what an import makes anew: ids, keys, links."""
    if isinstance(value, dict):
        return {k: keyless(v) for k, v in value.items() if k not in WITHOUT}
    if isinstance(value, list):
        return [keyless(v) for v in value]
    return value


def answers_of(client, auth, tid) -> dict:
    """Everything the organiser and the public see of the tournament, keys left out."""
    tournament = client.get(f"{API}/tournaments/{tid}", headers=auth).get_json()
    return {
        "tournament": keyless(tournament),
        "standings": client.get(f"{API}/tournaments/{tid}/standings", headers=auth).get_json(),
        "public": client.get(f"{API}/standings/{tournament['key']}").get_json(),
        "cash": client.get(f"{API}/tournaments/{tid}/cash", headers=auth).get_json(),
    }


def stored(app, tid) -> dict:
    """What the answers do not show: the gifts (who, how much, when) and the desk's code."""
    with app.app_context():
        tournament = db.session.get(Tournament, tid)
        found = {
            "gifts": [(g.giver, g.cents, g.at) for g in tournament.gifts],
            "desk_code": tournament.desk_code,
            "fresh": ops.fresh_standings(tournament),
        }
        db.session.remove()
    return found


def counts(app) -> tuple[int, ...]:
    with app.app_context():
        found = tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (Tournament, TournamentPlayer, TableSession, CharityGift)
        )
        db.session.remove()
    return found


def seated(round_: dict) -> set[str]:
    return {name for table in round_["tables"] for name in table["players"]}


def at_the_door(client, auth) -> int:
    """A tournament with a desk, two rounds drawn (the second by the standings, club-mates
    apart) and partly played: Hans never came, Ida waits, Gabi came for round 2."""
    t = created(
        client,
        auth,
        [],
        rounds=3,
        deals=1,
        cap=8,
        registration_open=True,
        missed_round_points=-5,
        entry_fee_cents=1000,
        pool_percent=80,
        prizes={"percent": [50, 30, 20]},
    )
    tid = t["id"]
    assert t["check_in"] is True
    for name in ["Anna", "Bert", "Cilli", "Done", "Emil", "Fritz", "Gabi", "Hans", "Ida"]:
        body = {"name": name, "club": CLUBS[name]} if name in CLUBS else {"name": name}
        post(client, auth, f"/tournaments/{tid}/players", body, 201)
    for name, fee in FEES.items():
        check_in(client, auth, tid, name, fee)
    rng = random.Random(7)
    first = post(client, auth, f"/tournaments/{tid}/rounds", {"fixed": {"Fritz": 2}}, 201)
    assert "Fritz" in first["tables"][1]["players"]
    play_round(client, first, rng)
    assert check_in(client, auth, tid, "Gabi", "paid")["joined_round"] == 2
    post(client, auth, f"/tournaments/{tid}/charity", {"giver": "Wirt", "cents": 5000}, 201)
    post(client, auth, f"/tournaments/{tid}/charity", {"giver": "Anna", "cents": 250}, 201)
    body = {"seating": "standings", "keep_apart": "club"}
    second = post(client, auth, f"/tournaments/{tid}/rounds", body, 201)
    assert second["seating"] == "standings" and second["clubs_together"]  # three of TC Au
    assert seated(second) == set(FEES) | {"Gabi"}
    play_table(client, second["tables"][0]["key"], second["tables"][0]["hands_planned"], rng)
    play_table(client, second["tables"][1]["key"], 1, rng)
    return tid


# --- a tournament with a desk, moved --------------------------------------------------------------


def test_a_tournament_at_the_door_moves_whole_its_cash_and_standings_with_it(
    app, client, auth, elsewhere
):
    tid = at_the_door(client, auth)
    before = answers_of(client, auth, tid)
    players = {p["name"]: p for p in before["tournament"]["players"]}
    assert not players["Hans"]["checked_in"] and players["Ida"]["waiting"]  # as planned
    # Paid: Anna, Bert, Emil, Fritz and Gabi; Cilli's fee waived, Done owes his.
    assert before["cash"]["received_cents"] == 5 * 1000 + 5000 + 250
    assert before["cash"]["unpaid"] == ["Done"] and before["cash"]["waived"] == ["Cilli"]
    assert next(r for r in before["standings"] if r["player"] == "Gabi")["adjustment"] == -5
    document = archive_of(client, auth, tid)
    assert "desk_code" not in document["tournament"]  # the door's code stays behind

    other_app, other, other_auth = elsewhere
    made = imported(other, other_auth, document)
    after = answers_of(other, other_auth, made["id"])
    assert after["tournament"] == before["tournament"]
    assert after["cash"] == before["cash"]
    assert after["standings"] == before["standings"]
    assert after["public"] == before["public"]
    old, new = stored(app, tid), stored(other_app, made["id"])
    assert new["gifts"] == old["gifts"] and new["fresh"] == old["fresh"]
    assert new["desk_code"] is not None and new["desk_code"].isdigit()  # a desk of its own

    # The imported tournament goes on at its door: round 2 ends, round 3 seats the players
    # present (not Hans, who never came, nor Ida, who waits) and Fritz at his table.
    play_round(other, read_round(other, other_auth, made["id"], 2), random.Random(8))
    third = draw(other, other_auth, made["id"])
    assert seated(third) == set(FEES) | {"Gabi"}
    assert "Fritz" in third["tables"][1]["players"]


@pytest.mark.parametrize("registered", [0, 1, 2])
def test_a_desk_with_fewer_than_three_players_registered_moves_too(
    client, auth, elsewhere, registered
):
    t = created(client, auth, [], entry_fee_cents=500)
    names = ["Anna", "Bert"][:registered]
    for name in names:
        post(client, auth, f"/tournaments/{t['id']}/players", {"name": name}, 201)
    if names:
        check_in(client, auth, t["id"], names[0], "paid")
    before = answers_of(client, auth, t["id"])
    _, other, other_auth = elsewhere
    made = imported(other, other_auth, archive_of(client, auth, t["id"]))
    assert answers_of(other, other_auth, made["id"]) == before
    assert [p["name"] for p in made["players"]] == names


# --- a file from before the door ------------------------------------------------------------------


def before_the_door(document: dict) -> dict:
    """The archive as Haferl wrote it before the door: none of the new keys."""
    old = copy.deepcopy(document)
    del old["gifts"]
    del old["adjustments"]  # and before the results (tests/test_series_archive.py)
    for key in ("tie_breaks", "finished_at"):
        del old["tournament"][key]
    for player in old["players"]:
        del player["carried"]
    for key in NEW_TOURNAMENT_KEYS:
        del old["tournament"][key]
    for player in old["players"]:
        for key in NEW_PLAYER_KEYS:
            del player[key]
    for round_ in old["rounds"]:
        for key in NEW_ROUND_KEYS:
            del round_[key]
    assert set(old) == OLD_LAYOUT["document"]
    assert set(old["tournament"]) == OLD_LAYOUT["tournament"]
    assert all(set(p) == OLD_LAYOUT["player"] for p in old["players"])
    assert all(set(r) == OLD_LAYOUT["round"] for r in old["rounds"])
    return old


def test_an_archive_from_before_the_door_imports_as_it_always_did(client, auth, elsewhere):
    players = [f"Spieler {i}" for i in range(1, 10)]
    tid = created(client, auth, players, rounds=2, deals=1)["id"]
    rng = random.Random(3)
    play_round(client, draw(client, auth, tid), rng)
    second = draw(client, auth, tid)
    play_table(client, second["tables"][0]["key"], 2, rng)
    before = answers_of(client, auth, tid)
    _, other, other_auth = elsewhere
    made = imported(other, other_auth, before_the_door(archive_of(client, auth, tid)))
    after = answers_of(other, other_auth, made["id"])
    # No desk, no registration, no fee, no prizes; every player present, nobody waiting.
    assert (made["check_in"], made["registration_open"], made["cap"]) == (False, False, None)
    assert (made["missed_round_points"], made["entry_fee_cents"]) == (0, 0)
    assert made["prize_plan"] == {}  # as stored for every tournament before the door
    for player in made["players"]:
        assert (player["checked_in"], player["waiting"], player["fee"]) == (True, False, "unpaid")
        assert (player["club"], player["fixed_table"]) == (None, None)
    assert all(r["seating"] == "random" and r["keep_apart"] is None for r in made["rounds_drawn"])
    made_here = {k: v for k, v in after["tournament"].items() if k != "prize_plan"}
    assert made_here == {k: v for k, v in before["tournament"].items() if k != "prize_plan"}
    assert (after["standings"], after["public"], after["cash"]) == (
        before["standings"],
        before["public"],
        before["cash"],
    )


# --- refusals -----------------------------------------------------------------------------------


def player_at(document, name):
    return next(p for p in document["players"] if p["name"] == name)


def set_in(path, value):
    """A change to the document: `path` a list of keys and indexes, the last one set."""

    def change(document):
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def seated_name(document):
    return document["rounds"][0]["tables"][0]["table"]["players"][0]


def seated_no_show(document):
    player_at(document, seated_name(document))["checked_in"] = False


def seated_waiting(document):
    player_at(document, seated_name(document))["waiting"] = True


REFUSED = [
    # (what is changed, the field refused)
    (set_in(["tournament", "check_in"], "yes"), "tournament.check_in"),
    (set_in(["tournament", "registration_open"], 1), "tournament.registration_open"),
    (set_in(["tournament", "cap"], 2), "tournament.cap"),
    (set_in(["tournament", "cap"], True), "tournament.cap"),
    (set_in(["tournament", "missed_round_points"], 10**6), "tournament.missed_round_points"),
    (set_in(["tournament", "missed_round_points"], 1.5), "tournament.missed_round_points"),
    (set_in(["tournament", "entry_fee_cents"], -1), "tournament.entry_fee_cents"),
    (set_in(["tournament", "prize_plan"], [50, 30]), "tournament.prize_plan"),
    (
        set_in(["tournament", "prize_plan", "pool_percent"], 101),
        "tournament.prize_plan.pool_percent",
    ),
    (
        set_in(["tournament", "prize_plan", "prizes"], {"percent": [80, 30]}),
        "tournament.prize_plan.prizes",
    ),
    (set_in(["tournament", "prize_plan", "share"], 1), "tournament.prize_plan.share"),
    (set_in(["players", 0, "club"], 7), "players[0].club"),
    (set_in(["players", 0, "club"], "c" * 61), "players[0].club"),
    (set_in(["players", 0, "club"], "TC\u202eAu"), "players[0].club"),
    (set_in(["players", 0, "checked_in"], "no"), "players[0].checked_in"),
    (set_in(["players", 0, "waiting"], None), "players[0].waiting"),
    (set_in(["players", 0, "fee"], "owed"), "players[0].fee"),
    (set_in(["players", 0, "fixed_table"], 0), "players[0].fixed_table"),
    (set_in(["players", 0, "fixed_table"], "2"), "players[0].fixed_table"),
    (set_in(["rounds", 1, "seating"], "sorted"), "rounds[1].seating"),
    (set_in(["rounds", 1, "keep_apart"], "family"), "rounds[1].keep_apart"),
    (set_in(["rounds", 1, "clubs_together"], [["Anna"]]), "rounds[1].clubs_together"),
    (set_in(["rounds", 1, "clubs_together"], "Anna, Bert"), "rounds[1].clubs_together"),
    (set_in(["rounds", 1, "clubs_together"], [["Anna", "Anna"]]), "rounds[1].clubs_together"),
    # A round drawn without keeping clubs apart has no club-mates "still together".
    (set_in(["rounds", 0, "clubs_together"], [["Anna", "Bert"]]), "rounds[0].clubs_together"),
    # Refused by the import itself, after the tournament and round 1 were made: rolled back.
    (
        set_in(["rounds", 1, "clubs_together"], [["Anna", "Niemand"]]),
        "rounds[1].clubs_together",
    ),
    (seated_no_show, "rounds[0].tables[0].table.players"),
    (seated_waiting, "rounds[0].tables[0].table.players"),
    (set_in(["gifts"], {"giver": "Wirt"}), "gifts"),
    (set_in(["gifts", 0, "cents"], 0), "gifts[0].cents"),
    (set_in(["gifts", 0, "cents"], False), "gifts[0].cents"),
    (set_in(["gifts", 0, "giver"], ""), "gifts[0].giver"),
    (set_in(["gifts", 0, "at"], "gestern"), "gifts[0].at"),
    (set_in(["gifts", 0, "note"], "danke"), "gifts[0].note"),
]


def test_each_malformed_key_of_the_door_is_refused_and_nothing_is_stored(client, auth, elsewhere):
    document = archive_of(client, auth, at_the_door(client, auth))
    other_app, other, other_auth = elsewhere
    nothing = counts(other_app)
    for change, field in REFUSED:
        broken = copy.deepcopy(document)
        change(broken)
        answer = import_into(other, other_auth, broken)
        assert answer.status_code == 422, (field, answer.get_json())
        assert field in answer.get_json()["error"]["fields"], (field, answer.get_json())
        assert counts(other_app) == nothing, field
    # The same file unbroken is taken: the refusals were the changes'.
    imported(other, other_auth, document)
    assert counts(other_app) != nothing
