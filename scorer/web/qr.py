"""A QR code for a page's address, as SVG: how a second device joins a table or a group.

A code is made once per address and kept (`qr_svg`): a tournament's tables page shows one
for each of its tables (375 at a field of 1,500), and making one takes about 6 ms. The
device does not keep it (no-store, as every answer that carries a table's key:
`scorer.security`)."""

from __future__ import annotations

import io
from functools import lru_cache

import segno
from flask import Response

KEPT_CODES = 2048
"""Codes kept per server process (about 2 kB each): every table of the biggest field, and
the groups', several times over."""


@lru_cache(maxsize=KEPT_CODES)
def qr_svg(url: str) -> bytes:
    """The QR code of `url` as an SVG document."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=5, border=2)
    return buffer.getvalue()


def qr_response(url: str) -> Response:
    return Response(qr_svg(url), mimetype="image/svg+xml")
