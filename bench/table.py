"""Benchmark: the server time to record one hand, and to render the table page, as an
evening grows.

Run: `.venv/bin/python bench/table.py`. Everything goes through the Flask test client on a
SQLite file database in a temporary directory. For sessions that already hold 10, 100 and
1000 hands (4 players, haferltarock / parlett-units; the earlier hands are built directly
through `scorer.services.tables`), it times `RECORDS` more `POST /api/v1/sessions/{key}/hands` and
prints the median, then the ratio of 1000 to 10, then the median time of `GET /t/{key}`
for the 1000-hand session. Targets are printed beside the figures; nothing is asserted.
The best (minimum) time is printed too: on a busy machine the medians include waits for the
disk (every record commits to the SQLite file) and for the CPU.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer import create_app  # noqa: E402
from scorer.domain import Hand, commands  # noqa: E402
from scorer.domain.commands import RecordHand
from scorer.services import tables  # noqa: E402
from scorer.store.database import db, held_open

PLAYERS = ["Anton", "Berta", "Charlotte", "Dieter"]
SIZES = (10, 100, 1000)
RECORDS = 30
PAGE_RENDERS = 20
RECORD_TARGET_MS = 5.0
RECORD_RATIO_TARGET = 2.0
PAGE_TARGET_MS = 30.0

# A varied evening: Frage won and lost (through the Haferl, with round ends and refills),
# hand games won and lost (paid directly).
PATTERN = [
    ("frage", 70, 61),
    ("hand", 83, 76),
    ("frage", 52, 61),
    ("frage", 120, 61),
    ("hand", 58, 61),
    ("frage", 95, 61),
    ("hand", 101, 66),
    ("frage", 61, 61),
]


def next_after(dealer: str) -> str:
    return PLAYERS[(PLAYERS.index(dealer) + 1) % len(PLAYERS)]


def hand_facts(i: int, dealer: str) -> dict:
    contract, points, bid = PATTERN[i % len(PATTERN)]
    # The player after the dealer declares; the dealer sits out at a table of four.
    return {"declarer": next_after(dealer), "contract": contract, "points": points, "bid": bid}


def build_session(app, hands: int) -> str:
    """A session with `hands` earlier hands, built through the tables' service in one
    transaction."""
    with app.app_context(), held_open():  # one commit for all
        session = tables.create_session(
            commands.open_table(
                name=f"Bench {hands}",
                game="haferltarock",
                system="parlett-units",
                params={},
                players=PLAYERS,
                first_dealer=PLAYERS[-1],
            )
        )
        dealer = session.first_dealer
        for i in range(hands):
            tables.record_hand(session, RecordHand(Hand(**hand_facts(i, dealer))))
            dealer = next_after(dealer)
        db.session.commit()
        return session.key


def time_records(app, key: str) -> list[float]:
    client = app.test_client()
    dealer = client.get(f"/api/v1/sessions/{key}").get_json()["next_dealer"]
    timings = []
    for i in range(RECORDS):
        body = hand_facts(i, dealer)
        start = time.perf_counter()
        response = client.post(f"/api/v1/sessions/{key}/hands", json=body)
        timings.append(time.perf_counter() - start)
        if response.status_code != 201:
            raise SystemExit(f"recording failed: {response.status_code} {response.get_data()!r}")
        dealer = next_after(dealer)
    return timings


def time_page(app, path: str) -> list[float] | None:
    """Render times of GET `path`, or None if the page is not available (404, 500, …)."""
    client = app.test_client()
    timings = []
    for _ in range(PAGE_RENDERS + 1):  # the first render warms the template cache
        start = time.perf_counter()
        try:
            response = client.get(path)
        except Exception:  # a page being written may still raise
            return None
        timings.append(time.perf_counter() - start)
        if response.status_code != 200:
            return None
    return timings[1:]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def main() -> None:
    warnings.simplefilter("ignore", DeprecationWarning)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()

        medians: dict[int, float] = {}
        keys: dict[int, str] = {}
        print(f"record one hand (POST /api/v1/sessions/{{key}}/hands), median of {RECORDS}:")
        for size in SIZES:
            built = time.perf_counter()
            keys[size] = build_session(app, size)
            built = time.perf_counter() - built
            timings = time_records(app, keys[size])
            medians[size] = statistics.median(timings)
            target = f"target < {RECORD_TARGET_MS:g} ms" if size == SIZES[-1] else ""
            print(
                f"  after {size:5d} hands: {ms(medians[size])}   {target:<18}"
                f"(best {ms(min(timings)).strip()}; built in {built:.2f} s)"
            )
        ratio = medians[SIZES[-1]] / medians[SIZES[0]]
        print(
            f"  ratio {SIZES[-1]} vs {SIZES[0]}: {ratio:.2f}×   target ≤ {RECORD_RATIO_TARGET:g}×"
        )

        big = keys[SIZES[-1]]
        page = time_page(app, f"/t/{big}")
        if page is None:
            print("table page: not available")
        else:
            print(
                f"table page GET /t/{{key}} with {SIZES[-1]}+{RECORDS} hands, median of "
                f"{PAGE_RENDERS}: {ms(statistics.median(page))}   target < {PAGE_TARGET_MS:g} ms"
                f"   (best {ms(min(page)).strip()})"
            )
        # For information (no target): the full hand list of the same session.
        page = time_page(app, f"/t/{big}/spiele")
        if page is not None:
            print(
                f"hand list GET /t/{{key}}/spiele, same session, median of {PAGE_RENDERS}: "
                f"{ms(statistics.median(page))}   (no target)"
            )
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main()
