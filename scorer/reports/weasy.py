"""HTML to PDF with WeasyPrint, in a child process: a big score sheet takes seconds and a
couple of hundred megabytes, and neither may stay with the server process that answers
the tablets.

`write_pdf` runs `renderer.py` beside this file as a script (not as part of the package,
so the child loads neither Flask nor the database), sends it the HTML and reads the PDF
back; the child runs at a lower priority (`renderer.NICENESS`), is killed after `TIMEOUT`
seconds, and gives its memory back when it exits. The server's processes never import
WeasyPrint (40 MB and half a second each). At most `AT_ONCE` renders run per server
process; a request that cannot start one within `WAIT` seconds is told to come back
(`Busy`). Nothing here uses Flask.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from pathlib import Path

from scorer.reports.refusals import PrinterBusy

AT_ONCE = 1
WAIT = 20.0
TIMEOUT = 60.0
RENDERER = Path(__file__).with_name("renderer.py")

_slots = threading.BoundedSemaphore(AT_ONCE)


class RendererStopped(RuntimeError):
    """The renderer was stopped with the server (SIGTERM to the process group): not a
    failure of the paper; the next request after the start prints it."""


def write_pdf(html: str, static: Path, stylesheet: str) -> bytes:
    """PDF bytes of `html` styled by `static/<stylesheet>`, rendered in a child process."""
    if not _slots.acquire(timeout=WAIT):
        raise PrinterBusy("another score sheet is being printed")
    try:
        done = subprocess.run(
            [sys.executable, str(RENDERER), str(static), stylesheet],
            input=html.encode("utf-8"),
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise PrinterBusy(f"the score sheet took longer than {TIMEOUT:.0f} s") from None
    finally:
        _slots.release()
    if done.returncode == -signal.SIGTERM:
        raise RendererStopped("the server is stopping")
    if done.returncode != 0 or not done.stdout.startswith(b"%PDF"):
        said = done.stderr.decode(errors="replace")[-2000:]
        raise RuntimeError(f"PDF renderer failed (exit status {done.returncode}): {said}")
    return done.stdout
