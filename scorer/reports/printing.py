"""Printed papers (score sheets, tournament lists), each rendered once per version and
language, by a printer thread of the server process rather than by the request.

`printed(name, version, lang, html, stylesheet)` gives the PDF of a paper:

- from the cache folder (`PDF_CACHE`, `<name>-<version>-<lang>.pdf`) when this version was
  printed before; writing a new version removes the older ones of the same paper;
- else the request renders the paper's HTML (in its own language, `html()`) and hands it
  to the printer: `weasy.AT_ONCE` threads, each laying out one PDF at a time in a child
  process. One request renders a paper's HTML and hands it on; requests for a paper
  already being rendered or printed never start a second one, and a paper's older versions
  still waiting are dropped. A request waits only while its paper is on the printer, at
  most `WAIT` seconds, and at most `WAITING` requests wait at once; every other one hears
  `StillPrinting` at once (the page says "being printed" and reloads itself, and the
  reload finds the cache), so a burst of prints holds few request threads, briefly. At
  most `QUEUED` papers wait for the printer; beyond that the printer is busy
  (`PrinterBusy`, 503).

The cache is a cache: it holds at most the desk's `cache_bytes` (the oldest papers go
first), and when the disk is full it gives way first: it is emptied of every other paper
and the PDF written once more; a PDF that still does not fit is given without being kept.

A print that fails is forgotten: the next request tries again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from functools import cache
from pathlib import Path

from scorer.reports import weasy
from scorer.reports.desk import Desk
from scorer.reports.refusals import PrinterBusy
from scorer.store.busy import is_disk_full

WAIT = 3.0
"""Seconds a request waits for its paper before it is told to come back."""
QUEUED = 8
"""Papers that may wait for the printer at once (per server process)."""
COME_BACK = 3
"""Seconds after which the "being printed" page asks again."""
WAITING = 2
"""Requests (of a server process) that may wait for a print at once: the rest of its
threads stay free for the tables."""
STARTING_CHECKS, STARTING_PAUSE = 10, 0.005
"""How long a request looks for an idle printer to take its job: 50 ms at most."""

log = logging.getLogger(__name__)
_printer = ThreadPoolExecutor(weasy.AT_ONCE, thread_name_prefix="printer")
_guard = threading.RLock()
"""Reentrant: a job done (or cancelled) by the time its callback is added forgets itself at
once, in the thread that holds the guard."""
_printing: dict[Path, Future[bytes]] = {}
_rendering: set[Path] = set()
"""Papers whose HTML a request is rendering now, before they go to the printer."""
_waiting = threading.BoundedSemaphore(WAITING)


class StillPrinting(Exception):  # noqa: N818 (a state, not a failure)
    """The paper is being printed: ask again in `COME_BACK` seconds."""


def version_of(*parts: object) -> str:
    """A short fingerprint of what a paper shows, for its file name."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@cache
def layout(templates: str, static: str) -> str:
    """A fingerprint of how papers look: the print templates, their style sheets and the
    catalogues. Part of every paper's version, so that an update that changes a sheet
    prints it anew instead of giving the copy kept from before."""
    files = [
        *sorted(Path(templates).glob("exports/*.html")),
        *sorted(Path(static).glob("print*.css")),
        *sorted(Path(__file__).parent.parent.glob("translations/*/LC_MESSAGES/messages.mo")),
    ]
    return version_of(*(f.read_bytes() for f in files))


def printed(
    desk: Desk, name: str, version: str, *, lang: str, html: Callable[[], str], stylesheet: str
) -> bytes:
    """The PDF of paper `name` at `version` in `lang` (see the module's docstring), printed
    at `desk`."""
    version = version_of(version, layout(str(desk.templates), str(desk.static)))
    path = desk.cache / f"{name}-{version}-{lang}.pdf"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    job: Future[bytes] | bytes | None
    with _guard:
        job = _printing.get(path)
        if job is None:
            if path in _rendering:  # another request is preparing it
                raise StillPrinting(name)
            _rendering.add(path)
    if job is None:
        try:
            job = _hand_to_printer(desk, name, version, path=path, html=html, stylesheet=stylesheet)
        finally:
            with _guard:
                _rendering.discard(path)
        if isinstance(job, bytes):
            return job
    if not _on_the_printer(job) or not _waiting.acquire(blocking=False):
        raise StillPrinting(name)
    try:
        return job.result(timeout=WAIT)
    except (FutureTimeout, CancelledError):  # cancelled: a newer version is on its way
        raise StillPrinting(name) from None
    finally:
        _waiting.release()


