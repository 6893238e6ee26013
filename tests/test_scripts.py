"""The pages' scripts (ES modules in static/js/, no build step) hold together: each page
preloads every module its entry imports, the modules meet in static/js/hooks.js only (no
`data-*` string and no event name written out elsewhere, no global), every hook named
there is set by a template (or by the scripts themselves), and one helper fills the
translated words' placeholders."""

from __future__ import annotations

import re
from pathlib import Path

from scorer.web.scripts import imported_modules

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "static" / "js"
ENTRIES = {"main.js", "standings.js"}
MADE_BY_SCRIPTS = {"data-entry", "data-next", "data-correct", "data-theme"}
"""Set on elements the scripts make (the panels) or by static/theme.js."""


def modules() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in JS.glob("*.js")}


def test_every_module_is_imported_from_the_pages_entry():
    assert set(imported_modules(str(JS), "main.js")) == set(modules()) - ENTRIES
    assert set(imported_modules(str(JS), "standings.js")) == {"live.js", "hooks.js"}


def test_the_pages_load_the_modules_at_once(client):
    page = client.get("/").get_data(as_text=True)
    static = client.application.static_url_path  # /static/<version>: web.assets
    assert f'<script type="module" src="{static}/js/main.js"></script>' in page
    for name in imported_modules(str(JS), "main.js"):
        assert f'<link rel="modulepreload" href="{static}/js/{name}">' in page


def test_the_hooks_are_written_in_one_place():
    for name, text in modules().items():
        assert "window.Haferl" not in text, name
        if name == "hooks.js":
            continue
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
        assert not re.search(r"""["'](data-[\w-]+|haferl:\w+)""", code), name
        assert "%\\(" not in code or name == "words.js", name  # words.fill fills them


def test_every_hook_is_set_where_hooks_js_says():
    hooks = (JS / "hooks.js").read_text(encoding="utf-8")
    named = set(re.findall(r'=\s*"(data-[\w-]+)"', hooks)) | set(
        re.findall(r':\s*"(data-[\w-]+)"', hooks)
    )
    sources = "\n".join(
        path.read_text(encoding="utf-8")
        for folder in ("templates", "scorer")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in {".html", ".py"}
    )
    for attribute in sorted(named - MADE_BY_SCRIPTS):
        assert re.search(re.escape(attribute) + r"(?![\w-])", sources), attribute
