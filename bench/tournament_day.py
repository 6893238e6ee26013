"""Benchmark: a tournament day on the real server (200 players, 50 tablets and 200
spectators unless told; up to 1,500 players, on as few cores as told).

Do the tablets' hands stay quick while hundreds of spectators watch the standings, how soon
do the standings show a hand, and do they cost as much at the 3,000th hand as at the first?
The tables enter hands many times faster than real ones (every 2 s, not every minute or two).

    .venv/bin/python bench/tournament_day.py [--seconds 60] [--spectators 100,200]
        [--players 200] [--tablets N] [--cores K] [--pg-throwaway] [--skip-sqlite]

    # the record event on one core, and three times it on two:
    .venv/bin/python bench/tournament_day.py --players 500 --spectators 500 --cores 1 --pg-throwaway
    .venv/bin/python bench/tournament_day.py --players 1500 --spectators 1500 --pg-throwaway

`--cores K` pins the server (gunicorn and its workers, and a throwaway PostgreSQL) to the
first K CPUs with `os.sched_setaffinity` and the devices (this script's threads) to the
others, as `taskset -c 0` would; without it, or with K = every CPU, both share them all.
The server's processes count the cores they may use (`scorer.serve.workers_for`), so on
PostgreSQL one core gives two worker processes. The server's memory (RSS and PSS of each
of its processes; PostgreSQL's apart) is printed at the start and at the end of the run.

It starts `python -m scorer.serve` (what `make run` starts: gunicorn with its worker class,
threads and access log) on 127.0.0.1 through `tests/support/servers.py`: always on a SQLite file in
a temporary directory (one process), and with `--pg-throwaway` also on a PostgreSQL of its
own (`throwaway_postgres` of `bench/load.py`, with the worker processes `scorer.serve` gives
PostgreSQL). Every request goes to 127.0.0.1; rate limits are off, as in the tests (every
device here shares one address).

On each database an organiser is made in-process (`create_organiser`, as a fresh server's
sign-up would), then over the API with HTTP Basic auth a `--players` tournament
(haferltarock, parlett-units, 4 rounds, each player dealing 20 times a round: 80 hands at a
table of four, so no table finishes during a run) and its first round: tables of four
(with 200 players, 50), the dealer sitting out. Then, one after another:

1. warm-up (20 × `GET /api/v1/games`, not counted), then the anchor: `--tablets` threads ×
   20 × `GET /api/v1/games` on new connections, as fast as they go (what this machine
   answers at that concurrency, to read the other figures against);
2. the standings' idle cost at the start: nothing else running, 20 times a hand is
   recorded at one of the tables (a change, so the next answers are rendered afresh: an
   unchanged page is only ever given from the server's cache of the page last rendered)
   and 2.1 s later (past the 0.5 s for which the server gives a page it rendered again,
   and the 2 s for which it gives it while a thread renders the new one: this answer is
   looked up and rendered in the request, so it is the standings' cost) the public
   standings JSON (`GET /api/v1/standings/<key>`) and page
   (`GET /turnier/<key>/stand`) are fetched in full, without If-None-Match;
3. one leg of `--seconds` per `--spectators` count (100, then 200), on the same tournament:
   - `--tablets` tablets, one per table, each sends a hand about every 2 s (0.5–1.5 × at
     random, from a random start; 25 hands/s with 50 tablets) through
     `POST /api/v1/sessions/<key>/hands` with the number it shows for it and an
     Idempotency-Key, as the table page's queue does (on no answer or a 5xx the same hand
     is sent again with the same key, as static/js/sending.js does, here up to 3 times in all),
     each on a new connection;
   - the spectators each watch the standings page as static/js/live.js does: loaded once,
     then asked for again 2 s after each answer with `If-None-Match` (the page's ETag) and
     `X-Haferl-Live: 1`, with `Accept-Encoding: gzip, deflate` as Chromium sends over http,
     each on a kept-alive connection of its own (one the server closed meanwhile is
     replaced, as a browser does: counted as "conns");
   - 5 projectors ask for the standings JSON the same way, every 2 s;
   - a probe measures how soon the standings show a hand: it takes a 201 a tablet has just
     received (the next one after it rested 1 s), then asks for the JSON and the page (in
     full, no If-None-Match) every 0.1 s until each shows that table's players with the
     totals the table's 201s add up to (the table's balances when the leg began plus the
     `net` of each hand since) — or those of a later hand at that table; it gives up after
     10 s ("never"). The delay runs from the 201's arrival to the arrival of the first
     answer that shows it (resolution 0.1 s plus an answer's time);
4. the idle cost again, at the end (about 3,000 hands with the defaults), and its growth;
5. the checks: every hand acknowledged with 201 is stored and nothing else is (per table the
   numbers acknowledged are exactly the stored numbers, 1..N without a gap), each table's
   stored balances equal a fresh fold of its hands (`check_integrity` of bench/load.py),
   the bench's own sums of the 201s' nets equal the stored balances, the standings JSON's
   totals equal the sums of the tables' balances, and the kept standings equal the
   standings folded afresh from every hand (`scorer.services.tournaments.fresh_standings`).

Printed per leg, for the hands, the spectators, the projectors and the probe: answers,
answers/s, p50/p95/max, the statuses (2xx, 304, 4xx, 5xx, none: no answer or a timeout,
with the exceptions' names below the table), new connections, body bytes per answer as
received (compressed when it came compressed; not counted for the hands); then hands
recorded per second, the server's CPU (its processes' user + system
time per second of wall time, as a share of one core) and this script's, and the delays
until the standings show a hand. Targets are printed beside the figures: hand POST p95 <
100 ms, standings (page and JSON) p95 < 100 ms, the standings show a hand within 2 s (the
slowest of the probe's hands, page and JSON; a hand never shown misses it), the idle cost
at the end within 2 × that at the start (medians), no errors (4xx, 5xx, no answer, an
error line in the server's log), every acknowledged hand stored.

The devices are threads of this one Python process (up to ~260), on the same machine as the
server: their answer times include waiting for this process's own turn on a CPU. Timings
are never asserted; the exit status is non-zero only when an integrity check fails.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import html
import io
import json
import os
import platform
import random
import re
import resource
import select
import statistics
import sys
import tempfile
import threading
import time
import uuid
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
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
    server_log_errors,
    throwaway_postgres,
)
from watchers import server_cpu_seconds  # noqa: E402

from scorer.domain.limits import MAX_TOURNAMENT_PLAYERS  # noqa: E402
from tests.support.servers import LOOPBACK, call, migrate_fresh, start_server  # noqa: E402

PLAYERS = 200
"""The field unless `--players` says (3..1,500, `MAX_TOURNAMENT_PLAYERS`)."""
ROUNDS = 4
DEALS = 20
"""Each player deals 20 times a round: 80 hands at a table of four, more than a run sends."""
EMAIL, PASSWORD = "turnier@example.org", "bench-password"
ANCHOR_PER_THREAD = 20
PACE_S = 2.0
POLL_S = 2.0
PROJECTORS = 5
SENDS = 3
"""A hand that got no answer or a 5xx is sent again with its Idempotency-Key, up to this
many times in all, 0.5 s apart."""
PROBE_S = 0.1
PROBE_REST_S = 1.0
PROBE_GIVE_UP_S = 10.0
IDLE_SAMPLES = 20
IDLE_GAP_S = 2.1
"""The server gives the standings page it rendered last for 0.5 s, and up to 2 s while a
refresher thread renders the new one (`RecentPages`): past that, a reader waits for it."""
HAND_P95_TARGET_MS = 100.0
STANDINGS_P95_TARGET_MS = 100.0
SHOWN_TARGET_S = 2.0
IDLE_GROWTH_TARGET = 2.0
MEMORY_TARGET_MB = 300
"""The server's processes together (RSS), at the start and at the end."""
BROWSER = {"Accept-Encoding": "gzip, deflate"}
"""What Chromium asks for over plain http."""
POT = "pot"
ROW = re.compile(r"<bdi>(.*?)</bdi>.*?class=\"num total\">([^<]*)<", re.S)
"""A player's row of the standings page: the name, then the total (`format_score`)."""


