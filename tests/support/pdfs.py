"""Papers read back: a PDF's text (pypdf), the printer's cached files, and a paper asked
for again until it is printed."""

from __future__ import annotations

import io
import time
from pathlib import Path

from pypdf import PdfReader


def pdf_pages(pdf: bytes) -> list[str]:
    """The text of each page, as pypdf reads it."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def pdf_text(pdf: bytes) -> str:
    """The whole text: every page's, a line break between."""
    return "\n".join(pdf_pages(pdf))


def files(app, pattern: str) -> dict[str, int]:
    """The cached PDFs matching `pattern`, by name, with their modification times (ns)."""
    folder = Path(app.config["PDF_CACHE"])
    return {p.name: p.stat().st_mtime_ns for p in sorted(folder.glob(pattern))}


def until_printed(client, url: str, **headers):
    """Ask for `url` as the "being printed" page does until the paper is there."""
    deadline = time.monotonic() + 30
    while (answer := client.get(url, headers=headers)).status_code == 202:
        assert time.monotonic() < deadline, url
        time.sleep(0.05)
    return answer
