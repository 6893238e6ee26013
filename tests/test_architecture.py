"""The house's map holds: no import cycle between two modules (imports inside functions
count), and no module too long to read in one sitting: past 400 lines a module is named in
the warnings (time to split it by concept), past 600 the suite fails. The layers themselves
are checked by import-linter (`make lint`, the contracts in pyproject.toml). What tests
share lives in tests/support/: no test module imports another."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import grimp
import pytest

from scorer.domain.model import RuleError
from tests.conftest import PLAIN_RULE_MESSAGES

ROOT = Path(__file__).resolve().parent.parent
WARN_LINES, MAX_LINES = 400, 600


class LongModule(UserWarning):
    """A module past WARN_LINES: still readable, but its concepts want their own rooms."""


def strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """The import cycles of `graph`: each group of modules that reach one another."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return groups


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(module)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.b")
    graph.add_import(importer="a.d", imported="a.b")
    assert strongly_connected(graph) == [["a.b", "a.c"]]


def test_no_module_imports_one_that_imports_it_back():
    graph = grimp.build_graph("scorer", include_external_packages=False)
    assert strongly_connected(graph) == []


@pytest.mark.parametrize(
    "path", sorted(str(p.relative_to(ROOT)) for p in (ROOT / "scorer").rglob("*.py"))
)
@pytest.mark.filterwarnings("always::tests.test_architecture.LongModule")
def test_no_module_is_longer_than_a_sitting(path):
    lines = (ROOT / path).read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{path}: {lines} lines"
    if lines > WARN_LINES:
        warnings.warn(f"{path}: {lines} lines (over {WARN_LINES})", LongModule, stacklevel=1)


def test_the_guard_catches_a_plain_string():
    """The check of `tests/conftest.py` works: a RuleError made with a plain string is recorded."""
    PLAIN_RULE_MESSAGES.clear()
    RuleError.one("name", "a plain string")
    assert PLAIN_RULE_MESSAGES == ["a plain string"]
    PLAIN_RULE_MESSAGES.clear()


def test_no_test_module_imports_another():
    """A helper another test needs goes to tests/support/ (a test module imported by another
    ties the two together, and its fixtures and constants travel unseen)."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            found += [
                f"{path.relative_to(ROOT)}: {name}"
                for name in names
                if name.startswith("tests.test_") or name.startswith("test_")
            ]
    assert found == []


BENCHES = sorted((Path(__file__).resolve().parents[1] / "bench").glob("*.py"))


@pytest.mark.parametrize("path", BENCHES, ids=lambda p: p.name)
def test_every_bench_script_still_imports(path, monkeypatch):
    """A bench is run by hand, not by the suite: one whose imports went stale (a function
    that moved) fails here, not on the next person who measures."""
    import importlib.util
    import sys

    monkeypatch.syspath_prepend(str(path.parent))
    name = f"bench_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "main", None)), f"{path.name} has no main()"
