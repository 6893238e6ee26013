"""The event's public pages under a burst from one address, with the rate limits on as a
server has them: the registration page takes 20 sign-ups a minute from one address, the
phone's check-in 10 tries; the next is refused with 429 in the player's words, stores
nothing, and another address is not held up. A guesser of the desk's code is stopped after
10 tries, the right code included, and checks nobody in."""

from __future__ import annotations

import re

from scorer.store.database import db
from scorer.store.models import Tournament, TournamentLog
from tests.conftest import dispose, make_app
from tests.support.tournaments import created, organiser

BUSY = "Zu viele Anfragen in kurzer Zeit: bitte eine Minute warten."


def device(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def stored(app, tid: int) -> tuple[list[tuple[str, bool]], list[str]]:
    with app.app_context():
        tournament = db.session.get(Tournament, tid)
        players = [(p.name, p.checked_in) for p in tournament.players]
        log = [row.action for row in db.session.query(TournamentLog).filter_by(tournament_id=tid)]
        db.session.remove()
        return players, log


def test_a_burst_of_sign_ups_from_one_address_is_stopped_and_stores_nothing(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS=True)
    try:
        auth = organiser(app)
        admin = device(app, "10.0.0.1")
        t = created(admin, auth, [], registration_open=True)
        page = f"/turnier/{t['key']}/anmelden"
        burst = device(app, "10.0.0.66")
        answers = [
            burst.post(page, data={"name": f"Bot {n:02d}"}, headers={"Accept-Language": "de"})
            for n in range(21)
        ]
        assert [a.status_code for a in answers] == [200] * 20 + [429]
        assert BUSY in answers[-1].get_data(as_text=True)
        before = stored(app, t["id"])
        assert [name for name, _ in before[0]] == [f"Bot {n:02d}" for n in range(20)]
        assert burst.post(page, data={"name": "Bot 21"}).status_code == 429
        assert stored(app, t["id"]) == before  # the refused sign-ups stored nothing
        other = device(app, "10.0.0.7")
        assert other.get(page).status_code == 200  # reading is never limited
        signed = other.post(page, data={"name": "Anna Huber"})
        assert signed.status_code == 200 and "Anna Huber" in signed.get_data(as_text=True)
    finally:
        dispose(app)


def test_a_guesser_of_the_desks_code_is_stopped_and_checks_nobody_in(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS=True)
    try:
        auth = organiser(app)
        admin = device(app, "10.0.0.1")
        t = created(admin, auth, ["Anna Huber", "Bert Maier", "Cilli Eder"], check_in=True)
        with app.app_context():
            code = db.session.get(Tournament, t["id"]).desk_code
            db.session.remove()
        wrong = f"{(int(code) + 1) % 10000:04d}"
        page = f"/turnier/{t['key']}/da"
        guesser = device(app, "10.0.0.66")
        tries = [
            guesser.post(page, data={"name": "Anna Huber", "code": wrong}).status_code
            for _ in range(10)
        ]
        assert all(status in (404, 409, 422) for status in tries), tries
        refused = guesser.post(page, data={"name": "Anna Huber", "code": code})
        assert refused.status_code == 429  # the right code too, for a while
        assert re.search("Zu viele|Too many", refused.get_data(as_text=True))
        players, log = stored(app, t["id"])
        assert players == [("Anna Huber", False), ("Bert Maier", False), ("Cilli Eder", False)]
        assert "check_in" not in log
        bert = device(app, "10.0.0.8")  # another phone is not held up
        here = bert.post(page, data={"name": "bert maier", "code": code})
        assert here.status_code == 200 and "Bert Maier" in here.get_data(as_text=True)
        assert ("Bert Maier", True) in stored(app, t["id"])[0]
    finally:
        dispose(app)
