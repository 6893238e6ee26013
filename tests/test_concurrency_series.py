"""Two organisers' devices on two server processes and one database (see
test_concurrency.py), on the writes the event and the cup added: two renames in one series'
log of names, two finals of one series, two gifts to one charity pot, the registration
opened on one device while the cap is set on the other, and two draws of the next round by
standings. Each race is run many times over; after each, every answer that said success is
stored once and a refusal stored nothing."""

from __future__ import annotations

from scorer.store.database import db
from scorer.store.models import Series, Tournament
from tests.support.racing import clear_organisers, organiser_headers, race, sign_up
from tests.support.servers import call

TRIES = 8
AUTH = organiser_headers("cup@example.org", "geheim123")
FOUR = ["Anna", "Bert", "Carl", "Dora"]


def new_series(port: int, name: str) -> int:
    body = {"name": name, "cup_points": [100, 90, 82, 76], "final_carry": [20, 10]}
    status, made = call(port, "POST", "/api/v1/series", body, AUTH)
    assert status == 201, made
    return made["id"]


def new_tournament(port: int, name: str, **extra) -> int:
    body = {
        "name": name,
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 2,
        "deals_per_player": 1,
        "players": FOUR,
        **extra,
    }
    status, made = call(port, "POST", "/api/v1/tournaments", body, AUTH)
    assert status == 201, made
    return made["id"]


def stored_series(app, series_id: int) -> tuple[list[tuple[str, str]], int]:
    """The series' log of names and how many finals it has."""
    with app.app_context():
        series = db.session.get(Series, series_id)
        log = [(line["from"], line["into"]) for line in series.names]
        finals = sum(1 for t in series.tournaments if t.final)
        db.session.remove()
        return log, finals


def test_two_renames_at_once_both_land_in_the_log(servers, checker):
    """Anna renamed on one device and Bert on the other at the same moment: both 201 and
    both lines kept (a read-modify-write of the log without the lock lost one)."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "cup@example.org") == 302
    for attempt in range(TRIES):
        series_id = new_series(one, f"Cup {attempt}")
        new_tournament(one, f"Turnier {attempt}", series=series_id)
        names = f"/api/v1/series/{series_id}/names"
        a, b = race(
            lambda n=names: call(one, "POST", n, {"from": "Anna", "into": "Anna Maier"}, AUTH),
            lambda n=names: call(two, "POST", n, {"from": "Bert", "into": "Bert Huber"}, AUTH),
        )
        assert (a[0], b[0]) == (201, 201), (attempt, a, b)
        log, _ = stored_series(checker, series_id)
        assert sorted(log) == [("Anna", "Anna Maier"), ("Bert", "Bert Huber")], (attempt, log)


def test_two_finals_of_one_series_at_once_make_one(servers, checker):
    """A series has one final: made from two devices at once, one is 201, the other 409
    and stores no tournament."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "cup@example.org") == 302
    for attempt in range(TRIES):
        series_id = new_series(one, f"Cup {attempt}")
        body = {
            "name": f"Finale {attempt}",
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": 1,
            "deals_per_player": 1,
            "players": FOUR,
            "series": series_id,
            "final": True,
        }
        with checker.app_context():
            before = db.session.query(Tournament).count()
            db.session.remove()
        answers = race(
            lambda b=body: call(one, "POST", "/api/v1/tournaments", b, AUTH),
            lambda b=body: call(two, "POST", "/api/v1/tournaments", b, AUTH),
        )
        assert sorted(status for status, _ in answers) == [201, 409], (attempt, answers)
        _, finals = stored_series(checker, series_id)
        with checker.app_context():
            after = db.session.query(Tournament).count()
            db.session.remove()
        assert (finals, after - before) == (1, 1), attempt


def test_two_gifts_and_two_door_settings_at_once(servers, checker):
    """Two gifts to the charity pot at once: both stored, the pot their sum. The
    registration opened on one device while the other closes it with a cap: one of the
    two settings is stored whole."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "cup@example.org") == 302
    for attempt in range(TRIES):
        tid = new_tournament(one, f"Spende {attempt}")
        base = f"/api/v1/tournaments/{tid}"
        gifts = race(
            lambda b=base: call(
                one, "POST", f"{b}/charity", {"giver": "Wirt", "cents": 5000}, AUTH
            ),
            lambda b=base: call(
                two, "POST", f"{b}/charity", {"giver": "Bank", "cents": 2550}, AUTH
            ),
        )
        assert [status for status, _ in gifts] == [201, 201], (attempt, gifts)
        status, cash = call(one, "GET", f"{base}/cash", None, AUTH)
        assert status == 200 and cash["charity_cents"] == 7550, (attempt, cash)
        settings = race(
            lambda b=base: call(one, "POST", f"{b}/registration", {"open": True}, AUTH),
            lambda b=base: call(two, "POST", f"{b}/registration", {"open": False, "cap": 40}, AUTH),
        )
        assert [status for status, _ in settings] == [204, 204], (attempt, settings)
        with checker.app_context():
            tournament = db.session.get(Tournament, tid)
            stored = (tournament.registration_open, tournament.cap)
            db.session.remove()
        # Each device sent the whole setting: the later one decides, never a mixture.
        assert stored in ((True, None), (False, 40)), (attempt, stored)


def test_two_draws_by_standings_at_once_draw_one_round(servers, checker):
    """The next round seated by standings, drawn from two devices at once: one 201, one
    refusal, and the tournament has exactly one round 2."""
    one, two = servers
    clear_organisers(checker)
    assert sign_up(one, "cup@example.org") == 302
    for attempt in range(TRIES):
        tid = new_tournament(one, f"Setzrunde {attempt}")
        base = f"/api/v1/tournaments/{tid}"
        assert call(one, "POST", f"{base}/rounds", {}, AUTH)[0] == 201
        assert call(one, "POST", f"{base}/rounds/1/close", {}, AUTH)[0] == 200
        answers = race(
            lambda b=base: call(one, "POST", f"{b}/rounds", {"seating": "standings"}, AUTH),
            lambda b=base: call(two, "POST", f"{b}/rounds", {"seating": "standings"}, AUTH),
        )
        statuses = sorted(status for status, _ in answers)
        assert statuses[0] == 201 and statuses[1] in (409, 422), (attempt, answers)
        with checker.app_context():
            rounds = [r.number for r in db.session.get(Tournament, tid).round_list]
            db.session.remove()
        assert rounds == [1, 2], (attempt, rounds)
