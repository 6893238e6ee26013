"""Benchmark: the table page on a slow tablet, in Chromium, as a player taps a hand in.

    .venv/bin/python bench/slow_tablet.py [--hands 20] [--loads 5] [--cpu 4]

It starts the real server (`python -m scorer.serve`, what `make run` starts, on a SQLite
file in a temporary directory, 127.0.0.1 only, CSRF on) through `tests/support/servers.py`,
opens a table of four (haferltarock, parlett-units) over the API, and drives its page
(`/t/<key>`, `scorer/table/routes.py`'s `table`, `templates/table.html`) in Debian's
Chromium, headless, launched as `tests/support/browser.py` launches it, at
`http://haferl.test:<port>` (mapped to 127.0.0.1 by `--host-resolver-rules`: not a secure
context, as a tablet on the pub's Wi-Fi opens it), 1024×768 with touch, German.

The slow tablet: its page's CPU 4× slower (Chrome DevTools' `Emulation.setCPUThrottlingRate`
on the page's own CDP session), and for the page loads the Wi-Fi profile "1.5 Mbit/s":
`Network.emulateNetworkConditions` with 187,500 B/s down, 93,750 B/s (750 kbit/s) up and
40 ms latency. Every figure is also measured without any throttling, as a reference line.

1. The page's JavaScript and CSS, counted from the network responses of a cold load (CDP
   `Network.responseReceived`, `dataReceived`, `loadingFinished`): the files, the bytes
   transferred (headers and body as they came over the wire, compressed where the server
   compressed: the `Content-Encoding` is printed) and the bytes decoded (the bodies as the
   page reads them).
2. The page usable, `--loads` times, each in a new browser context (an empty cache, no
   cookies): from the navigation's start to the later of the first contentful paint and
   the end of DOMContentLoaded. `static/js/main.js` is a module script, and DOMContentLoaded
   waits for module scripts and everything they import, so by then every feature's
   `start()` has run: the form's listeners, the queue's submit handler. The times come
   from the page's own Navigation and Paint Timing (`performance`), so Playwright's round
   trips are not in them; `load` (the QR code's image too) is printed beside.
3. `--hands` hands entered by tapping, as `tests/support/devices.py` does for the
   end-to-end tests (`page.touchscreen.tap` on the choices; the keypad's digits with
   `page.keyboard`): who plays, Frage, the card points (two digits), a look at the
   preview, then a tap on "Eintragen". Between hands the player waits 1 s. Measured inside
   the page by a script the bench adds to it (`add_init_script`): the `timeStamp` of the
   input events (when the browser took the touch or the key, before the page's busy main
   thread got to it) and a MutationObserver on the entry bar (`#preview`), which notes when
   its content changes and then, with `requestAnimationFrame`, the frame that draws it:
   - a tap on Eintragen to the confirmation "Spiel N eingetragen" drawn: from the tap's
     `touchend` (the finger lifted; the click that submits fires then) to the first frame
     after the bar shows the confirmation for that hand. The page shows it when the server
     answers 201 (`static/js/sending.js`), so this includes the POST's round trip; the
     bench's script also notes (wrapping `fetch`) when the POST went out and when its
     answer's headers came, printed as the medians of the three parts;
   - the preview after the card points are entered: from the `keydown` of the last digit to
     the first frame after the bar shows what the hand pays (`.preview-sum`) for those
     points: `static/js/preview.js` asks the server with the form as it stands, and the
     bench's script notes each `fetch` of the preview with the points it carries and when
     its answer came, so that an answer for the first digit alone is not counted.
   The hands are measured three times on the same table, each leg on a fresh page: 4× CPU
   on loopback (the targets' case: the tablet is slow, the Wi-Fi quick), 4× CPU with the
   Wi-Fi profile (its 40 ms, which DevTools adds between a request sent and its answer's
   headers, shows in both figures), and without throttling.

Printed: each figure with p50/p95/max (the loads: median and max), its target beside it and
"met" or "missed": tap to "eingetragen" p95 < 100 ms, the preview p95 < 150 ms, the page
usable < 1 s in every load with 4× CPU and the Wi-Fi profile. The bytes have no target.
This machine runs the server and the browser on the same CPUs (its load average is printed
at the start and the end: other work on it shows in every figure); its figures are those
of one run. Timings are never asserted; the exit status is non-zero only when a hand was not
stored or the page raised a script error.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import statistics
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.servers import CHROMIUM, CHROMIUM_ARGS, call, migrate_fresh, start_server  # noqa: E402

HOST = "haferl.test"
PLAYERS = ["Anton", "Berta", "Charlotte", "Dieter"]
WIFI = {
    "offline": False,
    "latency": 40,
    "downloadThroughput": 1_500_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
"""The Wi-Fi profile: 1.5 Mbit/s down, 750 kbit/s up, 40 ms latency."""
SAVE_TARGET_MS = 100.0
PREVIEW_TARGET_MS = 150.0
USABLE_TARGET_MS = 1000.0
PAUSE_MS = 1000
"""The player's pause between hands."""
VIEWPORT = {"width": 1024, "height": 768}

