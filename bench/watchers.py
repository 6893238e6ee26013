"""Benchmark: what devices that watch their table live cost the server, and whether they
slow the tablets that enter hands.

    .venv/bin/python bench/watchers.py [--watchers 50] [--tablets 20] [--seconds 20]
        [--pg-throwaway] [--skip-sqlite]

It starts `python -m scorer.serve` (what `make run` starts) on 127.0.0.1 through
`tests/support/servers.py` (SQLite; PostgreSQL too with `--pg-throwaway`, as `bench/load.py`),
opens 5 tables of 3 players, and runs three legs of `--seconds` each:

1. idle: `--watchers` devices watch the table pages (spread over the 5 tables) as
   static/js/live.js does: `GET /t/<key>` with `If-None-Match` and `X-Haferl-Live` every
   1.5 s, each on a connection of its own that it keeps open, while nothing changes;
2. tablets alone: `--tablets` tablets spread over the tables, each entering a hand about
   every 0.5 s (paced like `bench/load.py`'s paced legs: hundreds of times a real
   evening's rate) through the API, no watchers;
3. the same tablets with the watchers watching (every poll now finds a changed table and
   gets the whole page).

For each leg: requests answered per second, their answers (304, 200, 4xx, 5xx, no
answer), p50/p95/max, and the server's CPU time per second of wall time, as a share of
one core (all of its processes' user + system time, read from /proc). After the tablet
legs every acknowledged hand must be stored, numbered without a gap, with balances equal
to a fresh fold.
Timings are never asserted; the exit status is non-zero only when a check fails.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.client import HTTPConnection, HTTPException
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import (  # noqa: E402
    Leg,
    check_integrity,
    hand,
    new_table,
    postgres_workers,
    run_threads,
    throwaway_postgres,
    timed_call,
)

from tests.support.servers import LOOPBACK, migrate_fresh, start_server  # noqa: E402

TABLES = 5
POLL_S = 1.5
"""As static/js/live.js asks."""
PACE_S = 0.5


def server_cpu_seconds(group: int) -> float:
    """User + system CPU seconds of every live process in process group `group`."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def watch(
    port: int, keys: list[str], watchers: int, stop: threading.Event, leg: Leg, primed: bool
) -> None:
    """`watchers` threads polling the table pages until `stop`; answers counted in `leg`.
    `primed`: each starts with the page's current ETag, as a device that has the page."""
    statuses: Counter[int | None] = Counter()
    leg.statuses = statuses  # type: ignore[attr-defined]
    etags = {}
    for key in keys:
        connection = HTTPConnection(LOOPBACK, port, timeout=30)
        connection.request("GET", f"/t/{key}")
        response = connection.getresponse()
        response.read()
        etags[f"/t/{key}"] = response.getheader("ETag") or ""
        connection.close()

    def work(index: int, record: Callable) -> None:
        path = f"/t/{keys[index % len(keys)]}"
        etag = etags.get(path, "") if primed else ""
        connection = HTTPConnection(LOOPBACK, port, timeout=30)
        time.sleep(random.Random(index).uniform(0, POLL_S))  # devices do not poll in step
        while not stop.is_set():
            began = time.perf_counter()
            headers = {"X-Haferl-Live": "1"}
            if etag:
                headers["If-None-Match"] = etag
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
                status = response.status
                etag = response.getheader("ETag") or etag
            except (OSError, HTTPException):
                status = None
                connection.close()
                connection = HTTPConnection(LOOPBACK, port, timeout=30)
            seconds = time.perf_counter() - began
            record(status, seconds)
            statuses[status] += 1
            stop.wait(max(POLL_S - seconds, 0))
        connection.close()

    run_threads(leg, watchers, work)


def tablets_leg(
    port: int, url: str, keys: list[str], tablets: int, seconds: float, name: str
) -> Leg:
    """`tablets` paced tablets on the new tables `keys` for `seconds`; then the checks."""
    leg = Leg(name)
    acknowledged: list[list[int]] = [[] for _ in keys]
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def work(index: int, record: Callable) -> None:
        table = index % len(keys)
        jitter = random.Random(1000 + index)
        time.sleep(jitter.uniform(0, PACE_S))
        n = 0
        while time.monotonic() < deadline:
            status, answer, took = timed_call(
                port, "POST", f"/api/v1/sessions/{keys[table]}/hands", hand(index, n)
            )
            record(status, took)
            if status == 201:
                with lock:
                    acknowledged[table].append(answer["number"])
            n += 1
            time.sleep(max(jitter.uniform(0.5, 1.5) * PACE_S - took, 0))

    run_threads(leg, tablets, work)
    check_integrity(leg, port, url, keys, acknowledged)
    return leg


