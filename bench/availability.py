"""Benchmark: does one bad client slow everyone else? A light request's answer time on the
real server (started as `make run` starts it, SQLite, loopback only) at rest, while 16
slow clients send their requests a line or a byte a second, and while 10 score sheets of
a 2,000-hand evening are asked for at once.

Run: `.venv/bin/python bench/availability.py [--seconds 15]`. The light request is another
table's settle-up (`GET /api/v1/sessions/<key>/settlement`), asked for one after another
every 50 ms. Printed: answers, p50/p95/max, failures; for the slow clients how many the
server cut off; for the PDFs each answer's status and time. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import big_evening  # noqa: E402

from tests.support.servers import LOOPBACK, call, migrate_fresh, start_server  # noqa: E402

SLOW_CLIENTS = 16
PDFS_AT_ONCE = 10
BIG = 1990


def light_requests(port: int, path: str, stop: threading.Event) -> tuple[list[float], int]:
    """Ask for `path` one request after another until `stop`: answer times, failures."""
    times, failures = [], 0
    while not stop.is_set():
        before = time.perf_counter()
        try:
            status, _ = call(port, "GET", path, timeout=30)
        except OSError:
            status = None
        if status == 200:
            times.append(time.perf_counter() - before)
        else:
            failures += 1
        stop.wait(0.05)
    return times, failures


def spread(label: str, times: list[float], failures: int) -> str:
    if not times:
        return f"  {label}: no answers, {failures} failed"
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return (
        f"  {label}: {len(ms)} answers, p50 {statistics.median(ms):.1f}  p95 {p95:.1f}  "
        f"max {ms[-1]:.1f} ms, {failures} failed"
    )


def measured(port: int, path: str, seconds: float, meanwhile=None) -> tuple[list[float], int]:
    stop = threading.Event()
    result: list[tuple[list[float], int]] = []
    probe = threading.Thread(target=lambda: result.append(light_requests(port, path, stop)))
    probe.start()
    if meanwhile is not None:
        meanwhile()
    else:
        time.sleep(seconds)
    stop.set()
    probe.join()
    return result[0]


def slow_clients(port: int, table: str, seconds: float) -> int:
    """16 clients dripping their requests for `seconds`; how many the server cut off."""
    clients = []
    for n in range(SLOW_CLIENTS):
        client = socket.create_connection((LOOPBACK, port))
        if n % 2:
            client.sendall(
                f"POST /api/v1/sessions/{table}/hands HTTP/1.1\r\nHost: x\r\n"
                "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode()
            )
        else:
            client.sendall(b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\n")
        clients.append(client)
    cut = set()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for n, client in enumerate(clients):
            if n in cut:
                continue
            try:
                client.sendall(b" " if n % 2 else b"X-Slow: 1\r\n")
            except OSError:
                cut.add(n)
        time.sleep(1)
    for client in clients:
        client.close()
    return len(cut)


def pdf_burst(port: int, key: str) -> list[tuple[int | None, float]]:
    answers: list[tuple[int | None, float]] = []

    def ask() -> None:
        before = time.perf_counter()
        try:
            status, _ = call(port, "GET", f"/api/v1/sessions/{key}/export.pdf", timeout=120)
        except OSError:
            status = None
        answers.append((status, time.perf_counter() - before))

    threads = [threading.Thread(target=ask) for _ in range(PDFS_AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="each leg's length (15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="haferl-availability-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'availability.sqlite3'}"
        migrate_fresh(url)
        big = big_evening(url, BIG)
        server = start_server(url, Path(tmp) / "server.log")
        try:
            body = {"game": "tarok", "system": "points-kasse", "players": ["A", "B", "C"]}
            status, table = call(server.port, "POST", "/api/v1/sessions", body)
            assert status == 201, table
            light = f"/api/v1/sessions/{table['key']}/settlement"
            print(f"Availability on SQLite (1 process), light request GET {light}")
            print(spread("at rest", *measured(server.port, light, args.seconds)))
            cut: list[int] = []
            times = measured(
                server.port,
                light,
                args.seconds,
                lambda: cut.append(slow_clients(server.port, table["key"], args.seconds)),
            )
            print(spread(f"while {SLOW_CLIENTS} slow clients drip", *times))
            print(f"    slow clients cut off by the server: {cut[0]} of {SLOW_CLIENTS}")
            answers: list[tuple[int | None, float]] = []
            times = measured(
                server.port, light, 0, lambda: answers.extend(pdf_burst(server.port, big))
            )
            print(spread(f"while {PDFS_AT_ONCE} score sheets of {BIG} hands are asked for", *times))
            statuses = sorted(f"{s} in {t:.2f} s" for s, t in answers)
            print("    the sheets' answers: " + ", ".join(statuses))
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
