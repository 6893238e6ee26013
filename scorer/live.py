"""Pages that follow the table live: every device shows what another device changed.

A live page (the table, its hand list and settle-up, a group, a tournament's standings)
names a cheap fingerprint of what it shows, its ETag: a table's version, say. haferl.js
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

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import Response, current_app, has_request_context, request
from flask_login import current_user

from scorer.i18n import language

POLL_HEADER = "X-Haferl-Live"
"""Sent by haferl.js when it asks whether a page changed (never by a person's browser)."""


def live_etag(*parts: object) -> str:
    """The ETag of a page that shows `parts` (versions, counts, page numbers), in the
    reader's language and for the reader's account."""
    who = current_user.get_id() if current_user and current_user.is_authenticated else "-"
    return "-".join(str(part) for part in (*parts, language(), who))


def is_live_poll() -> bool:
    """Whether haferl.js asks for the page (a flash message waiting for the reader is not
    taken by it: the reader's own next page shows it)."""
    return has_request_context() and request.headers.get(POLL_HEADER) == "1"


def has_version(etag: str) -> bool:
    """Whether the reader says it has the version `etag` (weak comparison)."""
    return request.if_none_match.contains_weak(etag)


def conditional(etag: str, render: Callable[[], object]) -> Response:
    """`304` when the reader has this version of the page, else `render()`'s page; either
    way with the (weak) ETag."""
    if has_version(etag):
        response = current_app.response_class(status=304)
    else:
        response = current_app.make_response(render())
    response.set_etag(etag, weak=True)
    response.vary.add("Cookie")
    return response


class RecentPages:
    """Pages whose rendering grows with the data (a tournament's standings): the page last
    rendered under a name (address, language, reader) is given again for `max_age` seconds,
    whatever came in meanwhile, so a hundred spectators and fifty tablets cost a render every
    `max_age` seconds per server process, not one per change. The page keeps the ETag it was
    rendered at: the reader's next ask after that gets the newer one."""

    def __init__(self, max_age: float, size: int = 256):
        self.max_age, self.size = max_age, size
        self._pages: OrderedDict[str, tuple[str, str, float]] = OrderedDict()
        self._lock = threading.Lock()

    def page(self, name: str, etag: str, render: Callable[[], str]) -> tuple[str, str]:
        """(the ETag, the page): the one kept if it is this version or young enough, else
        `render()`'s, kept."""
        now = time.monotonic()
        with self._lock:
            kept = self._pages.get(name)
            if kept is not None and (kept[0] == etag or now - kept[2] < self.max_age):
                return kept[0], kept[1]
        html = render()
        with self._lock:
            self._pages[name] = (etag, html, now)
            self._pages.move_to_end(name)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)
        return etag, html


def recent_page(pages: RecentPages, name: str, etag: str, render: Callable[[], str]) -> Response:
    """`conditional` for a page kept in `pages`: `304` when the reader has the version that
    would be given."""
    if has_version(etag):
        response = current_app.response_class(status=304)
        response.set_etag(etag, weak=True)
    else:
        given, html = pages.page(name, etag, render)
        if has_version(given):
            response = current_app.response_class(status=304)
        else:
            response = current_app.make_response(html)
        response.set_etag(given, weak=True)
    response.vary.add("Cookie")
    return response
