"""A cup's public table (the series' standings), live as the standings are: each player's
counted cup points and every result, the counted ones marked."""

from __future__ import annotations

from flask import abort, render_template

from scorer.extensions import PDFS, desk
from scorer.i18n.reader import file_language
from scorer.i18n.words import gettext as _
from scorer.live import RecentPages, live_etag, recent_page
from scorer.reports.series_pdf import series_pdf as series_pdf_paper
from scorer.services import series as cups
from scorer.services import tournaments as ops
from scorer.store.errors import NotFound
from scorer.store.models import Series
from scorer.tournaments.blueprint import bp
from scorer.tournaments.routes import pdf_response

TABLES = RecentPages(max_age=0.5)
"""The series tables given last (`RecentPages`): a hundred phones cost one look."""


@bp.get("/cup/<key>")
def series_page(key: str):
    found: Series | None = None

    def look() -> str:
        nonlocal found
        try:
            found = cups.public_series(key)
        except NotFound:
            abort(404, _("There is no such cup."))
        versions = [v for t in found.tournaments for v in (t.id, *ops.live_version(t))]
        return live_etag("series", *versions)

    def render(etag: str) -> str:
        assert found is not None  # looked up by look()
        return render_template(
            "tournaments/series.html", series=found, table=cups.series_table(found), etag=etag
        )

    return recent_page(TABLES, live_etag("series", key), look, render=render)


@bp.get("/cup/<key>/tabelle.pdf")
@PDFS
def series_pdf(key: str):
    try:
        found = cups.public_series(key)
    except NotFound:
        abort(404, _("There is no such cup."))
    return pdf_response(series_pdf_paper(found, file_language(), desk()), f"cup-{found.id}.pdf")
