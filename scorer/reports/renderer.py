"""The PDF renderer's child process (`scorer.reports.weasy.write_pdf` runs this file as a
script): WeasyPrint lays out the HTML read from stdin with the stylesheet from `static/`
and writes the PDF to stdout. It imports no package of ours, so neither Flask nor the
database is loaded here, and WeasyPrint is loaded nowhere else.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

NICENESS = 10


def render(html: str, static: Path, stylesheet: str) -> bytes:
    """The rendering itself (in the child): files come from `static/` only."""
    static = static.resolve()
    fonts = FontConfiguration()
    fetcher = StaticFetcher(static)
    css = CSS(filename=str(static / stylesheet), font_config=fonts, url_fetcher=fetcher)
    document = HTML(string=html, base_url=static.as_uri() + "/", url_fetcher=fetcher)
    with _collector_paused():
        return document.write_pdf(stylesheets=[css], font_config=fonts)


class StaticFetcher(URLFetcher):
    """Serves files below `root` and `data:` URIs; refuses everything else."""

    def __init__(self, root: Path):
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self.root = root

    def fetch(self, url: str, headers: Any = None) -> Any:
        if url.startswith("file:"):
            path = Path(unquote(urlsplit(url).path)).resolve()
            if not path.is_relative_to(self.root):
                raise ValueError(f"not a static file: {url}")
        elif not url.startswith("data:"):
            raise ValueError(f"the score sheet fetches nothing from outside: {url}")
        return super().fetch(url, headers)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """WeasyPrint makes hundreds of thousands of short-lived objects, and the cyclic garbage
    collector's passes over them cost a quarter of the rendering time. Reference counting
    still frees them; what cycles there are wait for the next collection after this."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def main() -> None:
    os.nice(NICENESS)
    static, stylesheet = Path(sys.argv[1]), sys.argv[2]
    html = sys.stdin.buffer.read().decode("utf-8")
    sys.stdout.buffer.write(render(html, static, stylesheet))
    sys.stdout.buffer.flush()
    # Leave without the interpreter's teardown: the PDF is written and flushed, and the
    # teardown (cffi's handles on pango, cairo and fontconfig freed in an order that varies
    # from run to run) now and then crashed the child after that, in the test suite about
    # once in three runs of the printing tests (SIGSEGV jumping into unmapped code,
    # "segfault at X ip X error 14"; the page then failed with exit status -11). The
    # kernel frees what is left.
    os._exit(0)


if __name__ == "__main__":
    main()