WATCH = """
(() => {
  const bench = { keys: [], touches: [], marks: [], asked: [], posts: [] };
  window.__bench = bench;
  // Each preview asked (static/js/preview.js) with the points it was asked for, and each
  // hand posted (static/js/sending.js), with when it was sent and when its answer came.
  const fetched = window.fetch;
  window.fetch = function (url, options) {
    const sent = performance.now();
    const answer = fetched.apply(this, arguments);
    const form = document.getElementById("hand-form");
    let noted = null;
    if (form && url === form.getAttribute("data-preview") && options.body instanceof FormData) {
      noted = { points: options.body.get("points"), sent, answered: null };
      bench.asked.push(noted);
    } else if (form && url === form.action) {
      noted = { sent, answered: null };
      bench.posts.push(noted);
    }
    if (noted) answer.then(() => { noted.answered = performance.now(); }, () => {});
    return answer;
  };
  const when = (event) => {
    const now = performance.now();
    return event.timeStamp > 0 && event.timeStamp <= now ? event.timeStamp : now;
  };
  document.addEventListener("keydown", (event) => {
    if (event.target && event.target.id === "points") bench.keys.push(when(event));
  }, true);
  document.addEventListener("touchend", (event) => {
    if (event.target.closest && event.target.closest(".entry-bar button[type=submit]")) {
      bench.touches.push(when(event));
    }
  }, true);
  function state(bar) {
    if (bar.hidden) return "hidden";
    const saved = bar.querySelector(".confirmation .what");
    if (saved) return "saved " + saved.textContent.trim();
    if (bar.querySelector(".preview-sum")) return "preview " + bar.textContent.trim();
    return "other";
  }
  document.addEventListener("DOMContentLoaded", () => {
    const bar = document.getElementById("preview");
    if (!bar) return;
    let last = state(bar);
    new MutationObserver(() => {
      const now = state(bar);
      if (now === last) return;
      last = now;
      const mark = { state: now, dom: performance.now(), frame: null };
      bench.marks.push(mark);
      requestAnimationFrame(() => { mark.frame = performance.now(); });
    }).observe(bar, { childList: true, subtree: true, characterData: true, attributes: true });
  });
})();
"""

PREVIEW_SHOWN = """
(points) => {
  const b = window.__bench, key = b.keys[b.keys.length - 1];
  const asked = b.asked.filter((a) => a.points === points && a.answered !== null).pop();
  if (!asked) return null;
  const m = b.marks.find((m) =>
    m.state.startsWith("preview") && m.dom > key && m.dom >= asked.answered && m.frame !== null);
  return m ? m.frame - key : null;
}
"""

SAVED_SHOWN = """
(number) => {
  const b = window.__bench, tap = b.touches[b.touches.length - 1];
  const said = "saved Spiel " + number + " eingetragen";
  const m = b.marks.find((m) => m.state.startsWith(said) && m.dom > tap && m.frame !== null);
  const post = b.posts.find((p) => p.sent >= tap && p.answered !== null);
  if (!m || !post) return null;
  return [m.frame - tap, post.sent - tap, post.answered - post.sent, m.frame - post.answered];
}
"""

