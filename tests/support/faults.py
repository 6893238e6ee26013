"""A day of faults: a tournament's tablets keep sending hands while the server is killed
(SIGKILL of its whole process group) and started again as a club laptop's restarter does
it (`tests/support/restarter.py`: docs/haferl.service, done as systemd does it). Shared
by `bench/faults.py` (ten minutes, three kills, the figures) and `tests/test_faults.py`
(a short run, the integrity facts asserted).

The tablets send as the table page's queue does (static/js/sending.js): each hand with
the `number` it shows and an `Idempotency-Key`, and on no answer or a 5xx the same hand
with the same key again `RETRY_S` later, until the server takes it (the page keeps it
in its queue as long as that takes). A replay of a hand the server stored before its
answer was cut is answered 201 with the stored hand (the key is looked up first,
`scorer.services.tables.record_hand`); a refusal (4xx) would stop the page's queue with a
panel, here it is counted as an error. When every table of a round is done the organiser
draws the next round (`POST …/rounds`; when its answer is lost, `GET …/rounds/<n>` says
whether it was drawn). Spectators watch the standings page every 2 s with its ETag, as
static/js/live.js does, on a kept-alive connection. Nothing talks to any address but
127.0.0.1."""

from __future__ import annotations

import base64
import random
import select
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC
from http.client import HTTPConnection, HTTPException
from typing import Any

from tests.support.restarter import Outage, Restarter
from tests.support.servers import LOOPBACK, call

RETRY_S = 3.0
"""static/js/sending.js's RETRY_MS: a hand that got no answer is sent again 3 s later."""
WATCH_S = 2.0
EMAIL, PASSWORD = "turnier@example.org", "fault-password"
POT = "pot"
REFUSED = "ConnectionRefusedError"


# --- the tournament ---------------------------------------------------------------------


@dataclass
class Request:
    who: str
    """"hand", "spectator", "organiser" or "sync"."""
    began: float
    ended: float
    status: int | None
    failure: str | None = None
    """Why no answer came: the exception's name."""
    expected: tuple[int, ...] = ()
    """Refusals the asker expects as an answer (a round looked up that was not drawn)."""


@dataclass
class Sent:
    """A hand as its tablet sent it, with every attempt."""

    table: str
    number: int
    key: str
    hand: dict[str, Any]
    attempts: list[Request] = field(default_factory=list)
    acknowledged_at: float | None = None


@dataclass
class Table:
    key: str
    players: list[str]
    planned: int
    count: int = 0
    sitting_out: str | None = None
    totals: dict[str, int] = field(default_factory=dict)
    """What the 201s' nets add up to."""
    sent: list[Sent] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.count >= self.planned


def make_organiser(url: str) -> None:
    """The organiser, in-process (as a fresh server's sign-up would make it)."""
    from scorer import create_app
    from scorer.services.accounts import create_organiser
    from scorer.store.database import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "faults"})
    with app.app_context():
        create_organiser("Turnierleitung", EMAIL, PASSWORD)
        db.session.commit()
        db.session.remove()
        db.engine.dispose()