class Answers(Leg):
    """A Leg that also counts each status, bytes and new connections; safe to call from
    many threads."""

    def __init__(self, name: str, sized: bool = True):
        super().__init__(name)
        self.sized = sized  # whether the bodies' bytes are counted
        self.statuses: Counter[int | None] = Counter()
        self.body_bytes = 0
        self.connections = 0
        self.failures: Counter[str] = Counter()
        """Why no answer came: the exceptions' names."""
        self.lock = threading.Lock()

    def answered(
        self,
        status: int | None,
        seconds: float,
        size: int = 0,
        new: int = 0,
        failure: str | None = None,
    ) -> None:
        with self.lock:
            self.add(status, seconds)
            self.statuses[status] += 1
            self.body_bytes += size
            self.connections += new
            if status is None:
                self.failures[failure or "?"] += 1

    @property
    def errors(self) -> int:
        return self.refused + self.server_errors + self.connection_errors


@dataclass
class Table:
    """A table as its tablet knows it: what to send next and the totals its 201s add up to."""

    key: str
    players: list[str]
    sitting_out: str | None = None
    count: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    acknowledged: list[int] = field(default_factory=list)
    after: dict[int, dict[str, int]] = field(default_factory=dict)
    """The players' totals after each acknowledged hand (for the probe)."""


