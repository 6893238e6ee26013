"""Benchmark: a Stammtisch's years in one archive: how long its export and its import
take, how large the file is, and how much memory the import needs.

    .venv/bin/python bench/archive.py [--evenings 100] [--hands 40] [--season-every 25]

A group is built through the API (Flask test client, SQLite file in a temporary
directory): `--evenings` evenings of three players with `--hands` hands each (random
Frage, Solo and Bettel hands, seeded), the Haferl carried, a season closed every
`--season-every` evenings. Its archive is fetched (`GET /api/v1/groups/<key>/archive.json`)
and imported into a second app on a database of its own (`POST /api/v1/groups/import`),
then the two groups' evenings are compared (balances, settle-ups, the Haferl, seasons).
Prints the file's size, export and import seconds (wall), hands imported per second, and
the peak of Python memory of a second, traced import (tracemalloc). Nothing is asserted
but the comparison.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer import create_app  # noqa: E402
from scorer.store.database import db

API = "/api/v1"
PLAYERS = ["Anton", "Berta", "Charlotte"]


def app_in(directory: Path):
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{directory / 'bench.sqlite3'}",
            "SECRET_KEY": "bench",
            "RATE_LIMITS": False,
            "WTF_CSRF_ENABLED": False,
            "PDF_CACHE": str(directory / "pdf-cache"),
        }
    )
    with app.app_context():
        db.create_all()
    return app


def build(client, evenings: int, hands: int, season_every: int, rng: random.Random) -> str:
    body = {
        "name": "Donnerstagsrunde",
        "game": "haferltarock",
        "system": "parlett-units",
        "members": PLAYERS,
    }
    key = client.post(f"{API}/groups", json=body).get_json()["key"]
    for number in range(1, evenings + 1):
        session = client.post(f"{API}/groups/{key}/evenings", json={"players": PLAYERS})
        table = session.get_json()["key"]
        for _ in range(hands):
            contract = rng.choice(["frage", "frage", "hand"])
            hand = {
                "declarer": rng.choice(PLAYERS),
                "contract": contract,
                "points": rng.randint(25, 110),
            }
            if contract == "hand":
                hand["bid"] = rng.choice([61, 66, 71])
            answer = client.post(f"{API}/sessions/{table}/hands", json=hand)
            assert answer.status_code == 201, answer.get_json()
        assert client.post(f"{API}/sessions/{table}/close").status_code == 200
        if number % season_every == 0 and number < evenings:
            assert client.post(f"{API}/groups/{key}/season/close").status_code == 200
    return key


def answers(client, key: str) -> dict:
    group = client.get(f"{API}/groups/{key}").get_json()
    return {
        "pot": group["pot_cents"],
        "season": group["season"],
        "closed_seasons": group["closed_seasons"],
        "evenings": [
            client.get(f"{API}/sessions/{ev['key']}/settlement").get_json()["balances"]
            for ev in group["evenings"]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=100)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--season-every", type=int, default=25)
    args = parser.parse_args()
    rng = random.Random(28)
    with tempfile.TemporaryDirectory() as scratch:
        first, second = Path(scratch, "first"), Path(scratch, "second")
        first.mkdir()
        second.mkdir()
        source = app_in(first).test_client()
        target = app_in(second).test_client()
        started = time.perf_counter()
        key = build(source, args.evenings, args.hands, args.season_every, rng)
        built = time.perf_counter() - started
        started = time.perf_counter()
        response = source.get(f"{API}/groups/{key}/archive.json")
        exported = time.perf_counter() - started
        document = response.get_data()
        started = time.perf_counter()
        made = target.post(f"{API}/groups/import", data=document, content_type="application/json")
        imported = time.perf_counter() - started
        assert made.status_code == 201, made.get_json()
        tracemalloc.start()  # a second import, traced (tracing slows it: not timed)
        again = target.post(f"{API}/groups/import", data=document, content_type="application/json")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert again.status_code == 201, again.get_json()
        same = answers(source, key) == answers(target, made.get_json()["key"])
        total = args.evenings * args.hands
        print(
            f"{args.evenings} evenings × {args.hands} hands = {total} hands "
            f"(built through the API in {built:.1f} s)"
        )
        print(f"archive: {len(document) / 1024:.0f} KiB ({len(document) / total:.0f} bytes a hand)")
        print(f"export:  {exported:.2f} s")
        print(
            f"import:  {imported:.2f} s ({total / imported:.0f} hands/s), Python memory peak "
            f"{peak / 2**20:.0f} MiB"
        )
        print(f"same balances, settle-ups, Haferl and seasons after the import: {same}")
        json.loads(document)  # the file is JSON


if __name__ == "__main__":
    main()
