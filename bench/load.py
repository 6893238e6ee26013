"""Benchmark: hands recorded per second by the real server when a whole evening's tablets
send at once, and whether every acknowledged hand is stored, in order, with the right money.

    .venv/bin/python bench/load.py [--hands 50] [--tablets 20]
        [--postgres URL | SCORER_BENCH_DATABASE_URL=URL] [--pg-throwaway]

It starts `python -m scorer.serve` (what `make run` starts: gunicorn, its access log and
all) on 127.0.0.1 through `tests/support/servers.py`; every request goes to 127.0.0.1 on a new
connection. Rate limits are off, as in the tests: all tablets share one address.

Databases: always a SQLite file in a temporary directory (one process with 8 threads, as
`make run` serves SQLite). PostgreSQL as well when `--postgres URL` or
SCORER_BENCH_DATABASE_URL names one (that database is EMPTIED before and after: all of the
project's tables are dropped), or with `--pg-throwaway`, which starts a PostgreSQL of its
own (initdb/pg_ctl, like `.ci/postgres`, as the user postgres when run as root) on
127.0.0.1 (a free port) in a temporary directory and removes it afterwards. PostgreSQL gets the
worker processes `scorer.serve` gives it.

On each server, one after another:

1. the anchor: `--tablets` threads × `--hands` requests of `GET /api/v1/games`;
2. 5 tables with the tablets spread over them, each tablet posting `--hands` Frage hands
   (`POST /api/v1/sessions/{key}/hands`, 3 players, points 61..120);
3. the same tablets and hands on 1 table.

For every leg it prints requests (hands) answered 2xx per second of wall time, the median
and 95th percentile answer time, and the answers that were not 2xx: refused (4xx), 5xx,
connection errors and timeouts ("conn"). After each hand leg it checks each table: the
numbers acknowledged with 201 are exactly the numbers stored, they run 1..N without a
gap, N is the number of acknowledgements, and the stored balances equal a fresh fold of the
stored hands. "lost" counts acknowledged hands that are not stored.

Targets are printed beside the figures: no refused or lost hands, no 5xx, hands/s at
least 0.35 × the anchor's requests/s at the same concurrency, p95 under 100 ms. Timings
are never asserted; the exit status is non-zero only when an integrity check fails.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.client import HTTPException
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.servers import LOOPBACK, call, empty, free_port, migrate_fresh, start_server  # noqa: E402

PLAYERS = ["Anton", "Berta", "Charlotte"]
SPREAD_TABLES = 5
RATIO_TARGET = 0.35
P95_TARGET_MS = 100.0
P95_WITH_PDF_TARGET_MS = 150.0
PACE_MS = 500
"""Paced legs: each tablet sends about one hand per PACE_MS (0.5–1.5 × at random, from a
random start) (20 tablets: 40 hands/s,
hundreds of times a real evening's rate, where a table enters a hand every minute or two).
Flat-out legs measure throughput; their answer times are mostly the queue (Little's law:
20 waiting tablets ÷ 100 hands/s = 200 ms), so the p95 target is read on the paced legs."""
BIG_EVENING = 1990
"""Hands of the evening whose sheet is printed during the last leg; each print records
one more hand first (a fresh render, not the cache), staying under the 2,000 limit."""
THROWAWAY_DATABASE = "haferl_bench"
COME_BACK = 3
"""Seconds after which a "being printed" page asks again (`scorer.reports.printing`)."""
ERROR_MARKS = ("Traceback", "[ERROR]", "[CRITICAL]", "WORKER TIMEOUT", "was sent SIG")
"""Lines of the server's log that are errors; "Worker (pid:…) was sent SIGSEGV!" is only a
warning to gunicorn, which starts a new worker, but every connection of the old one was
cut (a tournament-day run of 2026-12-05 showed it only as a slow p95)."""


@dataclass
class Leg:
    """What one leg's requests answered."""

    name: str
    p95_target: float | None = None
    throughput_target: bool = False
    requests: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    ok: int = 0
    refused: int = 0
    server_errors: int = 0
    connection_errors: int = 0
    lost: int | None = None
    integrity: list[str] | None = None  # None: not checked; []: all good
    pdfs: list[tuple[int | None, float]] = field(default_factory=list)

    def add(self, status: int | None, seconds: float) -> None:
        """Count one answer (status None: no answer). Called from many threads, so only
        under the lock of `run_threads`."""
        self.requests += 1
        if status is None:
            self.connection_errors += 1
            return
        self.latencies.append(seconds)
        if 200 <= status < 300:
            self.ok += 1
        elif 400 <= status < 500:
            self.refused += 1
        elif status >= 500:
            self.server_errors += 1

    @property
    def rate(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0

    @property
    def max_ms(self) -> float:
        """The slowest answer: a pause of the whole server (a worker starting, say) shows
        here while p95 hides it."""
        return max(self.latencies, default=float("nan")) * 1000

    def percentile_ms(self, p: int) -> float:
        if not self.latencies:
            return float("nan")
        if len(self.latencies) == 1:
            return self.latencies[0] * 1000
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[p - 1] * 1000


def timed_call(
    port: int, method: str, path: str, body: Any = None
) -> tuple[int | None, Any, float]:
    """(status or None when no answer came, parsed body, seconds)."""
    start = time.perf_counter()
    try:
        status, answer = call(port, method, path, body)
    except (OSError, HTTPException):
        return None, None, time.perf_counter() - start
    return status, answer, time.perf_counter() - start


def run_threads(leg: Leg, threads: int, work: Callable[[int, Callable], None]) -> None:
    """Start `threads` threads at once; each runs `work(index, record)`, where
    `record(status, seconds)` counts an answer. Sets the leg's wall time."""
    lock = threading.Lock()
    barrier = threading.Barrier(threads + 1)

    def record(status: int | None, seconds: float) -> None:
        with lock:
            leg.add(status, seconds)

    def run(index: int) -> None:
        barrier.wait()
        work(index, record)

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    barrier.wait()
    start = time.perf_counter()
    for worker in workers:
        worker.join()
    leg.seconds = time.perf_counter() - start


def anchor(port: int, threads: int, per_thread: int) -> Leg:
    leg = Leg("GET /api/v1/games (anchor)")

    def work(index: int, record: Callable) -> None:
        for _ in range(per_thread):
            status, _, seconds = timed_call(port, "GET", "/api/v1/games")
            record(status, seconds)

    run_threads(leg, threads, work)
    return leg


def new_table(port: int) -> str:
    status, body = call(
        port,
        "POST",
        "/api/v1/sessions",
        {"game": "tarok", "system": "points-kasse", "players": PLAYERS},
    )
    if status != 201:
        raise RuntimeError(f"could not open a table: {status} {body}")
    return body["key"]


def hand(tablet: int, n: int) -> dict[str, Any]:
    return {
        "declarer": PLAYERS[(tablet + n) % 3],
        "contract": "frage",
        "trump": "gras",
        "points": 61 + (tablet * 7 + n * 13) % 60,
    }


def hands_leg(
    port: int,
    url: str,
    tables: int,
    tablets: int,
    per_tablet: int,
    pace_ms: int = 0,
    pdf_of: str | None = None,
) -> Leg:
    """`tablets` threads, tablet i at table i mod `tables`, each posting `per_tablet`
    hands (at most one per `pace_ms` when given); then the integrity checks. With
    `pdf_of`, the score sheet of that table is printed over and over meanwhile (a fresh
    render each time: the cache is bypassed by recording a hand there first)."""
    tables = max(1, min(tables, tablets))
    name = f"{tables} table{'s' if tables > 1 else ''} × {tablets} tablets"
    if pace_ms:
        name += f", paced {pace_ms} ms"
    if pdf_of:
        name += ", PDF printing"
    leg = Leg(
        name,
        p95_target=(P95_WITH_PDF_TARGET_MS if pdf_of else P95_TARGET_MS) if pace_ms else None,
        throughput_target=not pace_ms,
    )
    keys = [new_table(port) for _ in range(tables)]
    acknowledged: list[list[int]] = [[] for _ in keys]
    lock = threading.Lock()

    def work(index: int, record: Callable) -> None:
        table = index % tables
        path = f"/api/v1/sessions/{keys[table]}/hands"
        jitter = random.Random(index)
        if pace_ms:  # tablets at real tables do not start in step
            time.sleep(jitter.uniform(0, pace_ms) / 1000)
        for n in range(per_tablet):
            status, answer, seconds = timed_call(port, "POST", path, hand(index, n))
            record(status, seconds)
            if status == 201:
                with lock:
                    acknowledged[table].append(answer["number"])
            if pace_ms:  # about one hand per pace_ms, not in step with the others
                pause = jitter.uniform(0.5, 1.5) * pace_ms - seconds * 1000
                time.sleep(max(pause, 0) / 1000)

    stop = threading.Event()
    printer = threading.Thread(target=print_sheets, args=(port, pdf_of, leg, stop))
    if pdf_of:
        printer.start()
    run_threads(leg, tablets, work)
    stop.set()
    if pdf_of:
        printer.join()
    check_integrity(leg, port, url, keys, acknowledged)
    return leg


def print_sheets(port: int, key: str | None, leg: Leg, stop: threading.Event) -> None:
    """Print `key`'s score sheet again and again until `stop`, each after one more hand, as
    a person does: a "being printed" answer (202) is asked again after its Retry-After. The
    time from the first ask until the sheet arrived goes to `leg.pdfs`, with its last status."""
    while not stop.is_set():
        recorded, _ = call(port, "POST", f"/api/v1/sessions/{key}/hands", hand(0, len(leg.pdfs)))
        if recorded != 201:  # the evening is full: every further sheet would be the cache's
            return
        start = time.perf_counter()
        status, _ = call(port, "GET", f"/api/v1/sessions/{key}/export.pdf", timeout=120)
        while status == 202:  # also after `stop`: a print cut off by the server's stop
            time.sleep(COME_BACK)  # would be logged as a failed print
            status, _ = call(port, "GET", f"/api/v1/sessions/{key}/export.pdf", timeout=120)
        leg.pdfs.append((status, time.perf_counter() - start))


def big_evening(url: str, hands: int) -> str:
    """A table with `hands` hands on `url`, built as `bench/big_evening.py` builds it."""
    from big_evening import build  # bench/ is the script's own directory

    from scorer import create_app
    from scorer.store.database import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    key = build(app, hands)
    with app.app_context():
        db.engine.dispose()
    return key


def check_integrity(
    leg: Leg, port: int, url: str, keys: list[str], acknowledged: list[list[int]]
) -> None:
    from scorer import create_app
    from scorer.services.table_reads import fold_session
    from scorer.store.database import db
    from scorer.store.table_rows import get_session

    problems: list[str] = []
    lost = 0
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    try:
        for key, acked in zip(keys, acknowledged, strict=True):
            status, body = call(port, "GET", f"/api/v1/sessions/{key}")
            if status != 200:
                problems.append(f"{key}: GET answered {status}")
                continue
            stored = [h["number"] for h in body["hands"]]
            lost += len(set(acked) - set(stored))
            if len(set(acked)) != len(acked):
                problems.append(f"{key}: a number was acknowledged twice")
            if set(acked) != set(stored):
                problems.append(
                    f"{key}: acknowledged but not stored {sorted(set(acked) - set(stored))[:10]}, "
                    f"stored but not acknowledged {sorted(set(stored) - set(acked))[:10]}"
                )
            if sorted(stored) != list(range(1, len(stored) + 1)):
                problems.append(f"{key}: stored numbers are not 1..{len(stored)}")
            if len(stored) != len(acked):
                problems.append(f"{key}: {len(stored)} stored, {len(acked)} acknowledged")
            with app.app_context():
                session = get_session(key)
                _, state = fold_session(session)
                if session.state != state.to_json():
                    problems.append(f"{key}: stored balances differ from a fresh fold")
                db.session.remove()
    finally:
        with app.app_context():
            db.engine.dispose()
    leg.lost = lost
    leg.integrity = problems


def server_log_errors(log: Path) -> list[str]:
    """The log's error lines; a traceback with its last line (the exception), which says
    what happened."""
    if not log.exists():
        return []
    lines = log.read_text(errors="replace").splitlines()
    errors = []
    for number, line in enumerate(lines):
        if any(mark in line for mark in ERROR_MARKS):
            if "Traceback" in line:
                rest = lines[number + 1 : number + 60]
                last = next((x for x in rest if x and not x.startswith((" ", "\t"))), "")
                line = f"{line} … {last}"
            errors.append(line)
    return errors


def run_database(label: str, url: str, tablets: int, per_tablet: int, log: Path) -> list[Leg]:
    """Migrate `url` afresh, start the server on it (its output to `log`), run the legs."""
    with contextlib.redirect_stderr(io.StringIO()):  # Alembic's INFO lines
        migrate_fresh(url)
    server = start_server(url, log)
    try:
        # Warm-up, not counted: every worker imports and connects once.
        for _ in range(20):
            call(server.port, "GET", "/api/v1/games")
        legs = [
            anchor(server.port, tablets, per_tablet),
            hands_leg(server.port, url, SPREAD_TABLES, tablets, per_tablet),
            hands_leg(server.port, url, 1, tablets, per_tablet),
            hands_leg(server.port, url, SPREAD_TABLES, tablets, per_tablet, PACE_MS),
            hands_leg(server.port, url, 1, tablets, per_tablet, PACE_MS),
            hands_leg(
                server.port,
                url,
                SPREAD_TABLES,
                tablets,
                per_tablet,
                PACE_MS,
                pdf_of=big_evening(url, BIG_EVENING),
            ),
        ]
    finally:
        server.stop()
    report(label, legs, server_log_errors(log), log)
    return legs


def report(label: str, legs: list[Leg], log_errors: list[str], log: Path) -> None:
    print(f"\n{label}")
    header = (
        f"  {'leg':<46} {'answers':>7} {'2xx/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} "
        f"{'4xx':>4} {'5xx':>4} {'conn':>4} {'lost':>4}  integrity"
    )
    print(header)
    for leg in legs:
        lost = "-" if leg.lost is None else str(leg.lost)
        integrity = "-" if leg.integrity is None else ("ok" if not leg.integrity else "FAILED")
        print(
            f"  {leg.name:<46} {leg.requests:>7} {leg.rate:>7.1f} {leg.percentile_ms(50):>7.1f} "
            f"{leg.percentile_ms(95):>7.1f} {leg.max_ms:>7.1f} {leg.refused:>4} "
            f"{leg.server_errors:>4} {leg.connection_errors:>4} {lost:>4}  {integrity}"
        )
        for problem in leg.integrity or []:
            print(f"      {problem}")
    base = legs[0]
    for leg in legs[1:]:
        marks = []
        if leg.throughput_target:
            ratio = leg.rate / base.rate if base.rate else float("nan")
            marks.append(
                f"hands/s ÷ anchor req/s {ratio:.3f} (≥ {RATIO_TARGET}: "
                f"{'met' if ratio >= RATIO_TARGET else 'MISSED'})"
            )
        if leg.p95_target is not None:
            p95 = leg.percentile_ms(95)
            marks.append(
                f"p95 {p95:.1f} ms (< {leg.p95_target:.0f}: "
                f"{'met' if p95 < leg.p95_target else 'MISSED'})"
            )
        bad = leg.refused + (leg.lost or 0) + leg.server_errors + leg.connection_errors
        marks.append(f"refused+lost+5xx+conn {bad} (0: {'met' if bad == 0 else 'MISSED'})")
        print(f"  {leg.name}: " + "; ".join(marks))
        if leg.pdfs:
            times = ", ".join(f"{status} after {seconds:.1f} s" for status, seconds in leg.pdfs)
            print(f"      sheets of a ~{BIG_EVENING}-hand evening meanwhile: {times}")
    if log_errors:
        print(f"  server log: {len(log_errors)} error line(s), first ones:")
        for line in log_errors[:5]:
            print(f"      {line[:160]}")
    else:
        print(f"  server log: no error lines ({log.name})")


def postgres_bindir() -> Path | None:
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parent.name.split(".")],
    )
    found = [p for p in found if (p / "initdb").exists()]
    return found[-1] if found else None


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL of our own on 127.0.0.1 (a free port) in a temporary directory, as in
    `.ci/postgres`; yields its URL and removes it afterwards."""
    bindir = postgres_bindir()
    if bindir is None:
        raise SystemExit("--pg-throwaway: no PostgreSQL found (apt-get install postgresql)")
    root = os.geteuid() == 0

    def as_postgres(*argv: str) -> None:
        command = [str(bindir / argv[0]), *argv[1:]]
        if root:
            command = ["su", "postgres", "-s", "/bin/sh", "-c", subprocess.list2cmdline(command)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

    directory = Path(tempfile.mkdtemp(prefix="haferl-bench-pg."))
    directory.chmod(0o755)
    if root:
        shutil.chown(directory, "postgres")
    data = directory / "data"
    started = False
    try:
        as_postgres("initdb", "-D", str(data), "-A", "trust", "-U", "postgres")
        # A free port, not a fixed one: a fixed port can be held by a socket in TIME-WAIT.
        throwaway_port = free_port()
        options = f"-k {directory} -p {throwaway_port} -c listen_addresses={LOOPBACK}"
        log = str(directory / "log")
        as_postgres("pg_ctl", "-D", str(data), "-l", log, "-w", "-o", options, "start")
        started = True
        port = str(throwaway_port)
        as_postgres("createdb", "-h", LOOPBACK, "-p", port, "-U", "postgres", THROWAWAY_DATABASE)
        version = subprocess.run(
            [str(bindir / "postgres"), "--version"], capture_output=True, text=True
        ).stdout.strip()
        print(f"\nthrowaway {version} on {LOOPBACK}:{throwaway_port} in {directory}")
        yield f"postgresql://postgres@{LOOPBACK}:{throwaway_port}/{THROWAWAY_DATABASE}"
    finally:
        if started:
            with contextlib.suppress(subprocess.CalledProcessError):
                as_postgres("pg_ctl", "-D", str(data), "-m", "fast", "-w", "stop")
        shutil.rmtree(directory, ignore_errors=True)


def postgres_workers() -> int:
    from scorer.serve import workers_for

    return workers_for(sqlite=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50, help="hands per tablet (50)")
    parser.add_argument("--tablets", type=int, default=20, help="tablets at once (20)")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("SCORER_BENCH_DATABASE_URL"),
        metavar="URL",
        help="also run on this PostgreSQL database (EMPTIED before and after); "
        "default SCORER_BENCH_DATABASE_URL",
    )
    parser.add_argument(
        "--pg-throwaway",
        action="store_true",
        help=f"also run on a throwaway PostgreSQL on {LOOPBACK} (a free port)",
    )
    parser.add_argument("--skip-sqlite", action="store_true", help="run the PostgreSQL legs only")
    args = parser.parse_args()
    if args.hands < 1 or args.tablets < 1:
        parser.error("--hands and --tablets must be at least 1")

    print(
        f"Load: {args.tablets} tablets × {args.hands} hands, over {SPREAD_TABLES} tables and "
        f"over 1; anchor {args.tablets} threads × {args.hands} GET /api/v1/games. "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}."
    )
    print(
        f"Targets: 0 refused, 0 lost, 0 5xx; hands/s ≥ {RATIO_TARGET} × anchor req/s; "
        f"p95 < {P95_TARGET_MS:.0f} ms. Nothing is asserted."
    )
    legs: list[Leg] = []
    with tempfile.TemporaryDirectory(prefix="haferl-bench-") as tmp:
        tmp_path = Path(tmp)
        size = (args.tablets, args.hands)
        sqlite_url = f"sqlite:///{tmp_path / 'load.sqlite3'}"
        if not args.skip_sqlite:
            legs += run_database(
                "SQLite (1 process × 8 threads)", sqlite_url, *size, tmp_path / "sqlite.log"
            )
        pg_label = f"PostgreSQL ({postgres_workers()} processes × 8 threads)"
        if args.postgres:
            try:
                legs += run_database(pg_label, args.postgres, *size, tmp_path / "postgres.log")
            finally:
                empty(args.postgres)
        if args.pg_throwaway:
            with throwaway_postgres() as url:
                legs += run_database(
                    f"{pg_label}, throwaway", url, *size, tmp_path / "throwaway.log"
                )
    failed = [leg for leg in legs if leg.integrity]
    print("\nintegrity: " + ("FAILED" if failed else "ok on every table"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
