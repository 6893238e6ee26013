"""Benchmark: the bytes of the table, standings and group pages, and how long they take to
load on a pub's Wi-Fi, with and without compression.

    .venv/bin/python bench/compression.py [--down-kbit 1500] [--latency-ms 150] [--runs 3]

It starts the real server (`python -m scorer.serve`, as `make run` does, on a SQLite file
in a temporary directory, 127.0.0.1 only) twice: once as it is, once with
`SCORER_COMPRESS_REGISTER=false` (Flask-Compress not registered). On each it builds the same
data through the API: a table of four with 40 hands, a Stammtisch group with an evening of
20 hands, and a 200-player tournament with 200 hands in its first round. Then Debian's
Chromium (headless, through Playwright, as the end-to-end tests drive it) opens each page
with an empty cache on an emulated network (Chrome DevTools' network conditions: the
download rate and latency given, upload at the same rate) and reports, per page: the bytes
of the HTML as sent, the bytes of everything the page loaded (HTML, styles, scripts,
images) as sent, and the time until the page's `load` event (median of `--runs`).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import base64
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.servers import CHROMIUM, CHROMIUM_ARGS, call, migrate_fresh, start_server  # noqa: E402

SETUP_CODE = "bench-setup-code"
PASSWORD = "geheim123"


def sign_up(port: int) -> dict[str, str]:
    from http.client import HTTPConnection

    form = (
        f"setup_code={SETUP_CODE}&name=Orga&email=orga@example.org"
        f"&password={PASSWORD}&confirm={PASSWORD}"
    ).encode()
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(
        "POST",
        "/veranstalter/registrieren",
        body=form,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    connection.getresponse().read()
    connection.close()
    token = base64.b64encode(f"orga@example.org:{PASSWORD}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def play(port: int, key: str, hands: int) -> None:
    for n in range(hands):
        status, state = call(port, "GET", f"/api/v1/sessions/{key}")
        players = [p for p in state["players"] if p != state.get("sitting_out_next")]
        hand = {"declarer": players[n % len(players)], "contract": "frage", "points": 61 + n % 50}
        status, body = call(port, "POST", f"/api/v1/sessions/{key}/hands", hand)
        assert status == 201, body


def build(port: int) -> dict[str, str]:
    """The three pages' addresses, after the same data was entered."""
    four = ["Anton", "Berta", "Charlotte", "Dieter"]
    status, table = call(
        port,
        "POST",
        "/api/v1/sessions",
        {"game": "haferltarock", "system": "parlett-units", "players": four},
    )
    assert status == 201, table
    play(port, table["key"], 40)
    status, group = call(
        port,
        "POST",
        "/api/v1/groups",
        {
            "name": "Freitagsrunde",
            "game": "haferltarock",
            "system": "parlett-units",
            "members": four,
        },
    )
    assert status == 201, group
    status, evening = call(
        port, "POST", f"/api/v1/groups/{group['key']}/evenings", {"players": four}
    )
    assert status == 201, evening
    play(port, evening["key"], 20)
    auth = sign_up(port)
    body = {
        "name": "Turnier",
        "date": "2026-03-14",
        "game": "haferltarock",
        "system": "parlett-units",
        "rounds": 4,
        "deals_per_player": 4,
        "players": [f"Spieler {i}" for i in range(1, 201)],
    }
    status, tournament = call(port, "POST", "/api/v1/tournaments", body, auth)
    assert status == 201, tournament
    status, round_ = call(port, "POST", f"/api/v1/tournaments/{tournament['id']}/rounds", {}, auth)
    assert status == 201, round_
    for table_ in round_["tables"]:
        play(port, table_["key"], 4)
    return {
        "table": f"/t/{table['key']}",
        "standings": f"/turnier/{tournament['key']}/stand",
        "group": f"/s/{group['key']}",
    }


def measure(port: int, pages: dict[str, str], args) -> dict[str, tuple[int, int, float]]:
    """For each page: (HTML bytes as sent, all bytes as sent, median load time in ms)."""
    from playwright import sync_api

    results = {}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        for name, path in pages.items():
            loads, html_bytes, all_bytes = [], 0, 0
            for _ in range(args.runs):
                context = browser.new_context(viewport={"width": 1024, "height": 768})
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                rate = args.down_kbit * 1000 / 8
                cdp.send(
                    "Network.emulateNetworkConditions",
                    {
                        "offline": False,
                        "latency": args.latency_ms,
                        "downloadThroughput": rate,
                        "uploadThroughput": rate,
                    },
                )
                sizes: dict[str, float] = {}
                urls: dict[str, str] = {}
                cdp.on(
                    "Network.requestWillBeSent",
                    lambda e, u=urls: u.update({e["requestId"]: e["request"]["url"]}),
                )
                cdp.on(
                    "Network.loadingFinished",
                    lambda e, s=sizes: s.update({e["requestId"]: e["encodedDataLength"]}),
                )
                started = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}{path}", wait_until="load")
                loads.append((time.perf_counter() - started) * 1000)
                page.wait_for_timeout(300)
                html_bytes = int(
                    sum(size for rid, size in sizes.items() if urls.get(rid, "").endswith(path))
                )
                all_bytes = int(sum(sizes.values()))
                context.close()
            results[name] = (html_bytes, all_bytes, statistics.median(loads))
        browser.close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--down-kbit", type=float, default=1500)
    parser.add_argument("--latency-ms", type=float, default=150)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    figures = {}
    for label, env in (("compressed", {}), ("plain", {"SCORER_COMPRESS_REGISTER": "false"})):
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            migrate_fresh(url)
            server = start_server(
                url,
                Path(folder) / "server.log",
                SCORER_SETUP_CODE=SETUP_CODE,
                SCORER_WTF_CSRF_ENABLED="false",
                **env,
            )
            try:
                pages = build(server.port)
                figures[label] = measure(server.port, pages, args)
            finally:
                server.stop()
    print(
        f"Network: {args.down_kbit:.0f} kbit/s, {args.latency_ms:.0f} ms latency, empty cache; "
        f"median of {args.runs} loads in Chromium"
    )
    print(
        f"{'page':<10} {'HTML plain':>11} {'HTML sent':>10} {'all plain':>10} "
        f"{'all sent':>9} {'load plain':>11} {'load sent':>10}"
    )
    for name in figures["plain"]:
        plain, packed = figures["plain"][name], figures["compressed"][name]
        print(
            f"{name:<10} {plain[0] / 1000:>9.1f}kB {packed[0] / 1000:>8.1f}kB "
            f"{plain[1] / 1000:>8.1f}kB {packed[1] / 1000:>7.1f}kB "
            f"{plain[2]:>9.0f}ms {packed[2]:>8.0f}ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
