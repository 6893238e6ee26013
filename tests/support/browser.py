"""Debian's Chromium for the browser tests (tests/test_e2e*.py): a module of them skips
where Chromium or Playwright is missing (never in CI, which installs them), Chromium
launched as the brief asks, the app served in-process (`live_server`), a browser that maps
haferl.test to 127.0.0.1 (`browser`: a page that is not a secure context, as a tablet on
the pub's Wi-Fi opens it), the first organiser's sign-up, and where screenshots go. A
plugin registered in tests/conftest.py: the fixtures need no import."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.conftest import SETUP_CODE, dispose, make_app
from tests.support.servers import CHROMIUM, CHROMIUM_ARGS

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
"""tests/artifacts/: the screenshots (and tap counts) of the browser tests."""


def chromium_or_skip():
    """Playwright's sync API, called at the top of a module of browser tests: the module is
    skipped where Debian's Chromium is missing (never in CI: .ci/run installs it) or where
    Playwright is."""
    if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
        pytest.skip(
            "Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True
        )
    return pytest.importorskip("playwright.sync_api")


@contextmanager
def chromium(*args: str) -> Iterator[Any]:
    """Debian's Chromium, headless, launched with CHROMIUM_ARGS (and `args`); closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, *args]
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def live_server(tmp_path):
    """The app (CSRF on) served in-process on 127.0.0.1; its address."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    dispose(app)


def sign_up_organiser(page) -> dict[str, str]:
    """The first organiser signs up through the page; returns the API's Basic auth header."""
    page.goto("/veranstalter/registrieren")
    page.fill("input[name=setup_code]", SETUP_CODE)
    page.fill("input[name=name]", "Orga")
    page.fill("input[name=email]", "orga@example.org")
    page.fill("input[name=password]", "geheim123")
    page.fill("input[name=confirm]", "geheim123")
    page.get_by_role("button", name="Konto anlegen").click()
    page.wait_for_url("**/turniere")
    return {"Authorization": "Basic b3JnYUBleGFtcGxlLm9yZzpnZWhlaW0xMjM="}


HOST = "haferl.test"
"""The name the devices open the table by: Chromium maps it to 127.0.0.1 (`browser`), all
traffic stays on loopback, and the page is not a secure context."""


@pytest.fixture(scope="module")
def browser():
    """Chromium that opens http://haferl.test:PORT at 127.0.0.1 (`HOST`): one per test
    module (a launch takes a second or more), each test's devices in contexts of their own
    (cookies, storage and cache apart), closed at the test's end."""
    with chromium(f"--host-resolver-rules=MAP {HOST} 127.0.0.1") as launched:
        yield launched
