"""Every module imports on its own, first thing in a fresh interpreter: no import cycle
hides behind the order in which the app happens to load its blueprints."""

from __future__ import annotations

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


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first(module):
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
