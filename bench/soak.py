"""Benchmark: ten hours in thirty minutes. Does the server's memory, its open files or its
threads grow while a tournament day goes on?

    .venv/bin/python bench/soak.py [--minutes 30] [--players 200] [--spectators 200]
        [--round-seconds 120] [--warm-up 5] [--pg-throwaway] [--skip-sqlite]

It starts `python -m scorer.serve` (what `make run` starts) on 127.0.0.1 as
bench/tournament_day.py does, on a SQLite file in a temporary directory (and with
`--pg-throwaway` on a PostgreSQL of its own), and plays a tournament of `--players`
(20 rounds, each player dealing 20 times a round) with that bench's devices: one tablet
per table sending a hand about every 2 s with its number and an Idempotency-Key (20 times
a real table's pace), `--spectators` phones on the standings page every 2 s with their
ETag, 5 projectors on the standings JSON, and the probe. Every `--round-seconds` the round
is checked (every acknowledged hand stored once, each table's balances the fold of its
hands), closed and the next one drawn over the API, as a director does: the spectators
come back, the tables are new, the standings grow. 30 minutes at this pace are about
45,000 hands with 200 players, more than a ten-hour day of real tables.

Every minute it prints, for the server's processes together (gunicorn and its workers,
and the backup keeper on SQLite; a PDF child while one renders): RSS (MB), open files
(`/proc/<pid>/fd`), threads, and the hands stored so far. At the end: the growth of each
from the first sample after `--warm-up` minutes to the last (the target: under 10 %), and
the standings kept by the server against a fresh fold of every hand. Nothing is asserted;
the exit status is non-zero only when an integrity check fails.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import io
import os
import platform
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import (  # noqa: E402
    Leg,
    check_integrity,
    postgres_workers,
    server_log_errors,
    throwaway_postgres,
)
from tournament_day import (  # noqa: E402
    DEALS,
    EMAIL,
    PASSWORD,
    Tournament,
    busy_leg,
    group_processes,
    kept_against_fresh,
    make_organiser,
    mark,
    stored_hands,
)

from tests.support.servers import call, migrate_fresh, start_server  # noqa: E402

ROUNDS = 20
GROWTH_TARGET = 0.10
AUTH = {"Authorization": "Basic " + base64.b64encode(f"{EMAIL}:{PASSWORD}".encode()).decode()}


@dataclass(frozen=True)
class Sample:
    minute: float
    rss_mb: float
    files: int
    threads: int
    hands: int


def sample(group: int, minute: float, hands: int) -> Sample:
    """RSS, open files and threads of every process of the server's process group."""
    rss_kb = files = threads = 0
    for pid in group_processes(group):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss_kb += int(line.split()[1])
                elif line.startswith("Threads:"):
                    threads += int(line.split()[1])
            files += len(os.listdir(f"/proc/{pid}/fd"))
    return Sample(minute, rss_kb / 1024, files, threads, hands)


def print_sample(s: Sample) -> None:
    print(
        f"  minute {s.minute:5.1f}: RSS {s.rss_mb:6.1f} MB  open files {s.files:4d}  "
        f"threads {s.threads:3d}  hands stored {s.hands:6d}",
        flush=True,
    )


class Played:
    """The hands stored in the rounds closed so far, and the round being played."""

    def __init__(self) -> None:
        self.closed_hands = 0
        self.current: Tournament | None = None

    def hands(self) -> int:
        current = self.current
        return self.closed_hands + (stored_hands(current) if current is not None else 0)


def open_tournament(port: int, players: int) -> tuple[int, str, list[dict]]:
    body = {
        "name": "Dauerlauf",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": ROUNDS,
        "deals_per_player": DEALS,
        "players": [f"Spieler {n:0{len(str(players))}d}" for n in range(1, players + 1)],
    }
    status, made = call(port, "POST", "/api/v1/tournaments", body, AUTH)
    if status != 201:
        raise RuntimeError(f"POST /api/v1/tournaments: {status} {made}")
    return made["id"], made["key"], next_round(port, made["id"])


def next_round(port: int, tournament_id: int) -> list[dict]:
    path = f"/api/v1/tournaments/{tournament_id}/rounds"
    status, round_ = call(port, "POST", path, {}, AUTH)
    if status != 201:
        raise RuntimeError(f"POST {path}: {status} {round_}")
    return round_["tables"]


def check_round(tournament: Tournament, url: str) -> list[str]:
    check = Leg("integrity")
    tables = tournament.tables
    check_integrity(
        check, tournament.port, url, [t.key for t in tables], [t.acknowledged for t in tables]
    )
    return [*(check.integrity or []), *([f"{check.lost} lost"] if check.lost else [])]


def growth_line(name: str, first: float, last: float, unit: str) -> tuple[str, bool]:
    growth = (last - first) / first if first else 0.0
    flat = growth < GROWTH_TARGET
    line = (
        f"{name}: {first:.1f} → {last:.1f} {unit}, {growth * 100:+.1f} % "
        f"(< {GROWTH_TARGET * 100:.0f} %: {mark(flat)})"
    )
    return line, flat


