"""Benchmark: what one request costs on an evening of 2,000 hands (the most an evening
holds): record a hand, edit hand #5, the hand list page, the session JSON, the table page,
the PDF score sheet rendered and then read from the cache.

Run: `.venv/bin/python bench/big_evening.py [--hands 2000]`. Requests go through the Flask
test client on a SQLite file in a temporary directory (PostgreSQL when
SCORER_BENCH_DATABASE_URL is set); the evening is built directly through `scorer.services.tables`.
Each figure is the median of a few runs, with the response size. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer import create_app  # noqa: E402
from scorer.domain import Hand, commands  # noqa: E402
from scorer.domain.commands import RecordHand
from scorer.services import tables  # noqa: E402
from scorer.store.database import db, held_open

PLAYERS = ["Anton", "Berta", "Charlotte", "Dieter"]


def build(app, hands: int) -> str:
    with app.app_context(), held_open():  # commits of its own, in batches
        session = tables.create_session(
            commands.open_table(
                name="Großer Abend",
                game="tarok",
                system="points-kasse",
                params={},
                players=PLAYERS,
                first_dealer=PLAYERS[0],
            )
        )
        for n in range(hands):
            dealer = session.state["next_dealer"]
            declarer = [p for p in PLAYERS if p != dealer][n % 3]
            hand = Hand(declarer, "frage", trump="gras", points=40 + (n * 37) % 80)
            tables.record_hand(session, RecordHand(hand))
            if n % 200 == 199:
                db.session.commit()
        db.session.commit()
        return session.key


def timed(fn, runs: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        response = fn()
        times.append(time.perf_counter() - start)
        assert response.status_code < 400, (response.status_code, response.data[:300])
        size = len(response.data)
    return statistics.median(times) * 1000, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("SCORER_BENCH_DATABASE_URL") or f"sqlite:///{tmp}/big.sqlite3"
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url,
                "SECRET_KEY": "bench",
                "RATE_LIMITS": False,
                "PDF_CACHE": f"{tmp}/pdf-cache",
            }
        )
        with app.app_context():
            db.drop_all()
            db.create_all()
        start = time.perf_counter()
        key = build(app, args.hands - 1)
        print(f"{args.hands - 1} hands built in {time.perf_counter() - start:.1f} s ({url[:10]}…)")
        client = app.test_client()
        api = f"/api/v1/sessions/{key}"

        print(f"{'request':<34}{'median ms':>10}{'bytes':>11}")
        figures = []
        ms, size = timed(
            lambda: client.post(
                f"{api}/hands",
                json={
                    "declarer": "Berta",
                    "contract": "frage",
                    "trump": "gras",
                    "points": 70,
                    "dealer": "Anton",
                },
            ),
            1,
        )
        figures.append((f"record hand #{args.hands}", ms, size))
        versions = iter(range(1, 100))

        def edit():
            version = next(versions)
            points = 50 + version
            return client.put(
                f"{api}/hands/5",
                json={
                    "declarer": "Charlotte",
                    "contract": "frage",
                    "trump": "gras",
                    "points": points,
                    "version": version,
                },
            )

        figures.append(("edit hand #5 (folds again from #5)", *timed(edit, 3)))
        figures.append(
            ("hand list page (/spiele)", *timed(lambda: client.get(f"/t/{key}/spiele"), 5))
        )
        figures.append(
            ("hand list, page 1", *timed(lambda: client.get(f"/t/{key}/spiele?seite=1"), 5))
        )
        figures.append(("table page", *timed(lambda: client.get(f"/t/{key}"), 5)))
        figures.append(("session JSON (every hand)", *timed(lambda: client.get(api), 5)))
        figures.append(
            ("PDF, first (rendered)", *timed(lambda: client.get(f"{api}/export.pdf"), 1))
        )
        figures.append(("PDF, again (cached)", *timed(lambda: client.get(f"{api}/export.pdf"), 5)))
        for name, ms, size in figures:
            print(f"{name:<34}{ms:>10.1f}{size:>11,}")
        with app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()


if __name__ == "__main__":
    main()
