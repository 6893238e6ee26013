"""Benchmark: a tournament day at ten times its load. Do the tablets' hands stay quick while
hundreds of spectators watch the standings, and do the standings cost the same at the last
hand as at the first?

    .venv/bin/python bench/tournament_day.py [--seconds 60] [--spectators 100,200]
        [--tablets 50] [--pg-throwaway] [--skip-sqlite]

It starts `python -m scorer.serve` (what `make run` starts: gunicorn with its worker, access
log and all) on 127.0.0.1 through `tests/servers.py`: on a SQLite file (one process), and
with `--pg-throwaway` also on a PostgreSQL of its own (`bench/load.py`; the processes
`scorer.serve` gives it). On each, a 200-player tournament (haferltarock, parlett-units,
each player dealing 20 times a round, so no table finishes during the run) has its first
round drawn: 50 tables of four, the dealer sitting out. Then:

1. the anchor: `--tablets` threads asking `GET /api/v1/games` as fast as they can;
2. the standings' idle cost at the start: nothing else running, 20 times a hand is
   recorded (so the next answer is rendered afresh) and, 0.6 s later (after the page kept
   for 0.5 s), the public standings JSON and page are fetched in full;
3. one leg per `--spectators` count, `--seconds` each, on the same tournament: `--tablets`
   tablets (one per table) each send a hand about every 2 s (0.5–1.5 × at random) with its
   number and an Idempotency-Key, as the table page does; the spectators each watch the
   standings page as static/live.js does (`If-None-Match`, `X-Haferl-Live: 1`,
   `Accept-Encoding: gzip, deflate` as Chromium sends over http, every 2 s, each on a
   kept-alive connection of its own); 5 projectors ask for the standings JSON every 2 s
   the same way; and a probe asks for the JSON every 0.1 s to see how long after a hand's
   201 the standings show it (tablet 0's players' totals equal the sums of the nets its
   201s reported);
4. the idle cost again, at the end (about 3,000 hands with the defaults);
5. the checks: every acknowledged hand stored, numbered without a gap, each table's
   balances equal to a fresh fold, and the kept standings equal to a fresh fold of every
   hand (`tournament_operations.fresh_standings`).

Printed per leg: hands/s recorded, hand POST p50/p95/max, standings page and JSON
p50/p95/max and their answers (200, 304, 4xx, 5xx, no answer), the bytes of a standings
answer, the server's CPU (as a share of one core), the delay until the standings show a hand
(p50/p95/max), and the targets beside them. Timings are never asserted; the exit status is
non-zero only when a check fails.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import date
from http.client import HTTPConnection, HTTPException
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import (  # noqa: E402
    Leg,
    anchor,
    check_integrity,
    postgres_workers,
    run_threads,
    server_log_errors,
    throwaway_postgres,
)
from watchers import server_cpu_seconds  # noqa: E402

from tests.servers import LOOPBACK, call, migrate_fresh, start_server  # noqa: E402

PLAYERS = 200
DEALS = 20
"""Each player deals 20 times: 80 hands at a table of four, more than a run records."""
PACE_S = 2.0
POLL_S = 2.0
PROJECTORS = 5
PROBE_S = 0.1
IDLE_SAMPLES = 20
HAND_P95_TARGET_MS = 100.0
STANDINGS_P95_TARGET_MS = 100.0
SHOWN_WITHIN_S = 2.0
IDLE_GROWTH_TARGET = 2.0
BROWSER = {"Accept-Encoding": "gzip, deflate"}


class Watched(Leg):
    """A Leg that also counts statuses and bytes (from many threads, under its lock)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.statuses: Counter[int | None] = Counter()
        self.bytes: list[int] = []
        self.lock = threading.Lock()

    def answered(self, status: int | None, seconds: float, size: int) -> None:
        with self.lock:
            self.add(status, seconds)
            self.statuses[status] += 1
            if status == 200:
                self.bytes.append(size)


def organiser_and_tournament(url: str) -> tuple[int, str]:
    """An organiser and the tournament, made in-process on the database (as
    bench/tournament.py does); returns its id and public key."""
    from scorer import create_app
    from scorer import tournament_operations as ops
    from scorer.auth.routes import create_organiser
    from scorer.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    with app.app_context():
        organiser = create_organiser("Bench", "bench@example.org", "bench-password")
        tournament = ops.create_tournament(
            organiser,
            "Turniertag",
            date(2026, 3, 14),
            "haferltarock",
            "parlett-units",
            {},
            1,
            [f"Spieler {n}" for n in range(1, PLAYERS + 1)],
            DEALS,
        )
        ops.draw_round(tournament)
        db.session.commit()
        ids = tournament.id, tournament.key
        db.session.remove()
        db.engine.dispose()
    return ids


