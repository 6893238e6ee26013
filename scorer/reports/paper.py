"""What every printed paper shares: the language it is printed in, its dates and times in
the club's time zone, its footer, and the rules block."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date, format_time
from markupsafe import Markup

from scorer.domain.registry import Game, System
from scorer.domain.tournament import UNIT_PARAMS
from scorer.i18n import words
from scorer.i18n.catalogue import say
from scorer.i18n.words import gettext as _

POT_PARAMS = ("stake_cents", "refill", "pot_at_end")


TIMEZONE = "Europe/Berlin"
"""The club's clock unless the app is told another (`TIMEZONE` in its config)."""


@dataclass(frozen=True)
class Clock:
    """The club's clock: stored (UTC) times written in its time zone, in the current
    language. The app keeps one on its `Desk` (its `TIMEZONE`, one club per server)."""

    zone: str = TIMEZONE

    def local(self, moment: datetime) -> datetime:
        """A stored UTC time on this clock."""
        try:
            zone = ZoneInfo(self.zone)
        except ZoneInfoNotFoundError:  # pragma: no cover  (no time zone database)
            return moment
        return moment.replace(tzinfo=UTC).astimezone(zone)

    def long_date(self, moment: datetime | date) -> str:
        """A day written out, on this clock for a stored (UTC) time: '2. Dezember 2026',
        '2 December 2026'."""
        if isinstance(moment, datetime):
            moment = self.local(moment).date()
        return format_date(moment, "long", locale=words.current().locale)

    def time(self, moment: datetime) -> str:
        """A stored (UTC) time on this clock, 24 hours: '21:07'."""
        return format_time(self.local(moment).time(), "HH:mm", locale=words.current().locale)

    def printed_now(self) -> str:
        """The moment a sheet is printed: '2. Dezember 2026, 21:07'."""
        now = datetime.now(UTC).replace(tzinfo=None)
        return _("%(date)s, %(time)s", date=self.long_date(now), time=self.time(now))


def rules_lines(
    game: Game, system: System, params: Mapping[str, Any], *, points: bool, has_pot: bool
) -> list[tuple[str, str]]:
    """Every parameter that means something at this table, with its label and value in the
    reader's language: the rules block of a score sheet and of a tournament's papers (no
    Haferl settings without a Haferl, no unit values where a unit is a point)."""
    hidden = set() if has_pot else set(POT_PARAMS)
    if points:
        hidden |= set(UNIT_PARAMS)
    return [
        (say(p.title), say(p.describe(params.get(p.name, p.default), points)))
        for p in game.offered_params(system)
        if p.name not in hidden
    ]


def page_footer_css() -> Markup:
    """The `content` of the page footer, 'Seite 3 von 5' in the reader's language: the
    stylesheets have it in German; the templates set it again in a <style>."""
    text = _("Page %(page)s of %(pages)s", page="\x01", pages="\x02")
    parts = []
    for part in re.split("([\x01\x02])", text):
        if part == "\x01":
            parts.append("counter(page)")
        elif part == "\x02":
            parts.append("counter(pages)")
        elif part:
            quoted = part.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
            parts.append(f'"{quoted}"')
    return Markup(" ".join(parts))
