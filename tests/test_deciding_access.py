"""Tests that decide two access rules a bug could skip while the rest of the suite passes:

1. A table of a closed tournament round is corrected only by the tournament's own
   organiser: another organiser's HTTP Basic credentials on the API (409, API.md
   "Tournament director") and another organiser signed in on the table page (back to the
   table, which says why) are refused, and the table's hands, its version, the standings
   and the tournament's log are the same afterwards.
2. Wrong passwords are counted per address too, not only per account: one address that
   tries one wrong password on each of many accounts is refused (429, with when to come
   back) after the per-address limit, even for an account it has not tried yet; another
   address is not refused, and the right password from it still works. For the sign-in
   form and for HTTP Basic on the API.
"""

from __future__ import annotations

import base64

import pytest

from scorer.auth.credentials import FAILURE_LIMITS
from scorer.extensions import limiter
from scorer.services.accounts import create_organiser
from scorer.store.database import db
from tests.conftest import dispose, make_app

API = "/api/v1"
PASSWORD = "geheim123"
PLAYERS = ["Anton", "Berta", "Christl", "Dieter"]
PER_ADDRESS = FAILURE_LIMITS[0].amount
"""Wrong passwords a minute from one address before it is refused (the tightest limit)."""


def basic(email: str, password: str = PASSWORD) -> dict[str, str]:
    token = base64.b64encode(f"{email}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def organisers(app, *emails: str) -> None:
    with app.app_context():
        for email in emails:
            create_organiser(
                email.split("@")[0], email, PASSWORD, hashing=app.config["PASSWORD_HASH"]
            )
        db.session.commit()


def sign_in(client, email: str, password: str = PASSWORD, address: str = "127.0.0.1"):
    return client.post(
        "/veranstalter/anmelden",
        data={"email": email, "password": password},
        headers={"Accept-Language": "en"},
        environ_base={"REMOTE_ADDR": address},
    )


# --- 1. a closed round's table, corrected by another organiser -------------------------

OWNER, OTHER = "owner@example.org", "other@example.org"


def closed_round_table(app, client) -> tuple[int, str]:
    """The owner's tournament of four, its one round played to the end (which closes it):
    (tournament id, the table's key)."""
    organisers(app, OWNER, OTHER)
    auth = basic(OWNER)
    body = {
        "name": "Turnier",
        "date": "2026-03-14",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 1,
        "deals_per_player": 1,
        "players": PLAYERS,
    }
    made = client.post(f"{API}/tournaments", json=body, headers=auth)
    assert made.status_code == 201, made.get_json()
    tid = made.get_json()["id"]
    drawn = client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth)
    assert drawn.status_code == 201, drawn.get_json()
    table = drawn.get_json()["tables"][0]
    key = table["key"]
    for _ in range(table["hands_planned"]):
        session = client.get(f"{API}/sessions/{key}").get_json()
        declarer = next(p for p in session["players"] if p != session["next_dealer"])
        hand = {"declarer": declarer, "contract": "frage", "points": 70}
        assert client.post(f"{API}/sessions/{key}/hands", json=hand).status_code == 201
    round_ = client.get(f"{API}/tournaments/{tid}/rounds/1", headers=auth).get_json()
    assert round_["closed"] is True
    return tid, key


def state(client, tid: int, key: str) -> dict:
    """Everything a correction would change: the table with its hands and version, its
    history, the standings and the tournament's log (read as the owner)."""
    auth = basic(OWNER)
    reads = {
        "table": client.get(f"{API}/sessions/{key}"),
        "history": client.get(f"{API}/sessions/{key}/history"),
        "standings": client.get(f"{API}/tournaments/{tid}/standings", headers=auth),
        "log": client.get(f"{API}/tournaments/{tid}/log", headers=auth),
    }
    assert all(r.status_code == 200 for r in reads.values())
    return {
        **{name: r.get_json() for name, r in reads.items()},
        "version": reads["table"].headers["ETag"],  # the table's version
    }


def correction(client, key: str) -> dict:
    """Hand 1 made a different, valid hand, with the version it was read at."""
    stored = client.get(f"{API}/sessions/{key}/hands/1").get_json()
    hand = stored["hand"]
    return {
        "declarer": hand["declarer"],
        "contract": "frage",
        "points": 120 if hand["points"] != 120 else 30,
        "version": stored["version"],
    }


def test_another_organisers_basic_credentials_cannot_correct_a_closed_rounds_table(app, client):
    tid, key = closed_round_table(app, client)
    corrected = correction(client, key)
    before = state(client, tid, key)

    edit = client.put(f"{API}/sessions/{key}/hands/1", json=corrected, headers=basic(OTHER))
    assert edit.status_code == 409, edit.get_json()
    assert "only the tournament's organiser" in edit.get_json()["error"]["message"]
    strike = client.delete(
        f"{API}/sessions/{key}/hands/1?version={corrected['version']}", headers=basic(OTHER)
    )
    assert strike.status_code == 409, strike.get_json()
    assert "only the tournament's organiser" in strike.get_json()["error"]["message"]
    assert state(client, tid, key) == before

    # The same correction with the owner's credentials is taken: it was refused for whose
    # credentials they were, nothing else.
    done = client.put(f"{API}/sessions/{key}/hands/1", json=corrected, headers=basic(OWNER))
    assert done.status_code == 200, done.get_json()
    after = state(client, tid, key)
    assert after["version"] != before["version"]
    assert after["standings"] != before["standings"]


