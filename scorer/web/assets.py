"""The static files (`static/`) at an address that names the version of their contents,
`/static/<version>/…`, which the browser keeps for a year without asking again.

A page names a file with `url_for('static', filename=…)`, and a module's
`import … from "./x.js"` resolves under the same version, so a tablet fetches the style
sheet and the 24 modules once, not once per page: with `no-cache` it asked for every one
again on each page it opened (a round trip each on a pub's Wi-Fi, at the desk on every
check-in). Another file's contents after an upgrade is another version, so the next page
brings the new files.

An address under another version (a page opened before an upgrade, which asks for a file
later) or under none is given today's file, to be asked for again next time (`no-cache`)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Flask, request, send_from_directory
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

KEPT_FOR = 365 * 24 * 3600
"""Seconds a browser keeps a file of this version (a year: the address changes with it)."""


@cache
def contents_version(folder: Path) -> str:
    """A short digest of every file's name and bytes under `folder` (1.7 MB: milliseconds,
    once per process)."""
    digest = hashlib.blake2b(digest_size=6)
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def init_app(app: Flask, folder: Path) -> None:
    """`folder` served as the app's static files (the `static` endpoint, which Flask would
    serve at /static/ unversioned): today's files kept for a year (`immutable`: not even
    asked for again on a reload), any other address under /static/ given today's file
    unkept."""
    app.static_folder = str(folder)
    app.static_url_path = f"/static/{contents_version(folder)}"
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = KEPT_FOR
    app.add_url_rule(
        f"{app.static_url_path}/<path:filename>", endpoint="static", view_func=app.send_static_file
    )

    @app.after_request
    def keep(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code in (200, 304):
            response.cache_control.immutable = True
        return response

    @app.get("/static/<path:asked>", endpoint="static_unversioned")
    def unversioned(asked: str) -> Response:
        _, _, rest = asked.partition("/")  # under another version, or under none
        for name in (asked, rest) if rest else (asked,):
            path = safe_join(str(folder), name)
            if path is not None and Path(path).is_file():
                return send_from_directory(folder, name, max_age=0)
        raise NotFound()
