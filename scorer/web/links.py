"""Links back into this site: a path or a referrer made safe to give back in a link, and
the same page in another language (`language_url`, the footer's switch)."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

from flask import request

PATH_SAFE = "/:@!$&'()*+,;=-._~"
"""What stays as it is in a path given back in a link (RFC 3986's path characters); the
rest, a backslash, a tab or a newline among them, is percent-encoded."""


def site_path(path: str) -> str:
    """A decoded `path` (the request's, or the referrer's) as a path on this site only:
    encoded, so that no backslash, tab or newline remains for a browser to read as `//`,
    and with one leading slash, so that no `//host` leaves the site."""
    encoded = quote(path, safe=PATH_SAFE)
    return "/" + encoded.lstrip("/")


def site_referrer(referrer: str | None, host: str) -> str | None:
    """The page of this site the request came from (path and query), or None when it came
    from elsewhere or from nowhere."""
    came_from = urlsplit(referrer or "")
    if came_from.netloc != host or not came_from.path.startswith("/"):
        return None
    query = f"?{came_from.query}" if came_from.query else ""
    return site_path(unquote(came_from.path)) + query


def language_url(code: str) -> str:
    """This page in another language: the same address and query with `lang=code`. A page
    that answered a form (a POST) has no address to load again: the link goes back to the
    page the form was on (the referrer, when it is this site's), else to the start page."""
    if request.method in ("GET", "HEAD"):
        path, args = site_path(request.path), request.args.to_dict(flat=False)
    else:
        came_from = urlsplit(site_referrer(request.referrer, request.host) or "/")
        path, args = came_from.path, parse_qs(came_from.query)
    args["lang"] = [code]
    return f"{request.script_root}{path}?{urlencode(args, doseq=True)}"
