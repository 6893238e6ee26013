"""An evening's writes that reach beyond its table, each with what follows from it, in
the same transaction: the pages and the API call these, never the table's own.

- **A hand recorded** (`record_hand`): a tournament table that is now done closes its
  round when it was the round's last (`tournaments.close_round_if_done`, under the round's
  lock, which the table's write took before the table's).
- **An evening closed** (`close_evening`): what is left in a group evening's Haferl goes
  back to its group (`groups.evening_closed`).
- **An evening opened again** (`reopen_evening`): the group takes its Haferl back, or
  refuses when a later evening carried it on (`groups.evening_reopened`).

`scorer.services.tables` keeps the table's own rules (numbers, versions, the fold); this
module knows the tournament and the group it may belong to, so neither needs a listener.
"""

from __future__ import annotations

from scorer.domain.commands import RecordHand
from scorer.services import groups, tables, tournaments
from scorer.store.database import unit_of_work
from scorer.store.models import HandRecord, TableSession


@unit_of_work
def record_hand(session: TableSession, command: RecordHand) -> tuple[HandRecord, bool]:
    """`tables.record_hand` (its command and answer), then the round closed when this
    hand finished its last table. The API and the table page both record through here."""
    record, created = tables.record_hand(session, command)
    if created and session.done:
        tournaments.close_round_if_done(session)
    return record, created


@unit_of_work
def close_evening(session: TableSession) -> None:
    """End the evening (`tables.close_session`); a group's gets its Haferl back."""
    tables.close_session(session)
    groups.evening_closed(session)


@unit_of_work
def reopen_evening(session: TableSession) -> None:
    """Open a closed evening again (`tables.reopen_session`); a group takes its Haferl back
    first, or refuses."""
    tables.require_reopenable(session)
    groups.evening_reopened(session)
    tables.reopen_session(session)