class Tournament:
    """The tournament's tables on the server at `port`; a table is written by one thread at
    a time (its tablet, or the idle samples), `lock` guards what the probe reads."""

    def __init__(self, port: int, group: int, key: str, tables: list[dict[str, Any]]):
        self.port, self.group, self.key = port, group, key
        self.tables = [Table(t["key"], t["players"]) for t in tables]
        self.lock = threading.Lock()
        for table in self.tables:
            self.sync(table)

    def sync(self, table: Table) -> None:
        """Where the table stands, as the server says (the start, and after a refusal)."""
        status, body = call(self.port, "GET", f"/api/v1/sessions/{table.key}")
        if status != 200:
            raise RuntimeError(f"GET session {table.key}: {status} {body}")
        with self.lock:
            table.count = body["hand_count"]
            table.sitting_out = body["sitting_out_next"]
            table.totals = {n: v for n, v in body["balances"].items() if n != POT}
            table.after[table.count] = dict(table.totals)

    def send(
        self, table: Table, rng: random.Random, leg: Answers, on_201: Callable | None = None
    ) -> bool:
        """One hand at `table`, as the table page sends it; True when acknowledged."""
        active = [p for p in table.players if p != table.sitting_out]
        contract = rng.choice(["frage", "hand"])
        hand: dict[str, Any] = {
            "declarer": rng.choice(active),
            "contract": contract,
            "points": rng.randint(0, 120),
            "number": table.count + 1,
        }
        if contract == "hand" and rng.random() < 0.3:
            hand["bid"] = rng.choice(range(66, 117, 5))
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        path = f"/api/v1/sessions/{table.key}/hands"
        for attempt in range(SENDS):
            if attempt:
                time.sleep(0.5)
            began, failure = time.perf_counter(), None
            try:
                status, answer = call(self.port, "POST", path, hand, headers, timeout=30)
            except (OSError, HTTPException) as exc:
                status, answer, failure = None, None, type(exc).__name__
            leg.answered(status, time.perf_counter() - began, new=1, failure=failure)
            if status == 201:
                self.acknowledge(table, answer)
                if on_201 is not None:
                    on_201(table, answer["number"])
                return True
            if status is not None and status < 500:
                break  # refused: the page would show why; nothing to send again
        self.sync(table)
        return False

    def acknowledge(self, table: Table, answer: dict[str, Any]) -> None:
        with self.lock:
            table.count = answer["number"]
            table.acknowledged.append(answer["number"])
            for name, points in answer["net"].items():
                if name != POT:
                    table.totals[name] = table.totals.get(name, 0) + points
            table.after[table.count] = dict(table.totals)
            if len(table.players) > 3:  # the next dealer sits out
                seat = table.players.index(answer["dealer"])
                table.sitting_out = table.players[(seat + 1) % len(table.players)]

    def shows(self, table: Table, number: int, totals: dict[str, int]) -> bool:
        """Whether `totals` (the standings' totals by player) include hand `number` at
        `table`: its players' totals are those after that hand or a later one."""
        with self.lock:
            afters = [t for n, t in table.after.items() if n >= number]
        return any(all(totals.get(p) == t.get(p, 0) for p in table.players) for t in afters)


def open_tournament(port: int, players: int) -> tuple[str, list[dict[str, Any]]]:
    """The tournament and its first round, over the API as the organiser; returns the
    public key and the round's tables."""
    token = base64.b64encode(f"{EMAIL}:{PASSWORD}".encode()).decode()
    auth = {"Authorization": f"Basic {token}"}
    body = {
        "name": "Turniertag",
        "date": "2026-03-14",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": ROUNDS,
        "deals_per_player": DEALS,
        "players": [f"Spieler {n:0{len(str(players))}d}" for n in range(1, players + 1)],
    }
    status, tournament = call(port, "POST", "/api/v1/tournaments", body, auth)
    if status != 201:
        raise RuntimeError(f"POST /api/v1/tournaments: {status} {tournament}")
    path = f"/api/v1/tournaments/{tournament['id']}/rounds"
    status, round_ = call(port, "POST", path, {}, auth)
    if status != 201:
        raise RuntimeError(f"POST {path}: {status} {round_}")
    return tournament["key"], round_["tables"]


def make_organiser(url: str) -> None:
    from scorer import create_app
    from scorer.services.accounts import create_organiser
    from scorer.store.database import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    with app.app_context():
        create_organiser("Turnierleitung", EMAIL, PASSWORD)
        db.session.commit()
        db.session.remove()
        db.engine.dispose()


def decoded(body: bytes, encoding: str | None) -> bytes:
    if encoding in ("gzip", "deflate"):
        return zlib.decompress(body, 47 if encoding == "gzip" else 15)
    return body


def readable(sock: Any) -> bool:
    """Whether a kept connection has something to read (the server closed it, or a stray
    byte): `poll`, not `select`, which takes no descriptor past 1023 (1,500 spectators)."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def allow_many_files() -> None:
    """As many open files as the system lets this process have: each device holds one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Device:
    """One kept-alive connection, as a browser keeps one: a connection the server closed
    meanwhile is noticed before it is used (then a new one), and a request that fails on
    a kept connection is sent once more on a new one."""

    def __init__(self, port: int):
        self.connection = HTTPConnection(LOOPBACK, port, timeout=30)
        self.failure: str | None = None
        """Why the last `get` got no answer."""

    def get(self, path: str, headers: dict[str, str]) -> tuple[int | None, Any, bytes, int]:
        """(status or None, the response, its body as received, new connections)."""
        new, self.failure = 0, None
        for _ in range(2):
            sock = self.connection.sock
            if sock is not None and readable(sock):
                self.connection.close()  # closed by the server (or a stray byte): anew
                sock = None
            new += sock is None
            try:
                self.connection.request("GET", path, headers=headers)
                response = self.connection.getresponse()
                return response.status, response, response.read(), new
            except (OSError, HTTPException) as exc:
                self.failure = type(exc).__name__
                self.connection.close()
                if sock is None:
                    break  # a new connection failed: no answer
        return None, None, b"", new

    def close(self) -> None:
        self.connection.close()