class Day:
    """A tournament on the server at `port`: a tablet per table, spectators, the
    organiser drawing each round when the last one closed. Every request is kept in
    `requests` (classified against the outages afterwards)."""

    def __init__(
        self,
        port: int,
        players: int,
        deals: int,
        rounds: int,
        pace: float,
        spectators: int,
        seed: str = "faults",
    ):
        self.port, self.pace, self.spectators, self.seed = port, pace, spectators, seed
        self.rounds_planned = rounds
        token = base64.b64encode(f"{EMAIL}:{PASSWORD}".encode()).decode()
        self.auth = {"Authorization": f"Basic {token}"}
        body = {
            "name": "Turniertag mit Ausfällen",
            "date": "2026-03-14",
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": rounds,
            "deals_per_player": deals,
            "players": [f"Spieler {n:03d}" for n in range(1, players + 1)],
        }
        status, tournament = call(port, "POST", "/api/v1/tournaments", body, self.auth)
        if status != 201:
            raise RuntimeError(f"POST /api/v1/tournaments: {status} {tournament}")
        self.id, self.key = tournament["id"], tournament["key"]
        self.lock = threading.Condition()
        self.requests: list[Request] = []
        self.rounds: list[list[Table]] = []
        self.stop = threading.Event()
        """No new hands from now on (a hand being sent is sent until it is taken)."""
        self.give_up = threading.Event()
        """Not even that: the run is over."""
        self.draw()

    # requests

    def ask(
        self,
        who: str,
        method: str,
        path: str,
        body: Any = None,
        headers: dict | None = None,
        expected: tuple[int, ...] = (),
    ) -> tuple[Request, Any]:
        began, failure, answer, status = time.monotonic(), None, None, None
        try:
            status, answer = call(self.port, method, path, body, headers, timeout=30)
        except (OSError, HTTPException) as exc:
            failure = type(exc).__name__
        request = Request(who, began, time.monotonic(), status, failure, expected)
        with self.lock:
            self.requests.append(request)
        return request, answer

    def until_answered(self, who: str, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
        """Asked again every 0.5 s while there is no answer or a 5xx."""
        while True:
            request, answer = self.ask(who, method, path, **kwargs)
            if request.status is not None and request.status < 500:
                return request.status, answer
            if self.give_up.wait(0.5):
                raise RuntimeError(f"{method} {path}: no answer before the end")

    # the organiser

    def draw(self) -> None:
        """The next round, drawn as the organiser does: when the answer is lost, the round
        is looked up (drawn or not) before it is asked for again."""
        number = len(self.rounds) + 1
        rounds = f"/api/v1/tournaments/{self.id}/rounds"
        while True:
            request, round_ = self.ask("organiser", "POST", rounds, {}, self.auth)
            if request.status == 201:
                break
            status, round_ = self.until_answered(  # 404: the lost POST drew nothing
                "organiser", "GET", f"{rounds}/{number}", headers=self.auth, expected=(404,)
            )
            if status == 200:
                break
            if self.give_up.wait(1.0):
                raise RuntimeError(f"round {number} was not drawn: {request.status} {round_}")
        tables = [Table(t["key"], t["players"], t["hands_planned"]) for t in round_["tables"]]
        for table in tables:
            self.sync(table)
        with self.lock:
            self.rounds.append(tables)
            self.lock.notify_all()

    def organiser(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                current = self.rounds[-1]
                if not all(t.done for t in current):
                    self.lock.wait(0.2)
                    continue
            if len(self.rounds) >= self.rounds_planned:
                return
            self.draw()

    # the tablets

    def sync(self, table: Table) -> None:
        """Where the table stands, as the server says (its start, and after a refusal)."""
        status, body = self.until_answered("sync", "GET", f"/api/v1/sessions/{table.key}")
        if status != 200:
            raise RuntimeError(f"GET session {table.key}: {status} {body}")
        with self.lock:
            table.count = body["hand_count"]
            table.sitting_out = body["sitting_out_next"]
            table.totals = {n: v for n, v in body["balances"].items() if n != POT}

    def tablet(self, index: int) -> None:
        rng = random.Random(f"{self.seed}-{index}")
        self.stop.wait(rng.uniform(0, self.pace))
        played = 0
        while not self.stop.is_set():
            with self.lock:
                table = self.rounds[played][index]
                if table.done:  # the next round's table, once it is drawn
                    if len(self.rounds) > played + 1:
                        played += 1
                    else:
                        self.lock.wait(0.2)
                    continue
            began = time.monotonic()
            self.send(table, rng)
            with self.lock:
                self.lock.notify_all()
            self.stop.wait(max(rng.uniform(0.5, 1.5) * self.pace - (time.monotonic() - began), 0))

    def send(self, table: Table, rng: random.Random) -> bool:
        """One hand, sent until the server takes it (or refuses it); True when taken."""
        with self.lock:
            active = [p for p in table.players if p != table.sitting_out]
            number = table.count + 1
        contract = rng.choice(["frage", "hand"])
        hand: dict[str, Any] = {
            "declarer": rng.choice(active),
            "contract": contract,
            "points": rng.randint(0, 120),
            "number": number,
        }
        if contract == "hand" and rng.random() < 0.3:
            hand["bid"] = rng.choice(range(66, 117, 5))
        sent = Sent(table.key, number, uuid.uuid4().hex, hand)
        table.sent.append(sent)
        path = f"/api/v1/sessions/{table.key}/hands"
        while True:
            request, answer = self.ask("hand", "POST", path, hand, {"Idempotency-Key": sent.key})
            sent.attempts.append(request)
            if request.status == 201:
                self.acknowledge(table, sent, answer)
                return True
            if request.status is not None and request.status < 500:
                self.sync(table)  # refused: the page would show why and wait for a tap
                return False
            if self.give_up.wait(RETRY_S):
                return False

    def acknowledge(self, table: Table, sent: Sent, answer: dict[str, Any]) -> None:
        with self.lock:
            sent.acknowledged_at = time.monotonic()
            table.count = answer["number"]
            for name, points in answer["net"].items():
                if name != POT:
                    table.totals[name] = table.totals.get(name, 0) + points
            if len(table.players) > 3:  # the next dealer sits out
                seat = table.players.index(answer["dealer"])
                table.sitting_out = table.players[(seat + 1) % len(table.players)]

    # the spectators

    def spectator(self, index: int) -> None:
        """The standings page, asked again WATCH_S after each answer with its ETag, on a
        kept-alive connection (a browser's: one the server closed is replaced, and a
        request that fails on a kept one is sent once more on a new one)."""
        path = f"/turnier/{self.key}/stand"
        connection = HTTPConnection(LOOPBACK, self.port, timeout=30)
        etag = None
        self.stop.wait(random.Random(f"{self.seed}-s{index}").uniform(0, WATCH_S))
        while not self.stop.is_set():
            headers: dict[str, str] = {"If-None-Match": etag, "X-Haferl-Live": "1"} if etag else {}
            began, status, failure = time.monotonic(), None, None
            for _ in range(2):
                sock = connection.sock
                if sock is not None and select.select([sock], [], [], 0)[0]:
                    connection.close()
                    sock = None
                try:
                    connection.request("GET", path, headers=headers)
                    response = connection.getresponse()
                    response.read()
                    status, etag = response.status, response.getheader("ETag") or etag
                    break
                except (OSError, HTTPException) as exc:
                    failure = type(exc).__name__
                    connection.close()
                    if sock is None:
                        break
            with self.lock:
                self.requests.append(Request("spectator", began, time.monotonic(), status, failure))
            self.stop.wait(WATCH_S)
        connection.close()

    # the run

    def threads(self) -> list[threading.Thread]:
        tables = len(self.rounds[0])
        return [
            threading.Thread(target=self.organiser),
            *(threading.Thread(target=self.tablet, args=(i,)) for i in range(tables)),
            *(threading.Thread(target=self.spectator, args=(i,)) for i in range(self.spectators)),
        ]

    @property
    def tables(self) -> list[Table]:
        return [table for tables in self.rounds for table in tables]

    @property
    def sent(self) -> list[Sent]:
        return [sent for table in self.tables for sent in table.sent]


def run(day: Day, restarter: Restarter, seconds: float, kills: int, finish: float = 120) -> None:
    """The day for `seconds`, the server killed `kills` times at spread moments (at 1/(k+1),
    2/(k+1), … of the run, ± 5 % of it at random); then no new hands, and the ones being
    sent are sent until taken (at most `finish` seconds)."""
    rng = random.Random(f"{day.seed}-kills")
    threads = day.threads()
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for k in range(1, kills + 1):
        at = seconds * (k / (kills + 1) + rng.uniform(-0.05, 0.05))
        if day.stop.wait(max(at - (time.monotonic() - began), 0)):
            break
        restarter.kill()
    day.stop.wait(max(seconds - (time.monotonic() - began), 0))
    day.stop.set()
    with day.lock:
        day.lock.notify_all()
    timer = threading.Timer(finish, day.give_up.set)
    timer.start()
    for thread in threads:
        thread.join()
    timer.cancel()
    day.give_up.set()


# --- what it comes to -------------------------------------------------------------------


def classify(request: Request, outages: list[Outage]) -> tuple[str, int | None]:
    """("answered" | "refused while down" | "cut by the kill" | "error", the outage's index):
    no answer while the server was down (from a kill to its first answer again) is
    expected, a refused connection or one cut; any other missing answer, a 4xx (but one
    the asker expects: `Request.expected`) or a 5xx is an error."""
    if request.status is not None:
        answered = request.status < 400 or request.status in request.expected
        return ("answered" if answered else "error"), None
    for index, outage in enumerate(outages):
        if outage.covers(request.began, request.ended):
            return (
                "refused while down" if request.failure == REFUSED else "cut by the kill"
            ), index
    return "error", None


@dataclass
class Stored:
    """A hand as the database holds it."""

    key: str | None
    facts: dict[str, Any]
    created_wall: float


def stored_hands(url: str, day: Day) -> tuple[dict[tuple[str, int], Stored], list[str]]:
    """Every stored hand of the day's tables by (table, number), and what is wrong: per table
    the acknowledged numbers are exactly the stored ones (1..N, no gap), each stored hand
    is the one its tablet sent as that number (its Idempotency-Key and facts), none is
    stored twice; the balances equal a fresh fold and what the 201s' nets add up to; the
    public standings JSON's totals are the sums of the tables' balances, and the kept
    standings equal the standings folded afresh from every hand (`fresh_standings`)."""
    from sqlalchemy import select as where

    from scorer import create_app
    from scorer.services import tournaments as ops
    from scorer.services.table_reads import fold_session
    from scorer.store.database import db
    from scorer.store.models import HandRecord, Tournament
    from scorer.store.table_rows import get_session

    stored: dict[tuple[str, int], Stored] = {}
    problems: list[str] = []
    sums: dict[str, int] = {}
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "faults"})
    with app.app_context():
        for table in day.tables:
            session = get_session(table.key)
            rows = db.session.scalars(
                where(HandRecord).where(HandRecord.session_id == session.id)
            ).all()
            numbers = sorted(r.number for r in rows)
            acknowledged = [s for s in table.sent if s.acknowledged_at is not None]
            acked = sorted(s.number for s in acknowledged)
            if acked != numbers or numbers != list(range(1, len(numbers) + 1)):
                problems.append(f"{table.key}: acknowledged {acked[-5:]}…, stored {numbers[-5:]}…")
            by_number = {s.number: s for s in acknowledged}
            for row in rows:
                created = row.created_at.replace(tzinfo=UTC).timestamp()
                stored[(table.key, row.number)] = Stored(row.idempotency_key, row.facts, created)
                sent = by_number.get(row.number)
                if row.voided or sent is None or row.idempotency_key != sent.key:
                    problems.append(f"{table.key}: hand {row.number} is not the one acknowledged")
                elif any(row.facts.get(k) != sent.hand.get(k) for k in ("declarer", "points")):
                    problems.append(f"{table.key}: hand {row.number} holds other facts")
            _, state = fold_session(session)
            if session.state != state.to_json():
                problems.append(f"{table.key}: the stored balances differ from a fresh fold")
            balances = {n: v for n, v in session.state["balances"].items()}
            if balances != {p: table.totals.get(p, 0) for p in balances}:
                problems.append(f"{table.key}: the 201s' nets do not add up to the balances")
            for name, points in balances.items():
                sums[name] = sums.get(name, 0) + points
        tournament = db.session.scalar(where(Tournament).where(Tournament.key == day.key))
        assert tournament is not None
        if ops.tournament_standings(tournament) != ops.fresh_standings(tournament):
            problems.append("the kept standings differ from a fresh fold of every hand")
        db.session.remove()
        db.engine.dispose()
    status, body = call(day.port, "GET", f"/api/v1/standings/{day.key}")
    shown = {line["player"]: line["total"] for line in body or []}
    if status != 200 or shown != {p: sums.get(p, 0) for p in shown} or len(shown) != len(sums):
        problems.append(f"the standings JSON ({status}) differs from the tables' balances")
    unanswered = [s for s in day.sent if s.acknowledged_at is None]
    if unanswered:
        problems.append(f"{len(unanswered)} hands sent were never acknowledged")
    return stored, problems


