"""Benchmark: what htmx with idiomorph would cost a slow tablet, beside the live regions'
own script they would replace (#42 item 8: "measure and decide").

    .venv/bin/python bench/htmx_weight.py [--loads 7] [--cpu 4]

`static/js/live.js` (with `hooks.js`, the one module it imports) is what swaps a live
page's regions in place when the page changed: the part of the scripts that htmx
(`hx-get` with `hx-trigger="every 1.5s"`) and idiomorph (its morph swap) would do instead.
Their files come from the npm registry as devDependencies (package.json: `htmx.org`,
`idiomorph`; `npm ci` installs them, as `make lint` does), read from `node_modules/`;
nothing of them is served by the app.

1. The bytes of each: as the file is (htmx's minified ES module, idiomorph's ES module and
   its minified build) and gzipped at level 9 (about what Flask-Compress sends).
2. The time each takes to arrive and run on a tablet: a page on a plain http server on
   127.0.0.1 (`http://haferl.test:<port>`, mapped by `--host-resolver-rules`: not a secure
   context) imports the modules in a module script and notes `performance.now()` around
   the `import()`. Each load is a new browser context (no cache), the page's CPU slowed
   `--cpu` times (CDP `Emulation.setCPUThrottlingRate`); Debian's Chromium, headless,
   launched as `tests/support/browser.py` launches it. Median and max of `--loads` loads,
   beside an empty module's (what any import costs: the request and the module's set-up),
   and the same without throttling.

Figures of one run on this machine; nothing is asserted.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.servers import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

MODULES = ROOT / "node_modules"
FILES = {
    "live.js + hooks.js (ours)": [ROOT / "static/js/live.js", ROOT / "static/js/hooks.js"],
    "htmx 4 (htmx.esm.min.js)": [MODULES / "htmx.org/dist/htmx.esm.min.js"],
    "idiomorph (idiomorph.esm.js)": [MODULES / "idiomorph/dist/idiomorph.esm.js"],
    "idiomorph (idiomorph.min.js, UMD)": [MODULES / "idiomorph/dist/idiomorph.min.js"],
}
IMPORTS = {
    "an empty module": ["/vendor/empty.js"],
    "ours: live.js": ["/static/js/live.js"],
    "htmx + idiomorph": ["/vendor/htmx.esm.min.js", "/vendor/idiomorph.esm.js"],
}
PAGE = """<!doctype html><meta charset="utf-8"><title>weight</title>
<script type="module">
const urls = JSON.parse(new URLSearchParams(location.search).get("urls"));
const start = performance.now();
for (const url of urls) await import(url);
window.took = performance.now() - start;
</script>"""


def report_bytes() -> None:
    print("bytes (as the file is / gzip -9):")
    for name, paths in FILES.items():
        raw = b"".join(p.read_bytes() for p in paths)
        print(f"  {name:36} {len(raw):7,} B  {len(gzip.compress(raw, 9)):6,} B")


class _Files(http.server.SimpleHTTPRequestHandler):
    """The site's files, without a line printed per request."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        pass


def serve(root: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(_Files, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def site() -> Path:
    root = Path(tempfile.mkdtemp(prefix="haferl-weight-"))
    (root / "static").symlink_to(ROOT / "static")
    (root / "vendor").mkdir()
    for name in ("htmx.org/dist/htmx.esm.min.js", "idiomorph/dist/idiomorph.esm.js"):
        (root / "vendor" / Path(name).name).symlink_to(MODULES / name)
    (root / "vendor" / "empty.js").write_text("export {};\n")
    (root / "page.html").write_text(PAGE)
    return root


def loads(browser, address: str, urls: list[str], *, count: int, cpu: float) -> list[float]:
    took = []
    for _ in range(count):
        context = browser.new_context()
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        page.goto(f"{address}/page.html?urls={quote(json.dumps(urls))}")
        page.wait_for_function("window.took !== undefined")
        took.append(page.evaluate("window.took"))
        context.close()
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=7)
    parser.add_argument("--cpu", type=float, default=4)
    args = parser.parse_args()
    missing = [p for paths in FILES.values() for p in paths if not p.exists()]
    if missing:
        print(f"missing {missing[0]}: run `npm ci` (package.json's devDependencies)")
        return 1
    report_bytes()
    from playwright.sync_api import sync_playwright

    server = serve(site())
    port = server.server_address[1]
    rules = "--host-resolver-rules=MAP haferl.test 127.0.0.1"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, rules]
        )
        address = f"http://haferl.test:{port}"
        for cpu in (args.cpu, 1):
            print(
                f"\nimport() to evaluated, {cpu:g}× CPU, a new context each ({args.loads} loads):"
            )
            for name, urls in IMPORTS.items():
                loads(browser, address, urls, count=1, cpu=cpu)  # the server warm
                took = loads(browser, address, urls, count=args.loads, cpu=cpu)
                median, most = statistics.median(took), max(took)
                print(f"  {name:20} median {median:6.1f} ms   max {most:6.1f} ms")
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
