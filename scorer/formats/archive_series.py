"""A series' archive (`format: haferl-series`, `version: 1`): the cup's settings, its log
of names and each of its tournaments as a tournament's archive
(`scorer.formats.archive_tournament`) with `"final": true` for the series' final. Checked
with no database before an import (`scorer.services.series_archives`) makes it anew; the
series table is not in the file: it is worked out again from the tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from scorer.domain import RuleError
from scorer.domain.limits import MAX_GROUP_NAME, MAX_ORGANISER_NAME
from scorer.domain.message import msg
from scorer.domain.names import clean_name
from scorer.domain.series_commands import NewSeries, new_series
from scorer.formats.archive import Checks, check_head
from scorer.formats.archive_tournament import TournamentArchive, parse_tournament_archive
from scorer.formats.evening import is_text

SERIES_FORMAT = "haferl-series"
SERIES_FIELDS = {"format", "version", "exported_at", "series", "tournaments"}
SERIES_BODY_FIELDS = {"name", "cup_points", "best_of", "final_carry", "tie_breaks", "names"}
NAME_LINE_FIELDS = {"from", "into", "at", "by"}
MAX_SERIES_TOURNAMENTS = 200
"""Tournaments in one series' archive (a season of them, and its final)."""
MAX_NAME_LINES = 10_000


@dataclass(frozen=True)
class SeriesArchive:
    settings: NewSeries
    """The series as `scorer.domain.series_commands.new_series` gives it."""
    names: tuple[dict[str, str], ...]
    tournaments: tuple[TournamentArchive, ...]
    finals: tuple[bool, ...]
    """Whether each tournament is the series' final (one at most)."""


def parse_series_archive(doc: Any) -> SeriesArchive:
    """Check a series' archive strictly, each tournament as a tournament's archive is
    checked (its messages under `tournaments[i]`), before anything is written."""
    checks = Checks()
    check_head(doc, SERIES_FORMAT, SERIES_FIELDS, checks=checks)
    body = checks.obj(doc.get("series"), "series")
    checks.unknown(body, SERIES_BODY_FIELDS, "series")
    settings: NewSeries | None = None
    try:
        settings = new_series(
            body.get("name"),
            cup_points=body.get("cup_points"),
            best_of=body.get("best_of"),
            final_carry=body.get("final_carry"),
            tie_breaks=body.get("tie_breaks"),
        )
    except RuleError as error:
        checks.take(error, "series")
    listed = checks.items(body.get("names", []), "series.names", MAX_NAME_LINES)
    names = [_name_line(line, f"series.names[{i}]", checks) for i, line in enumerate(listed)]
    entries = checks.items(doc.get("tournaments"), "tournaments", MAX_SERIES_TOURNAMENTS)
    tournaments: list[TournamentArchive] = []
    finals: list[bool] = []
    for index, entry in enumerate(entries):
        where = f"tournaments[{index}]"
        if not isinstance(entry, dict):
            checks.bad(where, msg("must be an object"))
            continue
        entry = dict(entry)
        final = entry.pop("final", False)
        if not isinstance(final, bool):
            checks.bad(f"{where}.final", msg("must be true or false"))
        elif final and settings is not None and not settings.final_carry:
            checks.bad(f"{where}.final", msg("the series has no points to carry into a final"))
        elif final and any(finals):
            checks.bad(f"{where}.final", msg("the series has its final already"))
        try:
            tournaments.append(parse_tournament_archive(entry))
        except RuleError as error:
            checks.take(error, where)
        finals.append(final is True)
    checks.done()
    return SeriesArchive(
        cast(NewSeries, settings),  # `checks.done()` raised where the settings were refused
        tuple(n for n in names if n is not None),
        tuple(tournaments),
        tuple(finals),
    )


def _name_line(line: Any, where: str, checks: Checks) -> dict[str, str] | None:
    """A line of the series' log of names (`scorer.services.series.rename`)."""
    line = checks.obj(line, where)
    checks.unknown(line, NAME_LINE_FIELDS, where)
    made: dict[str, str] = {}
    for field, limit in (("from", MAX_GROUP_NAME), ("into", MAX_GROUP_NAME)):
        try:
            made[field] = clean_name(line.get(field), f"{where}.{field}", limit)
        except RuleError as error:
            checks.take(error)
    by = line.get("by")
    if not is_text(by, MAX_ORGANISER_NAME):
        checks.bad(f"{where}.by", msg("must be text"))
    at = line.get("at")
    if at is None:
        checks.bad(f"{where}.at", msg("must be a date and time (text)"))
    else:
        checks.when(at, f"{where}.at")
    if len(made) < 2 or not isinstance(by, str) or not isinstance(at, str):
        return None
    return {"from": made["from"], "into": made["into"], "at": at, "by": by}
