"""The results' part of a tournament's archive (`scorer.formats.archive_tournament`): how
equal totals are decided (`tournament.tie_breaks`), when the results became final
(`tournament.finished_at`) and the director's adjustments, those taken back too
(`adjustments`: player, points, reason, by, at, taken_back_at). A player's points carried
into a cup's final (`players[i].carried`) are read with the player.

Still version 1: these keys are optional, and a file without them (written before) reads
as such a tournament was: the default tie-breaks, no adjustment, nothing carried, not
finished."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorer.domain import RuleError
from scorer.domain.limits import (
    MAX_ADJUSTMENT_POINTS,
    MAX_ADJUSTMENT_REASON,
    MAX_ARCHIVE_EVENTS,
    MAX_ORGANISER_NAME,
)
from scorer.domain.message import msg
from scorer.domain.names import clean_name
from scorer.domain.tournament import DEFAULT_TIE_BREAKS, check_tie_breaks
from scorer.domain.validation import is_whole
from scorer.formats.archive import Checks

ADJUSTMENT_FIELDS = {"player", "points", "reason", "by", "at", "taken_back_at"}


@dataclass(frozen=True)
class ArchivedAdjustment:
    player: str
    points: int
    reason: str
    by: str
    at: datetime | None
    taken_back_at: datetime | None = None


def read(
    doc: dict[str, Any], body: dict[str, Any], players: Collection[str], *, checks: Checks
) -> dict[str, Any]:
    """The results' keys of the file (`doc`, its `tournament` as `body`) as the archive's
    fields `tie_breaks`, `finished_at` and `adjustments`."""
    return {
        "tie_breaks": tie_breaks(body.get("tie_breaks"), "tournament.tie_breaks", checks),
        "finished_at": checks.when(body.get("finished_at"), "tournament.finished_at"),
        "adjustments": adjustments(doc.get("adjustments", []), players, checks),
    }


def tie_breaks(value: Any, where: str, checks: Checks) -> tuple[str, ...]:
    """The tournament's tie-breaks as a new tournament's are checked (absent: the default)."""
    if value is None:
        return tuple(DEFAULT_TIE_BREAKS)
    try:
        return check_tie_breaks(value)
    except ValueError as exc:
        checks.bad(where, exc.args[0])
        return tuple(DEFAULT_TIE_BREAKS)


def adjustments(
    value: Any, players: Collection[str], checks: Checks
) -> tuple[ArchivedAdjustment, ...]:
    """The director's adjustments in the order they were made, each of a player listed."""
    listed = checks.items(value, "adjustments", MAX_ARCHIVE_EVENTS)
    made = [
        _adjustment(entry, f"adjustments[{i}]", players, checks=checks)
        for i, entry in enumerate(listed)
    ]
    return tuple(a for a in made if a is not None)


def _adjustment(
    entry: Any, where: str, players: Collection[str], *, checks: Checks
) -> ArchivedAdjustment | None:
    entry = checks.obj(entry, where)
    checks.unknown(entry, ADJUSTMENT_FIELDS, where)
    player = entry.get("player")
    if not isinstance(player, str) or player not in players:
        checks.bad(f"{where}.player", msg("must be a player of this tournament"))
    points = entry.get("points")
    if not is_whole(points) or not 0 < abs(points) <= MAX_ADJUSTMENT_POINTS:
        checks.bad(
            f"{where}.points",
            msg(
                "must be a whole number of points other than 0, at most %(limit)s either way",
                limit=MAX_ADJUSTMENT_POINTS,
            ),
        )
    reason = _text(checks, entry.get("reason"), f"{where}.reason", limit=MAX_ADJUSTMENT_REASON)
    by = _text(checks, entry.get("by"), f"{where}.by", limit=MAX_ORGANISER_NAME)
    at = checks.when(entry.get("at"), f"{where}.at")
    taken_back_at = checks.when(entry.get("taken_back_at"), f"{where}.taken_back_at")
    if reason is None or by is None or not isinstance(player, str):
        return None
    return ArchivedAdjustment(player, points, reason, by, at, taken_back_at)


def _text(checks: Checks, value: Any, where: str, *, limit: int) -> str | None:
    try:
        return clean_name(value, where, limit)
    except RuleError as error:
        checks.take(error)
        return None
