"""Every module imports on its own, first thing in a fresh interpreter: no import cycle
hides behind the order in which the app happens to load its blueprints."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import scorer

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(scorer.__path__, "scorer.")
    if not m.name.startswith("scorer.domain.")
)


@pytest.fixture(scope="module")
def first_imports() -> dict[str, str | None]:
    """Each module imported first thing in an interpreter of its own (tests/support/
    first_imports.py): the end of its traceback, or None."""
    result = subprocess.run(
        [sys.executable, "-m", "tests.support.first_imports", *MODULES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first(module, first_imports):
    assert first_imports[module] is None, first_imports[module]


def test_the_domain_imports_without_flask_or_sqlalchemy():
    """The rules engine stands alone: importing it (and every module in it) loads no web
    framework, database layer or rate limiter."""
    code = (
        "import sys, pkgutil, importlib, scorer.domain\n"
        "for m in pkgutil.walk_packages(scorer.domain.__path__, 'scorer.domain.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
        "('flask', 'sqlalchemy', 'flask_limiter', 'flask_sqlalchemy', 'werkzeug', 'weasyprint'))\n"
        "print(bad)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", result.stdout


def test_the_server_never_imports_weasyprint():
    """WeasyPrint (40 MB and half a second) is loaded only by the renderer's child process
    (`scorer/reports/renderer.py`): the app and its papers import without it."""
    code = (
        "import sys, scorer.app, scorer.reports.pdf, scorer.reports.printing\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] == 'weasyprint'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", result.stdout