def watch(
    port: int, path: str, leg: Answers, stop: threading.Event, seed: int, every: float
) -> None:
    """Open `path` once, then ask again `every` seconds after each answer with its ETag, as
    static/js/live.js does, on a connection of its own, until `stop`."""
    device = Device(port)
    etag = None
    stop.wait(random.Random(seed).uniform(0, every))  # devices do not ask in step
    while not stop.is_set():
        headers = dict(BROWSER)
        if etag:
            headers.update({"If-None-Match": etag, "X-Haferl-Live": "1"})
        began = time.perf_counter()
        status, response, body, new = device.get(path, headers)
        took = time.perf_counter() - began
        leg.answered(status, took, len(body), new, device.failure)
        if response is not None:
            etag = response.getheader("ETag") or etag
        stop.wait(every)
    device.close()


def json_totals(body: bytes) -> dict[str, int]:
    return {line["player"]: line["total"] for line in json.loads(body)}


def page_totals(body: bytes) -> dict[str, int]:
    """The totals the standings page shows, by player ({} when none are found)."""
    totals = {}
    for name, shown in ROW.findall(body.decode()):
        text = html.unescape(shown).strip().replace("−", "-").replace("+", "")
        with contextlib.suppress(ValueError):
            totals[html.unescape(name)] = int(text)
    return totals


class Probe:
    """How long after a 201 the standings (JSON and page) show the hand (see the module's
    docstring)."""

    SOURCES = (
        ("json", "/api/v1/standings/{}", json_totals),
        ("page", "/turnier/{}/stand", page_totals),
    )

    def __init__(self, tournament: Tournament, leg: Answers):
        self.tournament, self.leg = tournament, leg
        self.lock = threading.Lock()
        self.armed = False
        self.target: tuple[Table, int, float] | None = None
        self.taken = threading.Event()
        self.delays: dict[str, list[float]] = {"json": [], "page": []}
        self.never: Counter[str] = Counter()
        self.unreadable = 0

    def offer(self, table: Table, number: int) -> None:
        """A tablet's 201 (called right after it arrived)."""
        now = time.perf_counter()
        with self.lock:
            if self.armed:
                self.armed = False
                self.target = (table, number, now)
                self.taken.set()

    def run(self, stop: threading.Event) -> None:
        device = Device(self.tournament.port)
        while True:
            with self.lock:
                self.target, self.armed = None, True
                self.taken.clear()
            while not self.taken.wait(0.2) and not stop.is_set():
                pass
            with self.lock:
                self.armed = False
                target = self.target
            if target is None:  # stopped
                break
            self.follow(device, *target)
            if stop.wait(PROBE_REST_S):
                break
        device.close()

    def follow(self, device: Device, table: Table, number: int, at: float) -> None:
        waiting = {name for name, _, _ in self.SOURCES}
        while waiting and time.perf_counter() - at < PROBE_GIVE_UP_S:
            asked = time.perf_counter()
            for name, path, totals in self.SOURCES:
                if name not in waiting:
                    continue
                path = path.format(self.tournament.key)
                began = time.perf_counter()
                status, response, body, new = device.get(path, {"X-Haferl-Live": "1"})
                took = time.perf_counter() - began
                self.leg.answered(status, took, len(body), new, device.failure)
                if status != 200:
                    continue
                try:
                    shown = totals(decoded(body, response.getheader("Content-Encoding")))
                except (ValueError, zlib.error):
                    shown = {}
                if not shown:
                    self.unreadable += 1
                elif self.tournament.shows(table, number, shown):
                    self.delays[name].append(time.perf_counter() - at)
                    waiting.discard(name)
            time.sleep(max(PROBE_S - (time.perf_counter() - asked), 0))
        self.never.update(waiting)


@dataclass
class Result:
    spectators: int
    hands: Answers
    page: Answers
    projectors: Answers
    probe: Answers
    delays: dict[str, list[float]]
    never: Counter[str]
    unreadable: int
    acknowledged: int
    seconds: float
    server_cpu: float
    bench_cpu: float