class Tables:
    """The round's tables as the tablets know them: key, players, next number, and the
    totals their 201s add up to."""

    def __init__(self, port: int, url: str, tournament_id: int):
        from scorer import create_app
        from scorer.extensions import db
        from scorer.models import Tournament

        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
        with app.app_context():
            tournament = db.session.get(Tournament, tournament_id)
            self.keys = [t.session.key for t in tournament.round_list[0].tables]
            db.session.remove()
            db.engine.dispose()
        self.port = port
        self.acknowledged: list[list[int]] = [[] for _ in self.keys]
        self.lock = threading.Lock()

    def state(self, table: int) -> dict[str, Any]:
        status, body = call(self.port, "GET", f"/api/v1/sessions/{self.keys[table]}")
        if status != 200:
            raise RuntimeError(f"table {table}: {status} {body}")
        return body

    def send(self, table: int, state: dict[str, Any], n: int) -> tuple[int | None, Any, float]:
        """Hand number `n` at `table` in `state`: (status, answer, seconds)."""
        active = [p for p in state["players"] if p != state["sitting_out_next"]]
        rng = random.Random(table * 100_003 + n)
        hand = {
            "declarer": rng.choice(active),
            "contract": "frage",
            "points": rng.randint(0, 120),
            "number": n,
        }
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        began = time.perf_counter()
        try:
            status, answer = call(
                self.port, "POST", f"/api/v1/sessions/{self.keys[table]}/hands", hand, headers
            )
        except (OSError, HTTPException):
            return None, None, time.perf_counter() - began
        took = time.perf_counter() - began
        if status == 201:
            with self.lock:
                self.acknowledged[table].append(answer["number"])
        return status, answer, took


def idle_cost(port: int, tables: Tables, key: str) -> dict[str, float]:
    """Median and p95 (ms) of a fresh standings JSON and page on an otherwise idle server."""
    json_times, page_times = [], []
    for sample in range(IDLE_SAMPLES):
        table = sample % len(tables.keys)
        state = tables.state(table)
        status, _, _ = tables.send(table, state, state["hand_count"] + 1)
        if status != 201:
            raise RuntimeError(f"idle sample: hand answered {status}")
        time.sleep(0.6)
        for path, times in (
            (f"/api/v1/standings/{key}", json_times),
            (f"/turnier/{key}/stand", page_times),
        ):
            began = time.perf_counter()
            status, _ = call(port, "GET", path)
            times.append((time.perf_counter() - began) * 1000)
            if status != 200:
                raise RuntimeError(f"idle sample: {path} answered {status}")

    def p95(values: list[float]) -> float:
        return statistics.quantiles(values, n=20, method="inclusive")[-1]

    return {
        "json p50": statistics.median(json_times),
        "json p95": p95(json_times),
        "page p50": statistics.median(page_times),
        "page p95": p95(page_times),
    }


def poll(
    port: int,
    path: str,
    leg: Watched,
    stop: threading.Event,
    index: int,
    every: float,
    on_answer: Callable[[int, bytes], None] | None = None,
) -> None:
    """Ask for `path` every `every` seconds as static/live.js does, on one kept-alive
    connection, until `stop`."""
    connection = HTTPConnection(LOOPBACK, port, timeout=30)
    etag = ""
    time.sleep(random.Random(index).uniform(0, every))  # devices do not ask in step
    while not stop.is_set():
        headers = {**BROWSER, "X-Haferl-Live": "1"}
        if etag:
            headers["If-None-Match"] = etag
        began = time.perf_counter()
        status, body = None, b""
        for _ in range(2):  # a kept-alive connection the server closed: once more, anew
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                body = response.read()
                status = response.status
                etag = response.getheader("ETag") or etag
                break
            except (OSError, HTTPException):
                connection.close()
                connection = HTTPConnection(LOOPBACK, port, timeout=30)
        took = time.perf_counter() - began
        leg.answered(status, took, len(body))
        if on_answer is not None and status == 200:
            on_answer(status, body)
        stop.wait(max(every - took, 0))
    connection.close()


