"""Each scorer module named on the command line, imported first thing in an interpreter of
its own (tests/test_imports.py): no import cycle hides behind the order in which the app
happens to load its modules.

An interpreter of its own is a child forked from one that has loaded the libraries the
modules load (Flask, SQLAlchemy, WeasyPrint, …) and none of scorer's: a library cannot
import scorer, so it cannot hide a cycle of scorer's, and the 115 children then take
seconds instead of the minute that as many fresh interpreters took.

Prints one JSON object, on the last line: each module and the end of its traceback, or
null where it imported."""

from __future__ import annotations

import importlib
import json
import os
import sys
import traceback

TRACEBACK_CHARS = 2000


def in_a_child(work, *args) -> tuple[bool, str]:
    """`work(*args)` in a forked child: whether it returned, and what it wrote back (a
    string, at most TRACEBACK_CHARS + a little, well inside a pipe's buffer)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        status, said = 0, ""
        try:
            said = work(*args) or ""
        except BaseException:  # noqa: BLE001 - the child reports whatever stopped it
            status, said = 1, traceback.format_exc()[-TRACEBACK_CHARS:]
        os.write(write, said.encode())
        os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0, said


def imported_first(module: str) -> str:
    """`module` imported (in a child that has imported none of scorer)."""
    importlib.import_module(module)
    return ""


def libraries_of(modules: list[str]) -> str:
    """What importing all `modules` loads that is not scorer's (in a child: the parent
    stays without scorer), as JSON. A module that does not import is passed over here:
    its own child says why."""
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001, S112
            continue
    return json.dumps(sorted(n for n in sys.modules if n.split(".")[0] not in ("scorer", "tests")))


def main(modules: list[str]) -> None:
    ok, said = in_a_child(libraries_of, modules)
    if not ok:
        print(said, file=sys.stderr)  # then each child imports its libraries too: slower
    for name in json.loads(said) if ok else []:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001, S112 - a library's optional part: not ours to check
            continue
    assert not any(n.split(".")[0] == "scorer" for n in sys.modules), "scorer came with a library"
    results = {}
    for module in modules:
        ok, said = in_a_child(imported_first, module)
        results[module] = None if ok else said
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:])