def busy_leg(tournament: Tournament, spectators: int, tablets: int, seconds: float) -> Result:
    port, key = tournament.port, tournament.key
    hands = Answers(f"hand POST ({tablets} tablets)", sized=False)
    page = Answers(f"standings page ({spectators} spectators)")
    projectors = Answers(f"standings JSON ({PROJECTORS} projectors)")
    probe_leg = Answers("probe (JSON + page, 0.1 s)")
    probe = Probe(tournament, probe_leg)
    stop = threading.Event()
    acknowledged = [0]
    count_lock = threading.Lock()

    def tablet(index: int) -> None:
        table = tournament.tables[index]
        rng = random.Random(f"{spectators}-{index}")
        stop.wait(rng.uniform(0, PACE_S))
        while not stop.is_set():
            began = time.perf_counter()
            if tournament.send(table, rng, hands, probe.offer):
                with count_lock:
                    acknowledged[0] += 1
            pause = rng.uniform(0.5, 1.5) * PACE_S - (time.perf_counter() - began)
            stop.wait(max(pause, 0))

    threads = [
        threading.Thread(target=watch, args=(port, f"/turnier/{key}/stand", page, stop, i, POLL_S))
        for i in range(spectators)
    ]
    threads += [
        threading.Thread(
            target=watch,
            args=(port, f"/api/v1/standings/{key}", projectors, stop, 10_000 + i, POLL_S),
        )
        for i in range(PROJECTORS)
    ]
    threads += [threading.Thread(target=tablet, args=(i,)) for i in range(tablets)]
    prober = threading.Thread(target=probe.run, args=(stop,))
    server_before, bench_before = server_cpu_seconds(tournament.group), time.process_time()
    began = time.perf_counter()
    for thread in [*threads, prober]:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    server_cpu = server_cpu_seconds(tournament.group) - server_before
    bench_cpu = time.process_time() - bench_before
    prober.join()  # the hand it follows, if any: shown, or given up on
    for leg in (hands, page, projectors, probe_leg):
        leg.seconds = wall
    return Result(
        spectators,
        hands,
        page,
        projectors,
        probe_leg,
        probe.delays,
        probe.never,
        probe.unreadable,
        acknowledged[0],
        wall,
        server_cpu / wall,
        bench_cpu / wall,
    )


def idle_cost(tournament: Tournament, offset: int) -> dict[str, Any]:
    """Fresh standings (JSON and page) on an otherwise idle server, each after a hand."""
    port, key = tournament.port, tournament.key
    paths = {"json": f"/api/v1/standings/{key}", "page": f"/turnier/{key}/stand"}
    times: dict[str, list[float]] = {name: [] for name in paths}
    sizes: dict[str, list[int]] = {name: [] for name in paths}
    recorder = Answers("idle hands")
    first = stored_hands(tournament) + 1
    rng = random.Random(f"idle-{offset}")
    for path in paths.values():  # not counted: a first render warms its template
        call(port, "GET", path)
    for sample in range(IDLE_SAMPLES):
        table = tournament.tables[(offset + sample) % len(tournament.tables)]
        if not tournament.send(table, rng, recorder):
            raise RuntimeError(f"idle sample: the hand at {table.key} was not acknowledged")
        time.sleep(IDLE_GAP_S)
        for name, path in paths.items():
            device = Device(port)
            began = time.perf_counter()
            status, _, body, _ = device.get(path, dict(BROWSER))
            times[name].append(time.perf_counter() - began)
            device.close()
            if status != 200:
                raise RuntimeError(f"idle sample: {path} answered {status}")
            sizes[name].append(len(body))
    cost: dict[str, Any] = {"hands": f"hands {first}–{stored_hands(tournament)}"}
    for name in paths:
        cost[name] = (
            statistics.median(times[name]) * 1000,
            statistics.quantiles(times[name], n=20, method="inclusive")[-1] * 1000,
            statistics.median(sizes[name]),
        )
    return cost


def stored_hands(tournament: Tournament) -> int:
    with tournament.lock:
        return sum(table.count for table in tournament.tables)


def check_all(tournament: Tournament, url: str) -> tuple[list[str], int, int]:
    """The checks of step 5: (problems, hands acknowledged, acknowledged but not stored)."""
    check = Leg("integrity")
    tables = tournament.tables
    check_integrity(
        check, tournament.port, url, [t.key for t in tables], [t.acknowledged for t in tables]
    )
    problems = list(check.integrity or [])
    sums: Counter[str] = Counter()
    for table in tables:
        status, body = call(tournament.port, "GET", f"/api/v1/sessions/{table.key}")
        if status != 200:
            problems.append(f"{table.key}: GET answered {status}")
            continue
        stored = {n: v for n, v in body["balances"].items() if n != POT}
        sums.update(stored)
        if stored != {p: table.totals.get(p, 0) for p in stored}:
            problems.append(f"{table.key}: the 201s' nets do not add up to the stored balances")
    status, body = call(tournament.port, "GET", f"/api/v1/standings/{tournament.key}")
    if status != 200:
        problems.append(f"standings JSON answered {status}")
    else:
        shown = {line["player"]: line["total"] for line in body}
        wrong = [p for p in shown if shown[p] != sums.get(p, 0)]
        if wrong or len(shown) != sum(len(t.players) for t in tables):
            problems.append(
                f"standings JSON: {len(shown)} players, {len(wrong)} totals differ from the "
                f"sums of the tables' balances (e.g. {wrong[:3]})"
            )
    problems += kept_against_fresh(url, tournament.key)
    acknowledged = sum(len(t.acknowledged) for t in tables)
    return problems, acknowledged, check.lost or 0