TIMING = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    fcp: paint ? paint.startTime : null,
  };
}
"""


@dataclass
class Profile:
    name: str
    cpu: float
    network: dict[str, Any] | None


@dataclass
class Hands:
    name: str
    saves: list[float] = field(default_factory=list)
    parts: list[list[float]] = field(default_factory=list)
    """Per saved hand: the tap to the POST sent, the POST to its answer, the answer drawn."""
    previews: list[float] = field(default_factory=list)
    missing: int = 0
    """Hands whose confirmation (or preview) the bench did not see."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)] if ordered else math.nan


def mark(met: bool) -> str:
    return "met" if met else "missed"


def new_table(port: int) -> str:
    body = {
        "name": "Langsam",
        "game": "haferltarock",
        "system": "parlett-units",
        "players": PLAYERS,
        "first_dealer": "Dieter",
    }
    status, answer = call(port, "POST", "/api/v1/sessions", body)
    if status != 201:
        raise RuntimeError(f"POST /api/v1/sessions: {status} {answer}")
    return answer["key"]


def device(browser, site: str, profile: Profile, problems: list[str]):
    """A fresh tablet (an empty cache) with one page, throttled as `profile` says; the page's
    CDP session is returned with it."""
    context = browser.new_context(locale="de-DE", viewport=VIEWPORT, has_touch=True, base_url=site)
    page = context.new_page()
    page.on("pageerror", lambda e: problems.append(str(e)))
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    if profile.network:
        cdp.send("Network.emulateNetworkConditions", profile.network)
    if profile.cpu != 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile.cpu})
    return context, page, cdp


class Responses:
    """What a page's CDP session saw come in: per response its type, address, encoding, the
    bytes transferred and decoded."""

    def __init__(self, cdp):
        self.seen: dict[str, dict[str, Any]] = defaultdict(lambda: {"decoded": 0, "wire": 0})
        cdp.on("Network.responseReceived", self.received)
        cdp.on("Network.dataReceived", self.data)
        cdp.on("Network.loadingFinished", self.finished)

    def received(self, event: dict[str, Any]) -> None:
        response = event["response"]
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        self.seen[event["requestId"]].update(
            type=event.get("type"),
            url=response["url"],
            encoding=headers.get("content-encoding", "identity"),
        )

    def data(self, event: dict[str, Any]) -> None:
        self.seen[event["requestId"]]["decoded"] += event["dataLength"]

    def finished(self, event: dict[str, Any]) -> None:
        self.seen[event["requestId"]]["wire"] = event["encodedDataLength"]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [r for r in self.seen.values() if r.get("type") == kind and r["wire"]]


def page_loads(browser, site: str, path: str, profile: Profile, loads: int, problems: list[str]):
    """`loads` cold loads of the table page; (their timings, the responses of the first)."""
    timings, first = [], None
    for _ in range(loads):
        context, page, cdp = device(browser, site, profile, problems)
        responses = Responses(cdp)
        page.goto(path, wait_until="load")
        page.wait_for_timeout(200)  # the last events of the load
        timings.append(page.evaluate(TIMING))
        first = first or responses
        context.close()
    return timings, first


