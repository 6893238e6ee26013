"""What a tournament's director does when the results are real: corrections after a round
closed, adjustments with a reason, the end of the tournament, and its log.

- **Corrections** go through the ordinary hand edit and strike-out of the tables' service.
  Until its round closes a table's key is enough, as at every table; after that only the
  tournament's organiser may correct it, until the tournament is finished; after that
  nobody (`scorer.services.policies.may_correct`, which the tables' service asks before
  every correction). The log keeps each correction with the hand before and after
  (`log_correction`, called by the tables' service after it). A correction holds its
  table's lock; the finish takes every table's lock, so a correction either commits before
  the finish or finds the tournament finished.
- **Adjustments**: points for or against a player with a reason; one taken back keeps its
  line and counts no more.
- **Finish**: every round drawn is closed; the results are final and every later write to
  the tournament or its tables is refused (409).
- **The log**: draws, swaps, withdrawals, round closes, corrections, adjustments and the
  finish, each with when and who (the organiser's name, or "table" for a tablet).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from scorer.domain.message import msg
from scorer.domain.tournament_commands import Adjust
from scorer.services.policies import require_running, tournament_table
from scorer.store.database import db, unit_of_work
from scorer.store.errors import Conflict, NotFound
from scorer.store.locks import lock_more
from scorer.store.models import (
    Organiser,
    TableSession,
    Tournament,
    TournamentAdjustment,
    TournamentLog,
    utcnow,
)
from scorer.store.table_rows import lock_round

TABLE = "table"
"""Who did it, in the log, when a tablet did: no name, the table."""
SELF = "player"
"""Who did it, in the log, when a player did on his own phone (registration, check-in)."""


def log(tournament: Tournament, action: str, by: str | None = None, **data: Any) -> None:
    """A line of the tournament's log; `by` defaults to its organiser, who does every
    write but a tablet's."""
    who = by if by is not None else organiser_name(tournament)
    db.session.add(TournamentLog(tournament_id=tournament.id, action=action, by=who, data=data))


def organiser_name(tournament: Tournament) -> str:
    return tournament.organiser.name


def log_of(tournament: Tournament) -> list[TournamentLog]:
    """The tournament's log, oldest first."""
    return list(
        db.session.scalars(
            select(TournamentLog)
            .where(TournamentLog.tournament_id == tournament.id)
            .order_by(TournamentLog.id)
        )
    )


# --- adjustments ---------------------------------------------------------------------


def counted_adjustments(tournament: Tournament) -> dict[str, int]:
    """Each player's adjustments added up (those taken back left out)."""
    points: dict[str, int] = {}
    for adjustment in tournament.adjustments:
        if adjustment.counts:
            points[adjustment.player] = points.get(adjustment.player, 0) + adjustment.points
    return points


def reasons(tournament: Tournament) -> dict[str, list[TournamentAdjustment]]:
    """The adjustments that count, per player, to show with their reasons."""
    shown: dict[str, list[TournamentAdjustment]] = {}
    for adjustment in tournament.adjustments:
        if adjustment.counts:
            shown.setdefault(adjustment.player, []).append(adjustment)
    return shown


@unit_of_work
def adjust(tournament: Tournament, command: Adjust) -> TournamentAdjustment:
    """A director's points for (or, negative, against) a player, with its reason."""
    locked(tournament)
    require_running(tournament)
    adjustment = TournamentAdjustment(
        player=command.player,
        points=command.points,
        reason=command.reason,
        by=organiser_name(tournament),
    )
    tournament.adjustments.append(adjustment)
    db.session.flush()  # its id, for the log
    _log_adjustment(tournament, "adjust", adjustment)
    return adjustment


@unit_of_work
def take_back(tournament: Tournament, adjustment_id: int) -> TournamentAdjustment:
    """An adjustment taken back: it counts no more; its line stays, and the log says so."""
    locked(tournament)
    require_running(tournament)
    adjustment = next((a for a in tournament.adjustments if a.id == adjustment_id), None)
    if adjustment is None:
        raise NotFound(msg("no such adjustment"))
    if not adjustment.counts:
        raise Conflict(msg("this adjustment was taken back already"))
    adjustment.taken_back_at = utcnow()
    _log_adjustment(tournament, "take_back", adjustment)
    return adjustment


def _log_adjustment(tournament: Tournament, action: str, adjustment: TournamentAdjustment) -> None:
    """The log's line of an adjustment made or taken back: its id, player, points, reason."""
    log(
        tournament,
        action,
        id=adjustment.id,
        player=adjustment.player,
        points=adjustment.points,
        reason=adjustment.reason,
    )
    db.session.flush()


# --- the end ---------------------------------------------------------------------------


@unit_of_work
def finish(tournament: Tournament) -> None:
    """The results become final. Every round drawn must be closed. Its rounds and tables
    are locked (in the order every writer takes them), so a correction either came before
    and counts, or comes after and is refused."""
    locked(tournament)
    require_running(tournament)
    for round_ in tournament.round_list:
        lock_round(round_)
    open_round = next((r for r in tournament.round_list if not r.closed), None)
    if open_round is not None:
        raise Conflict(
            msg(
                "round %(number)s is not closed yet: close it before the tournament ends",
                number=open_round.number,
            )
        )
    if not tournament.round_list:
        raise Conflict(msg("no round has been played yet"))
    tournament.finished_at = utcnow()
    log(tournament, "finish")
    db.session.flush()


def locked(tournament: Tournament) -> Tournament:
    """The tournament's row locked for this transaction (PostgreSQL; SQLite's write lock
    excludes everyone already), read fresh: whether it is finished cannot change under a
    correction or an adjustment."""
    lock_more(Tournament, Tournament.id == tournament.id)
    return tournament


# --- corrections -----------------------------------------------------------------------


def log_correction(
    session: TableSession,
    number: int,
    before: Mapping[str, Any],
    *,
    after: Mapping[str, Any] | None,
    by: Organiser | None,
) -> None:
    """A corrected (or struck: `after` None) hand of a tournament's table goes into its log
    (the tables' service calls it with every correction)."""
    found = tournament_table(session)
    if found is None:
        return
    tournament, round_, table = found
    log(
        tournament,
        "correct" if after is not None else "strike",
        by.name if by is not None else TABLE,
        round=round_.number,
        table=table,
        number=number,
        before=dict(before or {}),
        after=dict(after) if after is not None else None,
    )