def line(leg: Leg, cpu: float) -> str:
    statuses = getattr(leg, "statuses", None)
    answers = (
        ", ".join(f"{k if k is not None else 'none'}: {v}" for k, v in sorted(statuses.items()))
        if statuses
        else f"2xx {leg.ok}, 4xx {leg.refused}, 5xx {leg.server_errors}, "
        f"none {leg.connection_errors}"
    )
    per_request = cpu / leg.requests * 1000 if leg.requests else float("nan")
    return (
        f"  {leg.name:<44} {leg.requests / leg.seconds:7.1f} req/s  "
        f"p50 {leg.percentile_ms(50):6.1f}  p95 {leg.percentile_ms(95):6.1f}  "
        f"max {leg.max_ms:7.1f} ms  server CPU {cpu / leg.seconds * 100:5.1f} % "
        f"({per_request:.2f} ms/request)  [{answers}]"
    )


def run_database(label: str, url: str, args, log: Path) -> bool:
    migrate_fresh(url)
    workers = None if url.startswith("sqlite") else postgres_workers()
    server = start_server(url, log, workers)
    ok = True
    try:
        port = server.port

        def tables() -> list[str]:  # fresh ones for each leg: its checks count from 1
            return [new_table(port) for _ in range(TABLES)]

        print(f"\n{label}: {args.watchers} watchers, {args.tablets} tablets, {TABLES} tables")

        def measured(run: Callable[[], Leg]) -> tuple[Leg, float]:
            before = server_cpu_seconds(server.process.pid)
            leg = run()
            return leg, server_cpu_seconds(server.process.pid) - before

        keys = tables()

        def watchers_only() -> Leg:
            leg = Leg(f"idle: {args.watchers} watchers, nothing changes")
            stop = threading.Event()
            timer = threading.Timer(args.seconds, stop.set)
            timer.start()
            watch(port, keys, args.watchers, stop, leg, primed=True)
            return leg

        idle, cpu = measured(watchers_only)
        print(line(idle, cpu))
        name = f"{args.tablets} tablets, no watchers"
        alone, cpu = measured(
            lambda: tablets_leg(port, url, tables(), args.tablets, args.seconds, name)
        )
        print(line(alone, cpu))
        watched = Leg(f"  the {args.watchers} watchers meanwhile")

        def together() -> Leg:
            keys = tables()
            stop = threading.Event()
            watcher = threading.Thread(
                target=watch, args=(port, keys, args.watchers, stop, watched, False)
            )
            watcher.start()
            leg = tablets_leg(
                port,
                url,
                keys,
                args.tablets,
                args.seconds,
                f"{args.tablets} tablets + {args.watchers} watchers",
            )
            stop.set()
            watcher.join()
            return leg

        both, cpu = measured(together)
        print(line(both, cpu))
        print(line(watched, 0).split("  server CPU")[0] + f"  [{dict(watched.statuses)}]")
        for leg in (alone, both):
            lost = leg.lost or 0
            print(
                f"  {leg.name}: hands acknowledged {leg.ok}, lost {lost}, 5xx "
                f"{leg.server_errors}, integrity "
                f"{'ok' if not leg.integrity else '; '.join(leg.integrity)}"
            )
            ok = ok and not leg.integrity and not leg.server_errors and not lost
        if idle.server_errors or watched.server_errors:
            ok = False
    finally:
        server.stop()
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--tablets", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pg-throwaway", action="store_true")
    parser.add_argument("--skip-sqlite", action="store_true")
    args = parser.parse_args()
    print(
        f"Watchers: {os.cpu_count()} CPUs; each watcher polls every {POLL_S} s, each tablet "
        f"sends a hand about every {PACE_S} s. Nothing is asserted."
    )
    ok = True
    with tempfile.TemporaryDirectory(prefix="haferl-watchers-") as tmp:
        if not args.skip_sqlite:
            url = f"sqlite:///{Path(tmp) / 'watchers.sqlite3'}"
            ok &= run_database("SQLite (1 process × 8 threads)", url, args, Path(tmp) / "s.log")
        if args.pg_throwaway:
            with throwaway_postgres() as url:
                label = f"PostgreSQL ({postgres_workers()} processes × 8 threads)"
                ok &= run_database(label, url, args, Path(tmp) / "p.log")
    print("\nchecks: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