def kept_against_fresh(url: str, key: str) -> list[str]:
    from sqlalchemy import select

    from scorer import create_app
    from scorer.services import tournaments as ops
    from scorer.store.database import db
    from scorer.store.models import Tournament as TournamentModel

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    with app.app_context():
        tournament = db.session.scalar(select(TournamentModel).where(TournamentModel.key == key))
        same = ops.tournament_standings(tournament) == ops.fresh_standings(tournament)
        db.session.remove()
        db.engine.dispose()
    return [] if same else ["the kept standings differ from a fresh fold of every hand"]


def mark(met: bool) -> str:
    return "met" if met else "MISSED"


def spread(values: list[float]) -> str:
    """p50/p95/max of delays in seconds, as ms."""
    if not values:
        return "no samples"
    p95 = (
        statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]
    )
    return (
        f"p50 {statistics.median(values) * 1000:5.0f}  p95 {p95 * 1000:5.0f}  "
        f"max {max(values) * 1000:5.0f} ms ({len(values)} hands)"
    )


def answers_line(leg: Answers) -> str:
    ok = sum(v for s, v in leg.statuses.items() if s is not None and 200 <= s < 300)
    per = f"{leg.body_bytes / leg.requests / 1000:.2f}" if leg.requests and leg.sized else "-"
    return (
        f"    {leg.name:<34} {leg.requests:>6} {leg.requests / leg.seconds:>6.1f} "
        f"{leg.percentile_ms(50):>6.1f} {leg.percentile_ms(95):>6.1f} {leg.max_ms:>7.1f} "
        f"{ok:>6} {leg.statuses[304]:>5} {leg.refused:>4} {leg.server_errors:>4} "
        f"{leg.connection_errors:>4} {leg.connections:>5} {per:>7}"
    )


def report_leg(result: Result, tablets: int) -> None:
    print(
        f"  leg: {tablets} tablets, {result.spectators} spectators, {PROJECTORS} projectors, "
        f"{result.seconds:.0f} s"
    )
    print(
        f"    {'':<34} {'answers':>6} {'/s':>6} {'p50 ms':>6} {'p95 ms':>6} {'max ms':>7} "
        f"{'2xx':>6} {'304':>5} {'4xx':>4} {'5xx':>4} {'none':>4} {'conns':>5} {'kB/ans':>7}"
    )
    legs = (result.hands, result.page, result.projectors, result.probe)
    for leg in legs:
        print(answers_line(leg))
    for leg in legs:
        if leg.failures:
            why = ", ".join(f"{name} × {n}" for name, n in leg.failures.most_common())
            print(f"    no answer to {leg.name}: {why}")
    print(
        f"    hands recorded {result.acknowledged / result.seconds:.1f}/s "
        f"({result.acknowledged} acknowledged); server CPU {result.server_cpu * 100:.0f} % of "
        f"a core, this script's {result.bench_cpu * 100:.0f} %"
    )
    for name in ("json", "page"):
        never = f", never shown {result.never[name]}" if result.never[name] else ""
        delays = spread(result.delays[name])
        print(f"    shown in the standings {name:<4} after a 201: {delays}{never}")
    if result.unreadable:
        print(f"    ({result.unreadable} standings answers showed no totals the probe could read)")


def leg_targets(result: Result) -> tuple[list[str], bool]:
    """The leg's target lines, and whether it had no errors."""
    hand_p95 = result.hands.percentile_ms(95)
    page_p95, json_p95 = result.page.percentile_ms(95), result.projectors.percentile_ms(95)
    shown = result.delays["json"] + result.delays["page"]
    worst = max(shown, default=float("inf"))
    never = sum(result.never.values())
    errors = sum(leg.errors for leg in (result.hands, result.page, result.projectors, result.probe))
    return [
        f"hand POST p95 {hand_p95:.1f} ms (< {HAND_P95_TARGET_MS:.0f}: "
        f"{mark(hand_p95 < HAND_P95_TARGET_MS)})",
        f"standings p95 page {page_p95:.1f}, JSON {json_p95:.1f} ms (< "
        f"{STANDINGS_P95_TARGET_MS:.0f}: "
        f"{mark(max(page_p95, json_p95) < STANDINGS_P95_TARGET_MS)})",
        f"a hand shown after at most {worst:.2f} s, {never} never (< {SHOWN_TARGET_S:.0f} s: "
        f"{mark(worst < SHOWN_TARGET_S and not never)})",
        f"errors {errors} (0: {mark(not errors)})",
    ], not errors


def idle_line(label: str, cost: dict[str, Any]) -> str:
    parts = [
        f"{name} p50 {p50:6.1f}  p95 {p95:6.1f} ms ({size / 1000:.1f} kB)"
        for name, (p50, p95, size) in ((name, cost[name]) for name in ("json", "page"))
    ]
    return f"  standings, idle, {label} ({cost['hands']}): " + "; ".join(parts)


