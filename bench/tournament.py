"""Benchmark: the standings of a big tournament, computed and rendered.

Run: `.venv/bin/python bench/tournament.py`. On a SQLite file database in a temporary
directory it builds, directly through the tournaments' and the tables' services (no HTTP), a
tournament of 200 players over 5 rounds (haferltarock / parlett-units) in which every table
plays all its hands: each player deals `DEALS` times a round, so a table of four plays 24
hands (a table of three would play 18; 200 players sit at 50 tables of four). Then it prints
the median time of `tournament_standings` (target < 200 ms) and of rendering the public
standings page `GET /turnier/{key}/stand` through the test client. Nothing is asserted.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
import warnings
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer import create_app
from scorer.domain import Hand  # noqa: E402
from scorer.domain.commands import RecordHand
from scorer.domain.tournament_commands import DrawRound, new_tournament
from scorer.services import evenings  # noqa: E402
from scorer.services import tournaments as ops  # noqa: E402
from scorer.services.accounts import create_organiser  # noqa: E402
from scorer.store.database import db, held_open
from scorer.store.models import Tournament  # noqa: E402

PLAYERS = 200
ROUNDS = 5
DEALS = 6
"""Each player deals 6 times a round: 24 hands at a table of four, 18 at a table of three."""
REPEATS = 15
STANDINGS_TARGET_MS = 200.0


def random_hand(rng: random.Random, active: list[str]) -> Hand:
    contract = rng.choice(["frage", "hand"])
    bid = rng.choice(range(66, 117, 5)) if contract == "hand" and rng.random() < 0.3 else 61
    return Hand(declarer=rng.choice(active), contract=contract, bid=bid, points=rng.randint(0, 120))


def build(app) -> tuple[int, str, int, list[int]]:
    """The tournament, every hand of every round recorded; returns its id, key, the number of
    hands and the table sizes of round 1."""
    rng = random.Random(2026)
    hands = 0
    with app.app_context(), held_open():  # commits of its own, a round at a time
        organiser = create_organiser("Bench", "bench@example.org", "bench-password")
        command = new_tournament(
            name="Bench-Turnier",
            day=date(2026, 3, 14),
            game="haferltarock",
            system="parlett-units",
            params={},
            rounds=ROUNDS,
            players=[f"Spieler {i:03d}" for i in range(1, PLAYERS + 1)],
            deals_per_player=DEALS,
        )
        tournament = ops.create_tournament(organiser, command)
        db.session.commit()
        sizes: list[int] = []
        for _ in range(ROUNDS):
            round_ = ops.draw_round(tournament, DrawRound())
            if not sizes:
                sizes = [len(t.session.players) for t in round_.tables]
            for table in round_.tables:
                session = table.session
                for _ in range(session.hands_planned):
                    dealer = session.state["next_dealer"]
                    active = [p for p in session.players if len(session.players) < 4 or p != dealer]
                    evenings.record_hand(session, RecordHand(random_hand(rng, active)))
                    hands += 1
            db.session.commit()
            if not round_.closed:
                raise SystemExit(f"round {round_.number} did not close by itself")
        return tournament.id, tournament.key, hands, sizes


def time_standings(app, tournament_id: int) -> list[float]:
    """`tournament_standings` in a fresh app context each time, as in a request."""
    timings = []
    for _ in range(REPEATS + 1):
        with app.app_context():
            tournament = db.session.get(Tournament, tournament_id)
            start = time.perf_counter()
            result = ops.tournament_standings(tournament)
            timings.append(time.perf_counter() - start)
            if len(result) != PLAYERS:
                raise SystemExit(f"standings list {len(result)} players, not {PLAYERS}")
    return timings[1:]


def time_page(app, path: str) -> list[float] | None:
    client = app.test_client()
    timings = []
    for _ in range(REPEATS + 1):  # the first render warms the template cache
        start = time.perf_counter()
        response = client.get(path)
        timings.append(time.perf_counter() - start)
        if response.status_code != 200:
            print(f"  {path}: status {response.status_code}")
            return None
    return timings[1:]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def main() -> None:
    warnings.simplefilter("ignore", DeprecationWarning)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "RATE_LIMITS": False,
            }
        )
        with app.app_context():
            db.create_all()

        built = time.perf_counter()
        tournament_id, key, hands, sizes = build(app)
        built = time.perf_counter() - built
        fours, threes = sizes.count(4), sizes.count(3)
        print(
            f"tournament: {PLAYERS} players × {ROUNDS} rounds, deals_per_player={DEALS} "
            f"(24 hands at a table of four, 18 at a table of three); round 1 has {fours} "
            f"tables of four and {threes} of three; {hands} hands in all (built in {built:.1f} s)"
        )

        standings = time_standings(app, tournament_id)
        print(
            f"tournament_standings, median of {REPEATS}: {ms(statistics.median(standings))}"
            f"   target < {STANDINGS_TARGET_MS:g} ms   (max {ms(max(standings)).strip()})"
        )
        page = time_page(app, f"/turnier/{key}/stand")
        if page is None:
            print("public standings page: not available")
        else:
            print(
                f"public standings page GET /turnier/{{key}}/stand, median of {REPEATS}: "
                f"{ms(statistics.median(page))}   (no target)"
            )
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main()