def test_another_organiser_signed_in_cannot_correct_a_closed_rounds_table_on_its_page(app, client):
    tid, key = closed_round_table(app, client)
    corrected = correction(client, key)
    form = {k: str(v) for k, v in corrected.items()}
    before = state(client, tid, key)
    other = app.test_client()
    assert sign_in(other, OTHER).status_code == 302

    # The hand list does not offer the edit to another organiser...
    edit_link = f'href="/t/{key}/spiele/1"'
    assert edit_link not in other.get(f"/t/{key}/spiele").get_data(as_text=True)
    # ...and a correction or a strike-out posted anyway goes back to the table, which
    # says why.
    edit = other.post(f"/t/{key}/spiele/1", data=form)
    assert edit.status_code == 302 and edit.headers["Location"].endswith(f"/t/{key}")
    told = other.get(edit.headers["Location"]).get_data(as_text=True)
    assert "nur die Turnierleitung darf ihre Tische korrigieren" in told
    strike = other.post(f"/t/{key}/spiele/1/streichen", data={"version": form["version"]})
    assert strike.status_code == 302 and strike.headers["Location"].endswith(f"/t/{key}")
    assert state(client, tid, key) == before

    # The owner, signed in, is offered the edit and makes the same correction.
    owner = app.test_client()
    assert sign_in(owner, OWNER).status_code == 302
    assert edit_link in owner.get(f"/t/{key}/spiele").get_data(as_text=True)
    done = owner.post(f"/t/{key}/spiele/1", data=form)
    assert done.status_code == 302 and done.headers["Location"].endswith(f"/t/{key}/spiele")
    after = state(client, tid, key)
    assert after["version"] != before["version"]
    assert after["standings"] != before["standings"]


# --- 2. one address guessing a password of many accounts ---------------------------------

ATTACKER, ELSEWHERE = "10.6.6.6", "10.1.1.1"


@pytest.fixture
def limited_app(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS=True)
    limiter.reset()
    yield app
    limiter.reset()
    dispose(app)


def accounts(app) -> list[str]:
    """One account for each wrong password the address may send, and two more: one it has
    not tried when it is refused, one it never tries."""
    emails = [f"orga{n}@example.org" for n in range(PER_ADDRESS + 2)]
    organisers(app, *emails)
    return emails


def test_one_address_guessing_many_accounts_on_the_sign_in_form_is_stopped(limited_app):
    emails = accounts(limited_app)
    tried, untried, never = emails[:PER_ADDRESS], emails[-2], emails[-1]
    client = limited_app.test_client()
    statuses = [sign_in(client, e, "falsch123", ATTACKER).status_code for e in tried]
    assert statuses == [422] * PER_ADDRESS  # one wrong password each, each answered

    refused = sign_in(client, untried, "falsch123", ATTACKER)
    assert refused.status_code == 429
    assert "Too many wrong attempts from this device" in refused.get_data(as_text=True)
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    # Not even the right password of an account it has not tried gets through from there.
    assert sign_in(client, never, PASSWORD, ATTACKER).status_code == 429

    # Another address is not refused: a wrong password is just wrong, the right one works,
    # for an account the attacker tried and for one it did not.
    elsewhere = limited_app.test_client()
    assert sign_in(elsewhere, untried, "falsch123", ELSEWHERE).status_code == 422
    assert sign_in(elsewhere, tried[0], PASSWORD, ELSEWHERE).status_code == 302
    assert sign_in(limited_app.test_client(), never, PASSWORD, ELSEWHERE).status_code == 302


def test_one_address_guessing_many_accounts_over_http_basic_is_stopped(limited_app):
    emails = accounts(limited_app)
    tried, untried, never = emails[:PER_ADDRESS], emails[-2], emails[-1]
    client = limited_app.test_client()

    def ask(email: str, password: str, address: str):
        return client.get(
            f"{API}/tournaments",
            headers={**basic(email, password), "Accept-Language": "en"},
            environ_base={"REMOTE_ADDR": address},
        )

    statuses = [ask(e, "falsch123", ATTACKER).status_code for e in tried]
    assert statuses == [401] * PER_ADDRESS

    refused = ask(untried, "falsch123", ATTACKER)
    assert refused.status_code == 429
    error = refused.get_json()["error"]
    assert error["code"] == "too_many_requests"
    assert "too many wrong passwords from this address" in error["message"]
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert ask(never, PASSWORD, ATTACKER).status_code == 429

    assert ask(untried, "falsch123", ELSEWHERE).status_code == 401
    assert ask(tried[0], PASSWORD, ELSEWHERE).status_code == 200
    assert ask(never, PASSWORD, ELSEWHERE).status_code == 200
