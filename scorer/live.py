"""Pages that follow the table live: every device shows what another device changed.

A live page (the table, its hand list and settle-up, a group, a tournament's standings)
names a cheap fingerprint of what it shows, its ETag: a table's version, say. static/js/live.js
asks for the page again every second or two with `If-None-Match` and the header
`X-Haferl-Live`; while nothing changed the answer is an empty `304`, which costs the server
one small read and holds a request thread for a millisecond, never longer (no long-poll, no
open stream: eight watching tablets must not take the threads the writers need). When the
page changed, the whole page comes back and the script swaps in its live regions.

The ETag also names the reader's language and account, which change what a page says.
It is weak (`W/"…"`): it names a version of what the page says, the same whether it went
out compressed or not (`scorer.extensions.compress` leaves a weak ETag as it is).
"""

from __future__ import annotations

import gzip
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from flask import Response, copy_current_request_context, current_app, has_request_context, request
from flask.typing import ResponseReturnValue
from flask_login import current_user

from scorer.i18n import words
from scorer.i18n.reader import language

POLL_HEADER = "X-Haferl-Live"
"""Sent by static/js/live.js when it asks whether a page changed (never by a person's browser)."""


def live_etag(*parts: object) -> str:
    """The ETag of a page that shows `parts` (versions, counts, page numbers), in the
    reader's language and for the reader's account."""
    who = current_user.get_id() if current_user and current_user.is_authenticated else "-"
    return "-".join(str(part) for part in (*parts, language(), who))


def is_live_poll() -> bool:
    """Whether static/js/live.js asks for the page (a flash message waiting for the reader is not
    taken by it: the reader's own next page shows it)."""
    return has_request_context() and request.headers.get(POLL_HEADER) == "1"


def has_version(etag: str) -> bool:
    """Whether the reader says it has the version `etag` (weak comparison)."""
    return request.if_none_match.contains_weak(etag)


def conditional(etag: str, render: Callable[[], ResponseReturnValue]) -> Response:
    """`304` when the reader has this version of the page, else `render()`'s page; either
    way with the (weak) ETag."""
    if has_version(etag):
        return not_modified(etag)
    response = current_app.make_response(render())
    response.set_etag(etag, weak=True)
    response.vary.add("Cookie")
    return response


@dataclass
class KeptPage:
    """A page (HTML or JSON) as rendered at `etag`, and when (on the clock of its
    `RecentPages`) it was last known to be the current one."""

    etag: str
    body: str
    checked: float
    mimetype: str = "text/html"
    _gzipped: bytes | None = field(default=None, repr=False)

    def gzipped(self) -> bytes:
        """The page gzipped, once for everyone who gets it (a worker compressing the same
        bytes a hundred times a second has less time for the tablets)."""
        if self._gzipped is None:
            self._gzipped = gzip.compress(self.body.encode(), compresslevel=6)
        return self._gzipped


class RecentPages:
    """Pages whose rendering grows with the data (a tournament's standings): the page last
    rendered under a name (address, language, reader) is given again for `max_age` seconds,
    whatever came in meanwhile, without a read of the database, so a hundred spectators and
    fifty tablets cost a look every `max_age` seconds per server process and a render only
    when something changed. The page keeps the ETag it was rendered at: the reader's next
    ask after that gets the newer one.

    Past `max_age` (up to `STALE_FACTOR` times it) the kept page is still given while one
    refresher thread looks and renders anew (`recent_page`): no reader waits for a render,
    and a process renders a page at most once at a time.

    A page's age is read on `clock` (seconds; `time.monotonic` unless another is given, as
    the tests give one they move on)."""

    STALE_FACTOR = 4
    """A page older than `max_age` is given while it is refreshed, up to this many times
    `max_age` old (2 s for the standings); older, the reader waits for the new one."""

    def __init__(
        self, max_age: float, size: int = 256, clock: Callable[[], float] = time.monotonic
    ):
        self.max_age, self.size = max_age, size
        self.clock = clock
        self._pages: OrderedDict[str, KeptPage] = OrderedDict()
        self._refreshing: set[str] = set()
        self._lock = threading.Lock()

    def young(self, name: str) -> KeptPage | None:
        """The page kept under `name` while it was known current less than `max_age` ago."""
        return self._known_within(name, self.max_age)

    def stale(self, name: str) -> KeptPage | None:
        """The page kept under `name` if it may be given while it is refreshed."""
        return self._known_within(name, self.max_age * self.STALE_FACTOR)

    def _known_within(self, name: str, seconds: float) -> KeptPage | None:
        with self._lock:
            kept = self._pages.get(name)
        if kept is not None and self.clock() - kept.checked < seconds:
            return kept
        return None

    def refreshing(self) -> bool:
        """Whether a refresher thread is refreshing a page of these now."""
        with self._lock:
            return bool(self._refreshing)

    def claim(self, name: str) -> bool:
        """Whether the caller is the one to refresh `name` (nobody else is doing it)."""
        with self._lock:
            if name in self._refreshing:
                return False
            self._refreshing.add(name)
            return True

    def release(self, name: str, forget: bool = False) -> None:
        """The refresh of `name` is over; `forget` drops its page (it could not be looked
        up: the next reader asks afresh and is told why)."""
        with self._lock:
            self._refreshing.discard(name)
            if forget:
                self._pages.pop(name, None)

    def page(
        self, name: str, etag: str, render: Callable[[], str], *, mimetype: str = "text/html"
    ) -> KeptPage:
        """The page kept if it is this version (now known current again) or young enough,
        else `render()`'s, kept."""
        now = self.clock()
        with self._lock:
            kept = self._pages.get(name)
            if kept is not None and kept.etag == etag:
                kept.checked = now
                return kept
            if kept is not None and now - kept.checked < self.max_age:
                return kept
        page = KeptPage(etag, render(), now, mimetype)
        with self._lock:
            self._pages[name] = page
            self._pages.move_to_end(name)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)
        return page


REFRESHERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="haferl-refresh")
"""The threads that refresh kept pages while their readers are given the last one (at most
two renders at once per process: they share the CPU with the requests)."""

log = logging.getLogger(__name__)


def recent_page(
    pages: RecentPages,
    name: str,
    look: Callable[[], str],
    *,
    render: Callable[[str], str],
    mimetype: str = "text/html",
) -> Response:
    """`conditional` for a page kept in `pages`. `look()` reads what the page shows now and
    gives its ETag (or aborts, e.g. 404); it runs only when the kept page is older than
    `max_age`: in a refresher thread while the kept page may still be given (`stale`), else
    in the request. `render(etag)` renders the page at that version. A reader who has the
    version that would be given gets `304`; a reader who accepts gzip gets the bytes
    compressed once for all (unless the app compresses nothing: `COMPRESS_REGISTER`)."""
    kept = pages.young(name)
    if kept is None and (kept := pages.stale(name)) is not None and pages.claim(name):
        try:
            REFRESHERS.submit(_refresher(pages, name, look, render=render, mimetype=mimetype))
        except RuntimeError:  # the pool is shut down (the server stops): look here
            pages.release(name)
            kept = None
    if kept is None:
        etag = look()
        if has_version(etag):
            return not_modified(etag)
        kept = pages.page(name, etag, lambda: render(etag), mimetype=mimetype)
    if has_version(kept.etag):
        return not_modified(kept.etag)
    if request.accept_encodings["gzip"] and current_app.config.get("COMPRESS_REGISTER", True):
        response = current_app.response_class(kept.gzipped(), mimetype=kept.mimetype)
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
    else:
        response = current_app.response_class(kept.body, mimetype=kept.mimetype)
    response.set_etag(kept.etag, weak=True)
    response.vary.add("Cookie")
    return response


def _refresher(
    pages: RecentPages,
    name: str,
    look: Callable[[], str],
    *,
    render: Callable[[str], str],
    mimetype: str,
) -> Callable[[], None]:
    """What a refresher thread does for the reader who found the page old: look and render
    as that reader (a copy of its request: its account; and its language, which is not in
    the request but in a context variable, `words.reading`), keep the page.

    Only the language is carried over, not the request's whole `contextvars` context: that
    would carry the request's app context too, and the thread would share the request's
    database session (Flask-SQLAlchemy's is per app context) and leave its transaction
    open after the request ended."""
    reader = words.reader()

    @copy_current_request_context
    def refresh() -> None:
        forget = False
        reading = words.reading(reader)
        try:
            etag = look()
            pages.page(name, etag, lambda: render(etag), mimetype=mimetype)
        except Exception:  # a 404 now, or a database gone away: the next reader asks itself
            forget = True
            log.info("refreshing %s failed; the next reader looks afresh", name, exc_info=True)
        finally:
            pages.release(name, forget)
            words.done_reading(reading)

    return refresh


def not_modified(etag: str) -> Response:
    response = current_app.response_class(status=304)
    response.set_etag(etag, weak=True)
    response.vary.add("Cookie")
    return response
