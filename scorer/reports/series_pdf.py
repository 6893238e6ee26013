"""A cup's table on paper: each player's counted cup points and every result, the counted
ones marked, in the language the web layer chose; printed once per version of the table
(every tournament of the series' `live_version`, and the series' log of names)."""

from __future__ import annotations

from typing import Any

from scorer.i18n.words import speaking
from scorer.reports.desk import Desk
from scorer.reports.paper import page_footer_css
from scorer.reports.printing import printed, version_of
from scorer.services import series as cups
from scorer.services.tournaments import live_version
from scorer.store.models import Series


def series_pdf(series: Series, lang: str, desk: Desk) -> bytes:
    version = version_of(
        series.name,
        repr(series.cup_points),
        series.best_of,
        repr(series.names),
        *[v for t in series.tournaments for v in (t.id, *live_version(t))],
    )

    def html() -> str:
        with speaking(lang):
            context: dict[str, Any] = {"series": series, "table": cups.series_table(series)}
            return desk.render(
                "exports/series_standings.html",
                printed=desk.clock.printed_now(),
                page_footer=page_footer_css(),
                long_date=desk.clock.long_date,
                **context,
            )

    return printed(
        desk,
        f"cup-{series.key}-tabelle",
        version,
        lang=lang,
        html=html,
        stylesheet="print-lists.css",
    )