class Freshness:
    """How long after a 201 at table 0 the standings JSON shows its players' totals."""

    def __init__(self, balances: dict[str, int]) -> None:
        self.lock = threading.Lock()
        self.totals = {name: cents for name, cents in balances.items() if name != "pot"}
        self.pending: list[tuple[float, dict[str, int]]] = []
        self.delays: list[float] = []

    def acknowledged(self, answer: dict[str, Any]) -> None:
        with self.lock:
            for name, points in answer["net"].items():
                if name != "pot":
                    self.totals[name] = self.totals.get(name, 0) + points
            self.pending.append((time.perf_counter(), dict(self.totals)))

    def seen(self, body: bytes) -> None:
        import gzip
        import json
        import zlib

        try:
            data = json.loads(body)
        except ValueError:
            try:
                data = json.loads(gzip.decompress(body))
            except OSError:
                data = json.loads(zlib.decompress(body))
        shown = {line["player"]: line["total"] for line in data}
        now = time.perf_counter()
        with self.lock:
            for index in range(len(self.pending) - 1, -1, -1):
                at, totals = self.pending[index]
                if all(shown.get(name) == total for name, total in totals.items()):
                    self.delays += [now - t for t, _ in self.pending[: index + 1]]
                    del self.pending[: index + 1]
                    break


def busy_leg(port: int, tables: Tables, key: str, spectators: int, args) -> dict[str, Any]:
    hands = Leg(f"{args.tablets} tablets, a hand every {PACE_S:.0f} s each")
    page = Watched(f"{spectators} spectators, standings page every {POLL_S:.0f} s")
    projectors = Watched(f"{PROJECTORS} projectors, standings JSON every {POLL_S:.0f} s")
    probe = Watched(f"probe, standings JSON every {PROBE_S} s")
    stop = threading.Event()
    deadline = time.monotonic() + args.seconds
    states = [tables.state(t) for t in range(args.tablets)]
    fresh = Freshness(states[0]["balances"])

    def tablet(index: int, record: Callable) -> None:
        state = states[index]
        jitter = random.Random(7 + index)
        time.sleep(jitter.uniform(0, PACE_S))
        while time.monotonic() < deadline:
            status, answer, took = tables.send(index, state, state["hand_count"] + 1)
            record(status, took)
            if status == 201:
                state = {**state, "hand_count": answer["number"]}
                state["sitting_out_next"] = next_sitting_out(state["players"], answer)
                if index == 0:
                    fresh.acknowledged(answer)
            else:  # find out where the table stands, as the page would
                state = tables.state(index)
            time.sleep(max(jitter.uniform(0.5, 1.5) * PACE_S - took, 0))

    watchers = [
        threading.Thread(target=poll, args=(port, f"/turnier/{key}/stand", page, stop, i, POLL_S))
        for i in range(spectators)
    ] + [
        threading.Thread(
            target=poll, args=(port, f"/api/v1/standings/{key}", projectors, stop, i, POLL_S)
        )
        for i in range(PROJECTORS)
    ]
    watchers.append(
        threading.Thread(
            target=poll,
            args=(port, f"/api/v1/standings/{key}", probe, stop, 0, PROBE_S),
            kwargs={"on_answer": lambda status, body: fresh.seen(body)},
        )
    )
    began = time.perf_counter()
    for watcher in watchers:
        watcher.start()
    run_threads(hands, args.tablets, tablet)
    time.sleep(SHOWN_WITHIN_S)  # the last hands' chance to show
    stop.set()
    for watcher in watchers:
        watcher.join()
    wall = time.perf_counter() - began
    for leg in (page, projectors, probe):
        leg.seconds = wall
    return {
        "hands": hands,
        "page": page,
        "projectors": projectors,
        "fresh": fresh,
        "unseen": len(fresh.pending),
    }


def next_sitting_out(players: list[str], answer: dict[str, Any]) -> str:
    """Who sits out the next hand at a table of four: the next dealer after this one."""
    return players[(players.index(answer["dealer"]) + 1) % len(players)]


def check_standings(url: str, tournament_id: int) -> list[str]:
    from scorer import create_app
    from scorer import tournament_operations as ops
    from scorer.extensions import db
    from scorer.models import Tournament

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        same = ops.tournament_standings(tournament) == ops.fresh_standings(tournament)
        db.session.remove()
        db.engine.dispose()
    return [] if same else ["the kept standings differ from a fresh fold of the hands"]


def ms(leg: Leg) -> str:
    return (
        f"p50 {leg.percentile_ms(50):6.1f}  p95 {leg.percentile_ms(95):6.1f}  "
        f"max {leg.max_ms:7.1f} ms"
    )


def target(value: float, limit: float) -> str:
    return "ok" if value < limit else "MISSED"


