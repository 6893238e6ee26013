"""What the docs name exists: every `scorer/…` (or `tests/`, `bench/`, `docs/`, `static/`,
`templates/`, `migrations/`, `.ci/`) path, every `scorer.x.y` name and every `make` target
that README.md, docs/*.md, the Makefile and the docstrings and comments of scorer/ and
bench/ mention. A rename that leaves a doc behind fails here."""

from __future__ import annotations

import importlib
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(
    [
        ROOT / "README.md",
        ROOT / "Makefile",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "scorer").rglob("*.py"),
        *(ROOT / "bench").glob("*.py"),
    ]
)
FOLDERS = "scorer|tests|bench|docs|static|templates|migrations|\\.ci"
PATH = re.compile(rf"(?<![\w/.])((?:{FOLDERS})/[\w./\-]*\w)")
NAME = re.compile(r"(?<![\w/.])(scorer(?:\.\w+)+)")
MAKE = re.compile(r"`make ([\w\-]+)")
TARGETS = set(re.findall(r"^([\w\-./]+)\s*:", (ROOT / "Makefile").read_text(), re.M))


def resolves(dotted: str) -> bool:
    """`scorer.a.b.name`: the longest importable module, then attributes from there."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            target = importlib.import_module(module)
            for attribute in parts[cut:]:
                if not hasattr(target, attribute):
                    return False
                target = getattr(target, attribute)
            return True
    return False


def generated(named: str) -> bool:
    """A file the build makes and git ignores (the catalogues' template, say)."""
    ignored = subprocess.run(["git", "check-ignore", "-q", named], cwd=ROOT, check=False)
    return ignored.returncode == 0


def path_exists(named: str) -> bool:
    """A path, or `scorer/a/b.name` (a module's file, then a name in it); a file the build
    makes counts as there."""
    if (ROOT / named).exists() or generated(named):
        return True
    module, _, attribute = named.rpartition(".")
    if (ROOT / f"{module}.py").exists():
        return resolves(module.replace("/", ".") + "." + attribute)
    return False


def mentions() -> list[tuple[str, str, str]]:
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        where = str(doc.relative_to(ROOT))
        found += [(where, "path", p) for p in sorted(set(PATH.findall(text)))]
        found += [(where, "name", n) for n in sorted(set(NAME.findall(text)))]
        found += [(where, "make", m) for m in sorted(set(MAKE.findall(text)))]
    return found


def test_the_docs_name_something():
    kinds = {kind for _, kind, _ in mentions()}
    assert kinds == {"path", "name", "make"}
    assert not path_exists("scorer/exports/printing.py")  # the checks can say no
    assert not resolves("scorer.i18n.init_app")


@pytest.mark.parametrize(("doc", "kind", "named"), mentions())
def test_what_the_docs_name_exists(doc, kind, named):
    if kind == "path":
        assert path_exists(named), f"{doc} names {named}, which is not there"
    elif kind == "name":
        assert resolves(named), f"{doc} names {named}, which is not there"
    else:
        assert named in TARGETS, f"{doc} names `make {named}`, which the Makefile lacks"
