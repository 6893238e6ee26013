"""A QR code for a page's address, as SVG: how a second device joins a table or a group."""

from __future__ import annotations

import io

import segno
from flask import Response


def qr_response(url: str) -> Response:
    code = segno.make(url, error="m")
    buffer = io.BytesIO()
    code.save(buffer, kind="svg", scale=5, border=2)
    return Response(buffer.getvalue(), mimetype="image/svg+xml")
