"""Where papers are made, without Flask: the print templates (`templates/exports/`), the
static files they use (style sheets, fonts, suit pictures) and the folder that keeps the
printed PDFs. The web layer hands its `Desk` to every report; a paper's HTML is rendered
by a Jinja environment of its own, in the language `scorer.i18n.words.speaking` chose."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from scorer.i18n import words
from scorer.i18n.catalogue import say
from scorer.i18n.formats import euros, score_text
from scorer.reports.paper import Clock
from scorer.services.table_reads import table_name
from scorer.store.models import TableSession

PDF_CACHE_BYTES = 256 * 1024 * 1024
"""What the PDF cache may hold unless the app says (`PDF_CACHE_BYTES`): the oldest papers
go first. A tournament's papers are 30 to 200 kB each."""


@dataclass(frozen=True)
class Desk:
    """The templates' folder, the static files' folder, the PDF cache's folder (and the
    bytes it may hold) and the club's clock."""

    templates: Path
    static: Path
    cache: Path
    clock: Clock = field(default_factory=Clock)
    cache_bytes: int = PDF_CACHE_BYTES

    def render(self, template: str, **context: Any) -> str:
        """`template`'s HTML in the current language (`words.speaking`)."""
        return _environment(self.templates).get_template(template).render(**context)


def _said_table_name(session: TableSession) -> str:
    return say(table_name(session))


@cache
def _environment(templates: Path) -> Environment:
    """The papers' Jinja environment: HTML escaped, `_()` and `ngettext()` as the pages have
    them (gettext's new style, `%(name)s` filled by Jinja), said in the current language."""
    environment = Environment(
        loader=FileSystemLoader(templates),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        auto_reload=False,
    )
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        lambda text: words.current().translations.gettext(text),
        lambda singular, plural, n: words.current().translations.ngettext(singular, plural, n),
        newstyle=True,
    )
    environment.filters.update(say=say, table_name=_said_table_name, score=score_text, euro=euros)
    environment.globals["language"] = lambda: words.current().language
    return environment