def _hand_to_printer(
    desk: Desk, name: str, version: str, *, path: Path, html: Callable[[], str], stylesheet: str
) -> Future[bytes] | bytes:
    """Render the paper's HTML in the request (its language) and give it to the printer:
    the print job, or the PDF when it was printed and handed over meanwhile."""
    page = html()
    static = desk.static
    older: list[Future[bytes]] = []
    with _guard:
        job = _printing.get(path)
        if job is None:
            if path.exists():
                return path.read_bytes()
            if len(_printing) >= QUEUED:
                raise PrinterBusy("too many papers are waiting for the printer")
            older = [w for p, w in _printing.items() if _older(p, path, name, version=version)]
            job = _printer.submit(
                _print,
                page,
                static,
                stylesheet,
                path=path,
                name=name,
                version=version,
                limit=desk.cache_bytes,
            )
            _printing[path] = job
            job.add_done_callback(lambda done: _forget(path, done))
    for waiting in older:  # a newer version is wanted (outside the guard: a cancel
        waiting.cancel()  # forgets its job at once); only if it has not started
    return job


def _on_the_printer(job: Future[bytes]) -> bool:
    """Whether a printer thread has taken the job (or done it): an idle one takes a new
    job within a moment, which is waited for; a busy printer leaves it waiting."""
    for _ in range(STARTING_CHECKS):
        if job.running() or job.done():
            return True
        time.sleep(STARTING_PAUSE)
    return False


def _print(
    html: str, static: Path, stylesheet: str, *, path: Path, name: str, version: str, limit: int
) -> bytes:
    """In the printer thread: lay out the PDF, keep it (written whole or not at all),
    remove the paper's older versions. A failure goes to the requests waiting for it, if
    any are still waiting, and to the log."""
    try:
        pdf = weasy.write_pdf(html, static, stylesheet)
        _keep(path, pdf, limit)
    except weasy.RendererStopped:
        log.info("printing %s stopped with the server", path.name)
        raise
    except Exception:
        log.warning("printing %s failed", path.name, exc_info=True)
        raise
    for old in path.parent.glob(f"{name}-*.pdf"):
        if not old.name.startswith(f"{name}-{version}-"):
            old.unlink(missing_ok=True)
    return pdf


def _keep(path: Path, pdf: bytes, limit: int) -> None:
    """Write `pdf` to the cache at `path`, whole or not at all, keeping the cache within
    `limit` bytes (the oldest papers go). A full disk empties the cache of the others and
    the write is tried once more; then the PDF is not kept (it is still given)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _make_room(path.parent, limit - len(pdf))
    for attempt in (1, 2):
        partial = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.part")
        try:
            partial.write_bytes(pdf)
            os.replace(partial, path)
            return
        except OSError as exc:
            if not is_disk_full(exc):
                raise
            if attempt == 2:
                log.warning("the disk is full: %s is given, not kept", path.name)
                return
            log.warning("the disk is full: the PDF cache gives way for %s", path.name)
            _make_room(path.parent, 0)
        finally:
            partial.unlink(missing_ok=True)  # gone already unless the write failed


def _make_room(folder: Path, room: int) -> None:
    """Remove the oldest cached PDFs until those left take at most `room` bytes."""
    kept = []
    for pdf in folder.glob("*.pdf"):
        try:
            status = pdf.stat()
        except FileNotFoundError:  # another request removed it meanwhile
            continue
        kept.append((status.st_mtime, status.st_size, pdf))
    total = sum(size for _, size, _ in kept)
    for _, size, pdf in sorted(kept, key=lambda k: k[0]):
        if total <= room:
            break
        pdf.unlink(missing_ok=True)
        total -= size


def _older(other: Path, path: Path, name: str, *, version: str) -> bool:
    """Whether `other` is another version of paper `name` (in any language)."""
    return (
        other.parent == path.parent
        and other.name.startswith(f"{name}-")
        and not other.name.startswith(f"{name}-{version}-")
    )


def _forget(path: Path, job: Future[bytes]) -> None:
    with _guard:
        if _printing.get(path) is job:
            del _printing[path]
