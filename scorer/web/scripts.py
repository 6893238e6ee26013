"""The pages' scripts: ES modules in `static/js/`, no build step. A page loads its entry
module (`static/js/main.js`, the standings' `static/js/standings.js`) with
`<script type="module">`, and names every module that one imports, however deep, as a
`<link rel="modulepreload">`: the browser fetches them all at once instead of one level of
imports after the other (a round trip each on a pub's Wi-Fi)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?\bfrom\s+["']\./([\w.-]+\.js)["']""", re.M)
"""`import … from "./name.js"` (and `export … from`): the modules import their siblings only."""


@cache
def imported_modules(folder: str, entry: str) -> tuple[str, ...]:
    """The modules `entry` (a file in `folder`) imports, itself not included, in the order
    they are first met."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        text = (Path(folder) / todo.pop(0)).read_text(encoding="utf-8")
        for name in IMPORT.findall(text):
            if name != entry and name not in seen:
                seen.append(name)
                todo.append(name)
    return tuple(seen)
