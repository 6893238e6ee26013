"""Pages that follow the table live: every device shows what another device changed.

A live page (the table, its hand list and settle-up, a group, a tournament's standings)
names a cheap fingerprint of what it shows, its ETag: a table's version, say. haferl.js
asks for the page again every second or two with `If-None-Match` and the header
`X-Haferl-Live`; while nothing changed the answer is an empty `304`, which costs the server
one small read and holds a request thread for a millisecond, never longer (no long-poll, no
open stream: eight watching tablets must not take the threads the writers need). When the
page changed, the whole page comes back and the script swaps in its live regions.

The ETag also names the reader's language and account, which change what a page says.
"""

from __future__ import annotations

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


def conditional(etag: str, render: Callable[[], object]) -> Response:
    """`304` when the reader has this version of the page, else `render()`'s page; either
    way with the ETag."""
    if request.if_none_match.contains(etag):
        response = current_app.response_class(status=304)
    else:
        response = current_app.make_response(render())
    response.set_etag(etag)
    response.vary.add("Cookie")
    return response