@dataclass(frozen=True)
class Cores:
    """Where the server runs and where the load runs (`--cores`): the server (and a
    throwaway PostgreSQL) on the first `--cores` CPUs, the devices on the others; all on
    every CPU when there are no others."""

    server: frozenset[int]
    load: frozenset[int]

    @classmethod
    def split(cls, cores: int | None) -> Cores:
        every = sorted(os.sched_getaffinity(0))
        if cores is None or cores >= len(every):
            return cls(frozenset(every), frozenset(every))
        return cls(frozenset(every[:cores]), frozenset(every[cores:]))

    def describe(self) -> str:
        if self.server == self.load:
            return f"server and load share CPUs {sorted(self.server)}"
        return f"server on CPU {sorted(self.server)}, load on CPU {sorted(self.load)}"


def group_processes(group: int) -> list[int]:
    """The live processes of process group `group` (the server's: gunicorn and workers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            found.append(int(stat.parent.name))
    return sorted(found)


def postgres_processes(url: str) -> list[int]:
    """A throwaway PostgreSQL's processes: the postmaster started with its port, and its
    children."""
    port = url.rsplit(":", 1)[1].split("/")[0]
    postmaster = None
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        pid = int(stat.parent.name)
        try:
            parents[pid] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            argv = (stat.parent / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[0].endswith(b"postgres") and f"-p {port}".encode() in b" ".join(argv):
            postmaster = pid
    if postmaster is None:
        return []
    return [postmaster, *sorted(pid for pid, parent in parents.items() if parent == postmaster)]


def memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of a process in kB: PSS shares each shared page among the processes
    that map it, so PSS adds up across processes and RSS does not."""
    try:
        rss = pss = 0
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1])
            elif line.startswith("Pss:"):
                pss = int(line.split()[1])
        return rss, pss
    except OSError:
        return 0, 0


def memory_line(label: str, pids: list[int], *, target: bool = True) -> str:
    sizes = [(pid, *memory_kb(pid)) for pid in pids]
    each = ", ".join(f"{pid}: {rss / 1024:.0f}" for pid, rss, _ in sizes)
    rss_sum = sum(rss for _, rss, _ in sizes) / 1024
    pss_sum = sum(pss for _, _, pss in sizes) / 1024
    goal = f"; < {MEMORY_TARGET_MB} MB: {mark(rss_sum < MEMORY_TARGET_MB)}" if target else ""
    return (
        f"  memory, {label}: {len(sizes)} processes, RSS {rss_sum:.0f} MB in all (PSS "
        f"{pss_sum:.0f} MB{goal}); RSS MB by pid: {each}"
    )


def run_database(label: str, url: str, args: argparse.Namespace, log: Path, cores: Cores) -> bool:
    """Everything on one database; returns whether every integrity check passed."""
    with contextlib.redirect_stderr(io.StringIO()):  # Alembic's INFO lines
        migrate_fresh(url)
    make_organiser(url)
    workers = None if url.startswith("sqlite") else postgres_workers()
    os.sched_setaffinity(0, cores.server)  # the server's processes inherit it
    server = start_server(url, log, workers)
    os.sched_setaffinity(0, cores.load)  # this thread, and the devices' threads it starts
    try:
        port = server.port
        pinned = sorted(
            set().union(*(os.sched_getaffinity(p) for p in group_processes(server.process.pid)))
        )
        print(f"\n{label}: {cores.describe()} (the server's processes on {pinned})")
        for _ in range(20):  # warm-up, not counted
            call(port, "GET", "/api/v1/games")
        key, tables = open_tournament(port, args.players)
        tournament = Tournament(port, server.process.pid, key, tables)
        sizes = Counter(len(t.players) for t in tournament.tables)
        print(
            f"  {args.players} players at "
            + ", ".join(f"{n} tables of {size}" for size, n in sorted(sizes.items()))
            + f", {args.tablets} tablets"
        )
        games = anchor(port, args.tablets, ANCHOR_PER_THREAD)
        print(
            f"  anchor GET /api/v1/games, {args.tablets} threads × {ANCHOR_PER_THREAD}: "
            f"{games.rate:.1f} req/s  p50 {games.percentile_ms(50):.1f}  p95 "
            f"{games.percentile_ms(95):.1f}  max {games.max_ms:.1f} ms  [2xx {games.ok}, 4xx "
            f"{games.refused}, 5xx {games.server_errors}, none {games.connection_errors}]"
        )
        start = idle_cost(tournament, args.tablets)
        print(idle_line("at the start", start))
        database = postgres_processes(url) if not url.startswith("sqlite") else []
        print(memory_line("the server at the start", group_processes(server.process.pid)))
        if database:
            print(memory_line("PostgreSQL at the start", database, target=False))
        targets: list[str] = []
        errors_free = not games.server_errors and not games.connection_errors
        for spectators in args.spectators:
            result = busy_leg(tournament, spectators, args.tablets, args.seconds)
            report_leg(result, args.tablets)
            lines, clean = leg_targets(result)
            targets += [f"{spectators} spectators: {line}" for line in lines]
            errors_free = errors_free and clean
        end = idle_cost(tournament, args.tablets + IDLE_SAMPLES)
        print(idle_line("at the end", end))
        print(memory_line("the server at the end", group_processes(server.process.pid)))
        if database:
            print(memory_line("PostgreSQL at the end", postgres_processes(url), target=False))
        growth = {name: end[name][0] / start[name][0] for name in ("json", "page")}
        targets.append(
            f"idle cost growth (median, end ÷ start): JSON {growth['json']:.2f}×, page "
            f"{growth['page']:.2f}× (≤ {IDLE_GROWTH_TARGET:.0f}×: "
            f"{mark(max(growth.values()) <= IDLE_GROWTH_TARGET)})"
        )
        problems, acknowledged, lost = check_all(tournament, url)
        print(
            f"  integrity: {acknowledged} hands acknowledged, {stored_hands(tournament)} at the "
            f"tables, {lost} acknowledged but not stored: " + ("ok" if not problems else "FAILED")
        )
        for problem in problems[:10]:
            print(f"      {problem}")
        targets.append(f"every acknowledged hand stored: {mark(not problems and not lost)}")
    finally:
        server.stop()
        os.sched_setaffinity(0, cores.server)  # the next database's server starts from here
    log_errors = server_log_errors(log)
    if log_errors:
        print(f"  server log: {len(log_errors)} error line(s), first ones:")
        for line in log_errors[:5]:
            print(f"      {line[:160]}")
    else:
        print("  server log: no error lines")
    errors_free = errors_free and not log_errors
    targets.append(f"no errors in any leg or in the server log: {mark(errors_free)}")
    print("  targets:")
    for line in targets:
        print(f"    {line}")
    return not problems and not lost


