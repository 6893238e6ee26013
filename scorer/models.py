"""Database models: table sessions, their hands as entered, and the history of changes.

Balances are not stored as a truth of their own: `TableSession.state` and the result
columns of `HandRecord` are a cache of the ledger fold, rebuilt from the hands by
`operations.refold` and checked against a fresh fold in the tests.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorer.extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class TableSession(db.Model):
    """An evening at one table: game, payment system, players in dealing order."""

    __tablename__ = "table_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40))
    system: Mapped[str] = mapped_column(String(40))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    players: Mapped[list[str]] = mapped_column(JSON)
    first_dealer: Mapped[str] = mapped_column(String(40))
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    hand_count: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(default=None)

    hands: Mapped[list[HandRecord]] = relationship(
        back_populates="session",
        order_by="HandRecord.number",
        cascade="all, delete-orphan",
        lazy="raise_on_sql",
    )

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


class HandRecord(db.Model):
    """One hand: the facts as entered (`facts`), and the cached outcome of the fold."""

    __tablename__ = "hand"
    __table_args__ = (
        UniqueConstraint("session_id", "number"),
        UniqueConstraint("session_id", "idempotency_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_session.id"), index=True)
    number: Mapped[int]
    version: Mapped[int] = mapped_column(default=1)
    dealer: Mapped[str] = mapped_column(String(40))
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    voided: Mapped[bool] = mapped_column(default=False)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    # The cache of the fold (None for a voided hand).
    result: Mapped[str | None] = mapped_column(String(8), default=None)
    net: Mapped[dict[str, int] | None] = mapped_column(JSON, default=None)
    explanation: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    sitting_out: Mapped[str | None] = mapped_column(String(40), default=None)
    round: Mapped[int | None] = mapped_column(default=None)
    new_round: Mapped[bool] = mapped_column(default=False)
    round_end: Mapped[bool] = mapped_column(default=False)
    pot_after: Mapped[int | None] = mapped_column(default=None)
    factor: Mapped[int] = mapped_column(default=1)

    session: Mapped[TableSession] = relationship(back_populates="hands")


class HistoryEvent(db.Model):
    """An append-only line of the session's history: what changed and when."""

    __tablename__ = "history_event"
    __table_args__ = (Index("ix_history_session_at", "session_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_session.id"))
    hand_number: Mapped[int | None] = mapped_column(default=None)
    action: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    at: Mapped[datetime] = mapped_column(default=utcnow)
