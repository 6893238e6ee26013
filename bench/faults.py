"""Benchmark: a tournament day of faults. The server is killed three times while 50 tablets
send hands and spectators watch the standings; is every acknowledged hand stored once, do
the standings still equal the fold, and how soon does the server answer again?

    .venv/bin/python bench/faults.py [--seconds 600] [--kills 3] [--players 200]
        [--spectators 50] [--pace 2] [--pg-throwaway] [--skip-sqlite]

What restarts the server on a club laptop is `docs/haferl.service`, a systemd unit
(`Restart=always`, `RestartSec=2`, `KillMode=control-group`) that runs `make run`. There is
no systemd here, so the unit is read and done as systemd does it
(`tests/support/faults.py`, `Restarter`): its `ExecStart=` is `make run`, which becomes
the Makefile's recipe of `run` (`HOST=… PORT=… .venv/bin/python -m scorer.serve`: migrate,
banner, gunicorn) under `/bin/sh -c` in a session of its own, with the unit's
`Environment=`, started again `RestartSec=` after any exit. HOST, PORT and the database
are overridden in the environment as in the tests (127.0.0.1, a free port; a SQLite file in
a temporary directory, and with `--pg-throwaway` a PostgreSQL of its own,
`throwaway_postgres` of `bench/load.py`, with the worker processes `scorer.serve` gives
PostgreSQL); the checkout is the working directory; make's prerequisites of `run`
(installing into `.venv`, compiling the catalogues) are not run. Rate limits are off, as
in the tests (every device here shares one address).

The day: an organiser made in-process, a tournament over the API (haferltarock,
parlett-units, `--players` players, 20 deals each a round: 80 hands at a table of four,
up to 20 rounds) and its first round. Then for `--seconds`:

- a tablet per table sends a hand about every `--pace` seconds (0.5–1.5 × at random) with
  its `number` and an Idempotency-Key; on no answer or a 5xx the same hand with the same
  key again 3 s later (static/js/sending.js's RETRY_MS), until it is acknowledged, as the
  page's queue keeps a hand until the server takes it;
- when every table of a round is done the organiser draws the next round (a lost answer:
  `GET …/rounds/<n>` says whether it was drawn);
- `--spectators` watch the standings page every 2 s with its ETag on kept-alive
  connections, as static/js/live.js does;
- `--kills` times, at 1/(k+1), 2/(k+1), … of the run (± 5 % of it at random), SIGKILL to
  the server's whole process group (`os.killpg`: the shell, gunicorn's arbiter and
  workers, the PDF printer, the backup keeper), then `GET /api/v1/games` every 0.05 s until
  it answers.

Printed per kill: the time to serve again (from the kill to the first answer), split into
the restarter noticing the exit, the `RestartSec=` wait, the start until the port takes a
connection (Python, the migration check, gunicorn's arbiter binding it; probed only once
the command was started again) and from there to the first answer (the workers starting,
while the devices' retries queue on the port); the first hand acknowledged after the kill; the
hands the outage caught (an attempt without an answer), how many of them had been stored
before the kill with their answer cut (the replay with the same key was answered with the
stored hand), their retries, and hands lost. Then every request by what came back:
answered, refused while the server was down (ConnectionRefusedError, expected), cut by the
kill (a connection reset or closed while in flight, expected) and errors (a 4xx other than
the 404 of a round looked up after its draw's answer was lost, a 5xx, or no answer outside
an outage), the errors listed apart; the hands' answer times outside the
outages. The checks at the end: per table the acknowledged numbers are exactly the stored
ones, 1..N without a gap, each stored hand carries the Idempotency-Key and facts its tablet
acknowledged (stored once, none twice), the balances equal a fresh fold and the sums of
the 201s' nets, the standings JSON's totals equal the sums of the tables' balances, and
the kept standings equal `scorer.services.tournaments.fresh_standings`; and the server's
log has no error lines. Targets are printed beside the figures; nothing is asserted on
time, and the exit status is non-zero only when an integrity check fails.

The devices are threads of this one Python process on the same machine as the server,
which others may be using meanwhile (the load average is printed).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import postgres_workers, server_log_errors, throwaway_postgres  # noqa: E402

from tests.support.faults import (  # noqa: E402
    RETRY_S,
    Day,
    Kill,
    classify,
    kills,
    make_organiser,
    run,
    stored_hands,
)
from tests.support.restarter import (  # noqa: E402
    Outage,
    Restarter,
    overrides,
    read_unit,
)
from tests.support.servers import migrate_fresh  # noqa: E402

DEALS = 20
ROUNDS = 20
SERVE_AGAIN_MARGIN_S = 5.0
"""Target: serving again within RestartSec + 5 s of a kill (a tablet's next retry, 3 s
after its failed one, then finds it more often than not)."""
KINDS = ("answered", "refused while down", "cut by the kill", "error")


def mark(met: bool) -> str:
    return "met" if met else "MISSED"


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f}"


def between(start: float | None, end: float | None) -> float | None:
    return None if start is None or end is None else end - start


def report_kills(found: list[Kill], began: float) -> None:
    print(
        f"  {'kill':<4} {'at s':>6} {'serve again s':>13} {'= exit seen':>11} "
        f"{'+ RestartSec':>12} {'+ listening':>11} {'+ answering':>11} {'first 201 s':>11} "
        f"{'caught':>6} {'replayed':>8} {'retries':>7} {'lost':>4}"
    )
    for number, kill in enumerate(found, 1):
        o = kill.outage
        label = str(number) if o.planned else f"{number}*"
        print(
            f"  {label:<4} {o.killed_at - began:>6.1f} "
            f"{seconds(between(o.killed_at, o.serving_at)):>13} "
            f"{seconds(between(o.killed_at, o.exited_at)):>11} "
            f"{seconds(between(o.exited_at, o.started_at)):>12} "
            f"{seconds(between(o.started_at, o.listening_at)):>11} "
            f"{seconds(between(o.listening_at, o.serving_at)):>11} "
            f"{seconds(kill.first_hand):>11} {kill.caught:>6} {kill.replayed:>8} "
            f"{kill.retries:>7} {kill.lost:>4}"
        )
    if any(not kill.outage.planned for kill in found):
        print("  * the server ended by itself (not killed)")


def report_requests(day: Day, outages: list[Outage], began: float) -> list[str]:
    """The requests by what came back, per device; returns the error lines."""
    counts: dict[str, Counter[str]] = {}
    errors: list[str] = []
    for request in day.requests:
        kind, _ = classify(request, outages)
        counts.setdefault(request.who, Counter())[kind] += 1
        if kind == "error":
            why = request.failure if request.status is None else str(request.status)
            errors.append(f"{request.who} at {request.began - began:.1f} s: {why}")
    print(f"  {'requests':<12} " + " ".join(f"{kind:>18}" for kind in KINDS))
    for who in ("hand", "spectator", "organiser", "sync"):
        if who in counts:
            print(f"    {who:<10} " + " ".join(f"{counts[who][kind]:>18}" for kind in KINDS))
    cut = Counter(r.failure for r in day.requests if classify(r, outages)[0] == "cut by the kill")
    if cut:
        print("    cut by the kill: " + ", ".join(f"{n} × {c}" for n, c in cut.most_common()))
    if errors:
        print(f"  errors ({len(errors)}), first ones:")
        for line in errors[:10]:
            print(f"      {line}")
    else:
        print("  errors: none")
    steady = [
        (r.ended - r.began) * 1000
        for r in day.requests
        if r.who == "hand"
        and r.status == 201
        and not any(o.covers(r.began, r.ended) for o in outages)
    ]
    if len(steady) > 1:
        p95 = statistics.quantiles(steady, n=20, method="inclusive")[-1]
        print(
            f"  hand POST outside the outages: p50 {statistics.median(steady):.1f}  p95 "
            f"{p95:.1f}  max {max(steady):.1f} ms ({len(steady)} answers)"
        )
    return errors


def run_database(label: str, url: str, args: argparse.Namespace, directory: Path) -> bool:
    """The day on one database; returns whether every integrity check passed."""
    with contextlib.redirect_stderr(io.StringIO()):  # Alembic's INFO lines
        migrate_fresh(url)
    make_organiser(url)
    log = directory / f"{label.split()[0].lower()}.log"
    unit = read_unit()
    restarter = Restarter(unit, overrides(url, directory), log)
    restarter.start()
    try:
        day = Day(restarter.port, args.players, DEALS, ROUNDS, args.pace, args.spectators, "bench")
        tables = len(day.rounds[0])
        print(
            f"\n{label}: {args.players} players, {tables} tables a round, {tables} tablets, "
            f"{args.spectators} spectators, {args.seconds:g} s, {args.kills} kills"
        )
        print(f"  the restarter runs: {' '.join(restarter.argv)}")
        began = time.monotonic()
        load_before = os.getloadavg()[0]
        run(day, restarter, args.seconds, args.kills)
        load_after = os.getloadavg()[0]
        stored, problems = stored_hands(url, day)
    finally:
        restarter.stop()
    outages = restarter.outages
    found = kills(day, outages, stored)
    closed = sum(all(t.done for t in tables) for tables in day.rounds)
    acknowledged = sum(s.acknowledged_at is not None for s in day.sent)
    print(
        f"  {len(day.rounds)} rounds drawn ({closed} closed), {acknowledged} hands acknowledged, "
        f"{restarter.starts} starts of the server; load average {load_before:.1f} before, "
        f"{load_after:.1f} after"
    )
    report_kills(found, began)
    errors = report_requests(day, outages, began)
    print(
        f"  integrity: {acknowledged} acknowledged, {len(stored)} stored: "
        + ("ok" if not problems else "FAILED")
    )
    for problem in problems[:10]:
        print(f"      {problem}")
    log_errors = server_log_errors(log)
    if log_errors:
        print(f"  server log: {len(log_errors)} error line(s), first ones:")
        for line in log_errors[:5]:
            print(f"      {line[:160]}")
    else:
        print("  server log: no error lines")
    lost = sum(kill.lost for kill in found)
    agains = [o.serving_at - o.killed_at for o in outages if o.serving_at is not None]
    limit = unit.restart_sec + SERVE_AGAIN_MARGIN_S
    planned = [o for o in outages if o.planned]
    print("  targets:")
    print(
        f"    every acknowledged hand stored exactly once, balances and standings equal the "
        f"fold: {mark(not problems)}"
    )
    print(f"    hands lost {lost} (0: {mark(not lost)})")
    print(
        f"    served again after each kill within {limit:g} s (RestartSec {unit.restart_sec:g} + "
        f"{SERVE_AGAIN_MARGIN_S:g}): slowest {max(agains, default=float('nan')):.2f} s "
        f"({mark(len(agains) == len(outages) and max(agains, default=0) <= limit)})"
    )
    print(
        f"    the server ended only when killed: {len(planned)} of {len(outages)} exits "
        f"({mark(len(planned) == len(outages))})"
    )
    print(
        f"    errors beyond the outages' refusals and cuts {len(errors)}, server log "
        f"{len(log_errors)} (0: {mark(not errors and not log_errors)})"
    )
    return not problems and not lost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="the day's length (600)")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs of the server (3)")
    parser.add_argument("--players", type=int, default=200, help="players (200: 50 tables)")
    parser.add_argument("--spectators", type=int, default=50, help="on the standings page (50)")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a tablet's hands")
    parser.add_argument(
        "--pg-throwaway", action="store_true", help="also run on a throwaway PostgreSQL"
    )
    parser.add_argument("--skip-sqlite", action="store_true", help="run on PostgreSQL only")
    args = parser.parse_args()
    if args.seconds <= 0 or args.kills < 0 or args.players < 3 or args.pace <= 0:
        parser.error("--seconds and --pace positive, --kills ≥ 0, --players ≥ 3")
    if args.skip_sqlite and not args.pg_throwaway:
        parser.error("--skip-sqlite leaves nothing to run without --pg-throwaway")
    unit = read_unit()
    print(
        f"A day of faults: {args.players} players, a tablet per table at a hand every "
        f"{args.pace:g} s each (sent again {RETRY_S:g} s after no answer, until taken), "
        f"{args.spectators} spectators every 2 s; {args.seconds:g} s with {args.kills} SIGKILLs "
        f"of the server's process group. {os.cpu_count()} CPUs (shared with other work), "
        f"Python {platform.python_version()}."
    )
    print(
        f"The restarter: docs/haferl.service (Restart={unit.restart}, RestartSec="
        f"{unit.restart_sec:g}, KillMode={unit.kill_mode}, ExecStart={' '.join(unit.exec_start)}, "
        f"Environment {' '.join(f'{k}={v}' for k, v in unit.environment.items())}; HOST, PORT "
        "and the database overridden)."
    )
    print(
        "Targets: every acknowledged hand stored exactly once; 0 hands lost; balances and "
        f"standings equal the fold; serving again within RestartSec + {SERVE_AGAIN_MARGIN_S:g} s; "
        "0 errors beyond the outages' refusals and cuts. Nothing is asserted."
    )
    ok = True
    with tempfile.TemporaryDirectory(prefix="haferl-faults-") as tmp:
        if not args.skip_sqlite:
            url = f"sqlite:///{Path(tmp) / 'day.sqlite3'}"
            (Path(tmp) / "sqlite").mkdir()
            ok &= run_database("SQLite (1 process)", url, args, Path(tmp) / "sqlite")
        if args.pg_throwaway:
            (Path(tmp) / "postgres").mkdir()
            with throwaway_postgres() as url:
                label = f"PostgreSQL ({postgres_workers()} processes), throwaway"
                ok &= run_database(label, url, args, Path(tmp) / "postgres")
    print("\nintegrity: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
