"""The commands of a table's hands (`scorer.domain.commands`) built for one table: its
game, the players who sat at it and its next number. The API's routes and the table
page's build them here, from the same facts, and give them to the same services
(`evenings.record_hand`, `tables.edit_hand`, `tables.void_hand`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.domain import GAMES, commands
from scorer.domain.commands import EditHand, RecordHand, VoidHand
from scorer.services.table_reads import ledger_for
from scorer.store.models import TableSession


def record_command(
    session: TableSession,
    facts: Mapping[str, Any],
    *,
    idempotency_key: str | None = None,
    begun: int | None = None,
) -> RecordHand:
    """The hand `facts` say, to record at `session` (`commands.record_hand`)."""
    return commands.record_hand(
        facts,
        GAMES[session.game],
        players=ledger_for(session).everyone,
        next_number=session.hand_count + 1,
        idempotency_key=idempotency_key,
        begun=begun,
    )


def edit_command(session: TableSession, number: int, facts: Mapping[str, Any]) -> EditHand:
    """Hand `number` of `session` as `facts` say it now (`commands.edit_hand`)."""
    return commands.edit_hand(
        facts, GAMES[session.game], number=number, players=ledger_for(session).everyone
    )


def void_command(number: int, version: object) -> VoidHand:
    """Hand `number`, read at `version`, to strike out (`commands.void_hand`)."""
    return commands.void_hand(number, version)