def soak(label: str, url: str, args: argparse.Namespace, log: Path) -> bool:
    """The soak on one database; returns whether every integrity check passed."""
    with contextlib.redirect_stderr(io.StringIO()):  # Alembic's INFO lines
        migrate_fresh(url)
    make_organiser(url)
    workers = None if url.startswith("sqlite") else postgres_workers()
    server = start_server(url, log, workers)
    group, port = server.process.pid, server.port
    problems: list[str] = []
    samples: list[Sample] = []
    played = Played()
    stop = threading.Event()
    began = time.monotonic()

    def sampler() -> None:
        while True:
            minute = (time.monotonic() - began) / 60
            samples.append(sample(group, minute, played.hands()))
            print_sample(samples[-1])
            if stop.wait(60):
                return

    try:
        tournament_id, key, tables = open_tournament(port, args.players)
        print(
            f"\n{label}: {args.players} players, {len(tables)} tables, {args.spectators} "
            f"spectators, rounds of {args.round_seconds:g} s for {args.minutes:g} minutes"
        )
        watcher = threading.Thread(target=sampler, daemon=True)
        watcher.start()
        number = 1
        while True:
            tournament = Tournament(port, group, key, tables)
            played.current = tournament
            left = args.minutes * 60 - (time.monotonic() - began)
            seconds = min(args.round_seconds, left)
            result = busy_leg(tournament, args.spectators, len(tables), seconds)
            errors = sum(leg.errors for leg in (result.hands, result.page, result.projectors))
            found = check_round(tournament, url)
            problems += [f"round {number}: {p}" for p in found]
            print(
                f"  round {number}: {result.acknowledged} hands, hand p95 "
                f"{result.hands.percentile_ms(95):.0f} ms, standings page p95 "
                f"{result.page.percentile_ms(95):.0f} ms, errors {errors}, integrity "
                + ("ok" if not found else "FAILED"),
                flush=True,
            )
            played.closed_hands += stored_hands(tournament)
            played.current = None
            if time.monotonic() - began >= args.minutes * 60 - 1 or number == ROUNDS:
                break
            status, body = call(
                port,
                "POST",
                f"/api/v1/tournaments/{tournament_id}/rounds/{number}/close",
                {},
                AUTH,
            )
            if status != 200:
                raise RuntimeError(f"closing round {number}: {status} {body}")
            tables = next_round(port, tournament_id)
            number += 1
        stop.set()
        watcher.join()
        samples.append(sample(group, (time.monotonic() - began) / 60, played.hands()))
        print_sample(samples[-1])
        problems += kept_against_fresh(url, key)
    finally:
        stop.set()
        server.stop()
    warm = [s for s in samples if s.minute >= args.warm_up] or samples
    first, last = warm[0], samples[-1]
    print(f"  after the warm-up (minute {first.minute:.1f} to {last.minute:.1f}):")
    flat = True
    for name, a, b, unit in (
        ("RSS", first.rss_mb, last.rss_mb, "MB"),
        ("open files", first.files, last.files, ""),
        ("threads", first.threads, last.threads, ""),
    ):
        line, ok = growth_line(name, a, b, unit)
        flat &= ok
        print(f"    {line}")
    log_errors = server_log_errors(log)
    print(f"  server log: {len(log_errors)} error line(s)")
    for line in log_errors[:5]:
        print(f"      {line[:160]}")
    print(
        f"  integrity: {last.hands} hands stored over {number} rounds, the kept standings "
        "against a fresh fold: " + ("ok" if not problems else "FAILED")
    )
    for problem in problems[:10]:
        print(f"      {problem}")
    print(f"  flat: {mark(flat)}")
    return not problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="the soak's length (30)")
    parser.add_argument("--players", type=int, default=200, help="the field (200)")
    parser.add_argument("--spectators", type=int, default=200, help="phones (200)")
    parser.add_argument(
        "--round-seconds", type=float, default=120.0, help="each round's length (120)"
    )
    parser.add_argument(
        "--warm-up", type=float, default=5.0, help="minutes before growth counts (5)"
    )
    parser.add_argument("--pg-throwaway", action="store_true", help="also on PostgreSQL")
    parser.add_argument("--skip-sqlite", action="store_true", help="PostgreSQL only")
    args = parser.parse_args()
    if not 8 <= args.players <= 1500 or args.minutes <= 0 or args.round_seconds <= 0:
        parser.error("--players 8..1500, --minutes and --round-seconds positive")
    if args.skip_sqlite and not args.pg_throwaway:
        parser.error("--skip-sqlite leaves nothing to run without --pg-throwaway")
    print(
        f"Soak: {args.minutes:g} minutes; {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}. Targets: RSS, open files and threads grow < "
        f"{GROWTH_TARGET * 100:.0f} % after {args.warm_up:g} minutes; every acknowledged hand "
        "stored. Nothing is asserted."
    )
    ok = True
    with tempfile.TemporaryDirectory(prefix="haferl-soak-") as tmp:
        if not args.skip_sqlite:
            url = f"sqlite:///{Path(tmp) / 'soak.sqlite3'}"
            ok &= soak("SQLite (1 process)", url, args, Path(tmp) / "sqlite.log")
        if args.pg_throwaway:
            with throwaway_postgres() as url:
                label = f"PostgreSQL ({postgres_workers()} processes), throwaway"
                ok &= soak(label, url, args, Path(tmp) / "postgres.log")
    print("\nintegrity: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
