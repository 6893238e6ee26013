"""Who may change what, read where it is decided: each permission is a function the write
calls before it changes anything (no listener's answer decides it).

- **Corrections** of a stored hand (an edit, a strike-out, an Undo): at an open table its
  key is enough. At a tournament's table in a closed round only the tournament's organiser
  may, until the tournament is finished; after that nobody (`may_correct`). The pages
  offer the edit at such a table to that organiser only (`corrects_closed_table`).
- **A finished tournament** takes no write at all (`require_running`).
"""

from __future__ import annotations

from sqlalchemy import select

from scorer.domain.message import msg
from scorer.store.database import db
from scorer.store.errors import Conflict
from scorer.store.models import (
    Organiser,
    TableSession,
    Tournament,
    TournamentRound,
    TournamentTable,
)


class TournamentFinished(Conflict):
    """The tournament's results are final."""


def require_running(tournament: Tournament) -> None:
    """Refuse any write to a finished tournament (409)."""
    if tournament.finished:
        raise TournamentFinished(msg("the tournament is finished: its results are final"))


def tournament_table(session: TableSession) -> tuple[Tournament, TournamentRound, int] | None:
    """The tournament, the round and the table number of a tournament's table (None: an
    evening of its own or a group's)."""
    row = db.session.execute(
        select(TournamentTable.number, TournamentRound)
        .join(TournamentRound, TournamentRound.id == TournamentTable.round_id)
        .where(TournamentTable.session_id == session.id)
    ).first()
    if row is None:
        return None
    number, round_ = row
    return round_.tournament, round_, number


def may_correct(session: TableSession, by: Organiser | None) -> bool:
    """Before a stored hand is corrected or struck: whether `by` may even though the table is
    closed (its tournament's organiser, the round closed). False: the table's own rule
    holds (open: yes; closed: no). Refuses (409) a correction of a finished tournament's
    table, and one of a closed round's table by anyone but its organiser."""
    found = tournament_table(session)
    if found is None:
        return False
    tournament, round_, _ = found
    db.session.refresh(tournament)  # as committed: a finish holds this table's lock
    require_running(tournament)
    if not round_.closed:
        return False
    if by is not None and by.id == tournament.organiser_id:
        return True
    raise Conflict(
        msg(
            "round %(number)s is closed: only the tournament's organiser may correct its tables",
            number=round_.number,
        )
    )


def corrects_closed_table(session: TableSession, by: Organiser | None) -> bool:
    """Whether `by` may correct the hands of this closed table: its tournament's organiser,
    the round closed, the tournament not finished (the pages offer the edit then)."""
    if by is None or not session.closed:
        return False
    found = tournament_table(session)
    if found is None:
        return False
    tournament, round_, _ = found
    return round_.closed and not tournament.finished and by.id == tournament.organiser_id