def spectator_counts(text: str) -> list[int]:
    counts = [int(n) for n in text.split(",") if n.strip()]
    if not counts or min(counts) < 0:
        raise argparse.ArgumentTypeError("a list of spectator counts, such as 100,200")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="each leg's length (60)")
    parser.add_argument(
        "--spectators",
        type=spectator_counts,
        default=[100, 200],
        help="spectators of each leg, one leg per count (100,200)",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=PLAYERS,
        help=f"the field, 8..{MAX_TOURNAMENT_PLAYERS} ({PLAYERS})",
    )
    parser.add_argument(
        "--tablets", type=int, help="tablets, one per table (default: one at every table)"
    )
    parser.add_argument(
        "--cores",
        type=int,
        help="CPUs for the server (and a throwaway PostgreSQL), the load on the others "
        "(default: all CPUs for both)",
    )
    parser.add_argument(
        "--pg-throwaway",
        action="store_true",
        help=f"also run on a throwaway PostgreSQL on {LOOPBACK} (a free port)",
    )
    parser.add_argument("--skip-sqlite", action="store_true", help="run on PostgreSQL only")
    args = parser.parse_args()
    if not 8 <= args.players <= MAX_TOURNAMENT_PLAYERS:
        parser.error(f"--players must be 8..{MAX_TOURNAMENT_PLAYERS}")
    tables = args.players // 4
    args.tablets = tables if args.tablets is None else args.tablets
    if not 1 <= args.tablets <= tables:
        parser.error(f"--tablets must be 1..{tables} (one per table)")
    if args.cores is not None and not 1 <= args.cores <= len(os.sched_getaffinity(0)):
        parser.error(f"--cores must be 1..{len(os.sched_getaffinity(0))}")
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.skip_sqlite and not args.pg_throwaway:
        parser.error("--skip-sqlite leaves nothing to run without --pg-throwaway")

    print(
        f"Tournament day: {args.players} players, {args.tablets} tablets at a hand every "
        f"{PACE_S:.0f} s each; {', '.join(map(str, args.spectators))} spectators on the "
        f"standings page and {PROJECTORS} projectors on its JSON, every {POLL_S:.0f} s; "
        f"{args.seconds:g} s a leg. {os.cpu_count()} CPUs, Python {platform.python_version()}."
    )
    print(
        f"Targets: hand POST p95 < {HAND_P95_TARGET_MS:.0f} ms; standings p95 < "
        f"{STANDINGS_P95_TARGET_MS:.0f} ms; a hand shown within {SHOWN_TARGET_S:.0f} s; idle "
        f"standings at the end within {IDLE_GROWTH_TARGET:.0f}× of the start; 0 errors; every "
        "acknowledged hand stored. Nothing is asserted."
    )
    allow_many_files()
    cores = Cores.split(args.cores)
    print(f"CPUs: {cores.describe()}.")
    os.sched_setaffinity(0, cores.server)  # a throwaway PostgreSQL starts from here
    ok = True
    with tempfile.TemporaryDirectory(prefix="haferl-day-") as tmp:
        if not args.skip_sqlite:
            url = f"sqlite:///{Path(tmp) / 'day.sqlite3'}"
            log = Path(tmp) / "sqlite.log"
            ok &= run_database("SQLite (1 process)", url, args, log, cores)
        if args.pg_throwaway:
            with throwaway_postgres() as url:
                label = f"PostgreSQL ({postgres_workers()} processes), throwaway"
                ok &= run_database(label, url, args, Path(tmp) / "postgres.log", cores)
    print("\nintegrity: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