class Taps:
    """A finger on the touchscreen, as `tests/support/devices.py`'s Taps (not imported: it
    brings the tests' fixtures)."""

    def __init__(self, page):
        self.page = page

    def tap(self, locator) -> None:
        locator.scroll_into_view_if_needed()
        box = locator.bounding_box()
        if box is None:
            raise RuntimeError(f"nothing to tap: {locator}")
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def choice(self, group: str, label: str) -> None:
        self.tap(
            self.page.get_by_role("radiogroup", name=group)
            .locator("label")
            .filter(has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
        )


def one_hand(page, number: int) -> tuple[float | None, list[float] | None]:
    """Hand `number` tapped in and saved; (the preview's time, the confirmation's time and
    its parts) in ms, None where it was not seen."""
    taps = Taps(page)
    page.wait_for_function(
        "n => document.querySelector('#hand-form input[name=number]').value == n", arg=number
    )
    choices = page.eval_on_selector_all(
        "#hand-form input[name=declarer]", "inputs => inputs.map((i) => i.value)"
    )
    taps.choice("Wer spielt?", choices[number % len(choices)])
    taps.choice("Was?", "Frage")
    if page.evaluate("document.activeElement && document.activeElement.id") != "points":
        taps.tap(page.locator("#points"))
    points = str(40 + (number * 7) % 60)  # 40..99: two digits on the keypad
    page.keyboard.type(points)
    previewed = None
    try:
        page.wait_for_function(PREVIEW_SHOWN, arg=points, timeout=10_000)
        previewed = page.evaluate(PREVIEW_SHOWN, points)
    except Exception:  # noqa: BLE001 - a preview never shown is counted, not raised
        pass
    page.wait_for_timeout(300)  # a look at what it pays
    taps.tap(page.locator(".entry-bar button[type=submit]"))
    saved = None
    try:
        page.wait_for_function(SAVED_SHOWN, arg=number, timeout=15_000)
        saved = page.evaluate(SAVED_SHOWN, number)
    except Exception:  # noqa: BLE001
        pass
    return previewed, saved


def hands_leg(browser, site: str, port: int, key: str, profile: Profile, count: int, problems):
    """`count` hands at table `key` on a fresh page throttled as `profile` says."""
    result = Hands(profile.name)
    context, page, _ = device(browser, site, profile, problems)
    page.add_init_script(WATCH)
    before = call(port, "GET", f"/api/v1/sessions/{key}")[1]["hand_count"]
    page.goto(f"/t/{key}", wait_until="load")
    if page.evaluate("window.isSecureContext"):
        problems.append("the table page is a secure context: not as on the pub's Wi-Fi")
    for n in range(before + 1, before + count + 1):
        previewed, saved = one_hand(page, n)
        if previewed is None or saved is None:
            result.missing += 1
        if previewed is not None:
            result.previews.append(previewed)
        if saved is not None:
            result.saves.append(saved[0])
            result.parts.append(saved[1:])
        page.wait_for_timeout(PAUSE_MS)
    context.close()
    stored = call(port, "GET", f"/api/v1/sessions/{key}")[1]["hand_count"] - before
    if stored != count:
        problems.append(f"{profile.name}: {count} hands tapped in, {stored} stored")
    return result


def figures(values: list[float]) -> str:
    return (
        f"p50 {statistics.median(values) if values else math.nan:6.0f}  "
        f"p95 {percentile(values, 0.95):6.0f}  max {max(values, default=math.nan):6.0f} ms"
    )


def report_bytes(responses: Responses) -> None:
    for kind, label in (("Script", "JavaScript"), ("Stylesheet", "CSS")):
        files = responses.of(kind)
        encodings = ", ".join(sorted({f["encoding"] for f in files})) or "-"
        wire = sum(f["wire"] for f in files)
        decoded = sum(f["decoded"] for f in files)
        print(
            f"  {label:<11} {len(files):3d} files  {wire / 1000:7.1f} kB transferred "
            f"(headers and bodies; Content-Encoding: {encodings})  {decoded / 1000:7.1f} kB decoded"
        )
    everything = [r for r in responses.seen.values() if r["wire"]]
    print(
        f"  {'everything':<11} {len(everything):3d} files  "
        f"{sum(r['wire'] for r in everything) / 1000:7.1f} kB transferred "
        f"(the HTML, the images and the rest of the load)"
    )


def report_loads(profile: Profile, timings: list[dict[str, float]], target: bool) -> None:
    usable = [max(t["dcl"], t["fcp"] or 0) for t in timings]
    line = (
        f"  {profile.name:<34} usable median {statistics.median(usable):6.0f}  max "
        f"{max(usable):6.0f} ms  (DOMContentLoaded median "
        f"{statistics.median(t['dcl'] for t in timings):.0f}, first paint "
        f"{statistics.median(t['fcp'] or math.nan for t in timings):.0f}, load "
        f"{statistics.median(t['load'] for t in timings):.0f} ms)"
    )
    if target:
        line += (
            f"  [every load < {USABLE_TARGET_MS:.0f} ms: {mark(max(usable) < USABLE_TARGET_MS)}]"
        )
    print(line)


def report_hands(result: Hands) -> None:
    save_p95 = percentile(result.saves, 0.95)
    preview_p95 = percentile(result.previews, 0.95)
    print(
        f"  {result.name}"
        + (f"  ({result.missing} hands not seen whole)" if result.missing else "")
    )
    print(
        f"    tap on Eintragen → „eingetragen“  {figures(result.saves)}  "
        f"[p95 < {SAVE_TARGET_MS:.0f} ms: {mark(save_p95 < SAVE_TARGET_MS)}]"
    )
    if result.parts:
        sent, answered, drawn = (statistics.median(p[i] for p in result.parts) for i in range(3))
        print(
            f"      of which (medians): the tap to the POST sent {sent:.0f} ms, the POST to its "
            f"answer {answered:.0f} ms, the answer to the frame drawn {drawn:.0f} ms"
        )
    print(
        f"    last digit → the preview          {figures(result.previews)}  "
        f"[p95 < {PREVIEW_TARGET_MS:.0f} ms: {mark(preview_p95 < PREVIEW_TARGET_MS)}]"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="hands per leg (20)")
    parser.add_argument("--loads", type=int, default=5, help="cold page loads per profile (5)")
    parser.add_argument("--cpu", type=float, default=4.0, help="CPU slowdown (4)")
    args = parser.parse_args()
    if args.hands < 1 or args.loads < 1 or args.cpu < 1:
        parser.error("--hands and --loads must be positive, --cpu at least 1")
    slow = Profile(f"CPU {args.cpu:g}× + Wi-Fi 1.5 Mbit/s", args.cpu, WIFI)
    slow_cpu = Profile(f"CPU {args.cpu:g}×, loopback", args.cpu, None)
    reference = Profile("reference: no throttling", 1, None)
    print(
        f"Slow tablet: the table page in Chromium (headless, {VIEWPORT['width']}×"
        f"{VIEWPORT['height']}, touch, de-DE) at http://{HOST}:<port> (not a secure context); "
        f"{os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.1f}), Python "
        f"{platform.python_version()}, the server and the browser on the same machine."
    )
    print(
        f"Wi-Fi profile: {WIFI['downloadThroughput'] * 8 / 1e6:g} Mbit/s down, "
        f"{WIFI['uploadThroughput'] * 8 / 1e3:g} kbit/s up, {WIFI['latency']} ms latency; CPU "
        f"{args.cpu:g}× slower. Targets: tap → „eingetragen“ p95 < {SAVE_TARGET_MS:.0f} ms, "
        f"the preview p95 < {PREVIEW_TARGET_MS:.0f} ms, the page usable < "
        f"{USABLE_TARGET_MS:.0f} ms (CPU {args.cpu:g}× + Wi-Fi). Nothing is asserted."
    )
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="haferl-slow-tablet-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'tablet.sqlite3'}"
        migrate_fresh(url)
        server = start_server(url, Path(tmp) / "server.log")
        try:
            key = new_table(server.port)
            site = f"http://{HOST}:{server.port}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM,
                    headless=True,
                    args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
                )
                try:
                    slow_loads, responses = page_loads(
                        browser, site, f"/t/{key}", slow, args.loads, problems
                    )
                    quick_loads, _ = page_loads(
                        browser, site, f"/t/{key}", reference, args.loads, problems
                    )
                    print(
                        "\nThe table page's JavaScript and CSS (a cold load, CPU and Wi-Fi slowed):"
                    )
                    report_bytes(responses)
                    print(
                        f"\nThe page usable, from navigation start ({args.loads} cold loads each):"
                    )
                    report_loads(slow, slow_loads, target=True)
                    report_loads(reference, quick_loads, target=False)
                    print(f"\n{args.hands} hands tapped in, each leg on a fresh page:")
                    for profile in (slow_cpu, slow, reference):
                        report_hands(
                            hands_leg(
                                browser, site, server.port, key, profile, args.hands, problems
                            )
                        )
                finally:
                    browser.close()
        finally:
            server.stop()
        log = (Path(tmp) / "server.log").read_text(errors="replace")
        errors = [line for line in log.splitlines() if re.search(r"\b(ERROR|Traceback)\b", line)]
        if errors:
            problems.append(f"server log: {len(errors)} error line(s), first: {errors[0][:160]}")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} (1 min)")
    print("\nchecks: " + ("ok (every hand stored, no script errors)" if not problems else "FAILED"))
    for problem in problems[:10]:
        print(f"  {problem}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