@dataclass
class Kill:
    """What one outage cost the tablets."""

    outage: Outage
    caught: int = 0
    """Hands with an attempt that got no answer in this outage."""
    retries: int = 0
    """Their attempts after the first."""
    replayed: int = 0
    """Of them, hands stored before the kill whose answer was cut: given again by their key."""
    lost: int = 0
    """Of them, hands not stored exactly once as acknowledged."""
    first_hand: float | None = None
    """Seconds from the kill to the first hand acknowledged after it."""


def kills(day: Day, outages: list[Outage], stored: Mapping[tuple[str, int], Stored]) -> list[Kill]:
    found = [Kill(outage) for outage in outages]
    for sent in day.sent:
        hit = {classify(a, outages)[1] for a in sent.attempts} - {None}
        for index in hit:
            kill = found[index]  # type: ignore[index]
            kill.caught += 1
            kill.retries += len(sent.attempts) - 1
            row = stored.get((sent.table, sent.number))
            if row is None or row.key != sent.key or sent.acknowledged_at is None:
                kill.lost += 1
            elif row.created_wall < kill.outage.killed_wall:
                kill.replayed += 1
    for kill in found:
        after = [
            s.acknowledged_at
            for s in day.sent
            if s.acknowledged_at is not None and s.acknowledged_at > kill.outage.killed_at
        ]
        if after:
            kill.first_hand = min(after) - kill.outage.killed_at
    return found