def run_database(label: str, url: str, args, log: Path) -> bool:
    migrate_fresh(url)
    tournament_id, key = organiser_and_tournament(url)
    workers = None if url.startswith("sqlite") else postgres_workers()
    server = start_server(url, log, workers)
    ok = True
    try:
        port = server.port
        tables = Tables(port, url, tournament_id)
        print(f"\n{label}: {PLAYERS} players at {len(tables.keys)} tables, {args.tablets} tablets")
        games = anchor(port, args.tablets, 20)
        print(
            f"  anchor GET /api/v1/games, {args.tablets} at once: "
            f"{games.rate:7.1f} req/s  {ms(games)}"
        )
        start = idle_cost(port, tables, key)
        print("  standings, idle, at the start:  " + idle_line(start))
        for spectators in args.spectators:
            before = server_cpu_seconds(server.process.pid)
            result = busy_leg(port, tables, key, spectators, args)
            cpu = server_cpu_seconds(server.process.pid) - before
            hands, page, projectors = result["hands"], result["page"], result["projectors"]
            delays = result["fresh"].delays
            print(
                f"  leg: {spectators} spectators, {args.seconds:.0f} s "
                f"(server CPU {cpu / page.seconds * 100:.0f} % of a core)"
            )
            print(
                f"    hand POST       {hands.rate:6.1f} hands/s  {ms(hands)}  "
                f"[2xx {hands.ok}, 4xx {hands.refused}, 5xx {hands.server_errors}, "
                f"none {hands.connection_errors}]  target p95 < {HAND_P95_TARGET_MS:.0f} ms: "
                f"{target(hands.percentile_ms(95), HAND_P95_TARGET_MS)}"
            )
            for leg in (page, projectors):
                size = statistics.median(leg.bytes) if leg.bytes else 0
                print(
                    f"    {leg.name:<44} {ms(leg)}  {dict(leg.statuses)}  "
                    f"{size / 1000:.1f} kB a page  target p95 < "
                    f"{STANDINGS_P95_TARGET_MS:.0f} ms: "
                    f"{target(leg.percentile_ms(95), STANDINGS_P95_TARGET_MS)}"
                )
            if delays:
                worst = max(delays)
                print(
                    f"    shown in the standings after a 201: p50 "
                    f"{statistics.median(delays) * 1000:.0f}  p95 "
                    f"{statistics.quantiles(delays, n=20, method='inclusive')[-1] * 1000:.0f}"
                    f"  max {worst * 1000:.0f} ms ({len(delays)} hands, "
                    f"{result['unseen']} never seen)  target < {SHOWN_WITHIN_S:.0f} s: "
                    f"{target(worst, SHOWN_WITHIN_S)}"
                )
            errors = hands.server_errors + hands.connection_errors + page.server_errors
            errors += page.connection_errors + projectors.server_errors
            errors += projectors.connection_errors
            ok = ok and not errors and not result["unseen"]
        end = idle_cost(port, tables, key)
        stored = sum(tables.state(t)["hand_count"] for t in range(len(tables.keys)))
        print(f"  standings, idle, at the end ({stored} hands):  " + idle_line(end))
        growth = end["json p50"] / start["json p50"], end["page p50"] / start["page p50"]
        print(
            f"    growth of the median: JSON {growth[0]:.2f}×, page {growth[1]:.2f}×  "
            f"target within {IDLE_GROWTH_TARGET:.0f}×: "
            f"{target(max(growth), IDLE_GROWTH_TARGET)}"
        )
        check = Leg("integrity")
        check_integrity(check, port, url, tables.keys, tables.acknowledged)
        problems = (check.integrity or []) + check_standings(url, tournament_id)
        acknowledged = sum(len(a) for a in tables.acknowledged)
        print(
            f"  acknowledged {acknowledged}, lost {check.lost}, integrity "
            f"{'ok' if not problems else '; '.join(problems[:5])}"
        )
        ok = ok and not problems and not check.lost
    finally:
        server.stop()
    log_errors = server_log_errors(log)
    if log_errors:
        print(f"  error lines in the server log {log}:")
        for entry in log_errors[:10]:
            print(f"    {entry}")
        ok = False
    return ok


def idle_line(cost: dict[str, float]) -> str:
    return (
        f"JSON p50 {cost['json p50']:.1f} p95 {cost['json p95']:.1f} ms, "
        f"page p50 {cost['page p50']:.1f} p95 {cost['page p95']:.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--spectators", type=lambda text: [int(n) for n in text.split(",")], default=[100, 200]
    )
    parser.add_argument("--tablets", type=int, default=50)
    parser.add_argument("--pg-throwaway", action="store_true")
    parser.add_argument("--skip-sqlite", action="store_true")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        if not args.skip_sqlite:
            url = f"sqlite:///{Path(folder) / 'day.sqlite3'}"
            ok = run_database("SQLite", url, args, Path(folder) / "sqlite.log") and ok
        if args.pg_throwaway:
            with throwaway_postgres() as url:
                label = f"PostgreSQL ({postgres_workers()} processes)"
                ok = run_database(label, url, args, Path(folder) / "postgres.log") and ok
    print("\nall checks passed" if ok else "\nA CHECK FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
