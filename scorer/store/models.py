"""Database models: table sessions, their hands as entered, and the history of changes.

Balances are not stored as a truth of their own: `TableSession.state` and the result
columns of `HandRecord` are a cache of the ledger fold, rebuilt from the hands by
`scorer.services.table_cache.refold` and checked against a fresh fold in the tests.
"""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from typing import Any

from flask_login import UserMixin
from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, false, true
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from scorer.domain.limits import (
    MAX_ADJUSTMENT_REASON,
    MAX_CLUB_NAME,
    MAX_EMAIL,
    MAX_GROUP_NAME,
    MAX_ID,
    MAX_IDEMPOTENCY_KEY,
    MAX_ORGANISER_NAME,
    MAX_PLAYER_NAME,
    MAX_TABLE_NAME,
)
from scorer.domain.tournament import DEFAULT_TIE_BREAKS
from scorer.store.database import Model


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class TableSession(Model):
    """An evening at one table: game, payment system, players in dealing order."""

    __tablename__ = "table_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    short_code: Mapped[str | None] = mapped_column(String(8), unique=True, index=True, default=None)
    """What a second device types instead of the key (`scorer.store.table_codes`)."""
    name: Mapped[str] = mapped_column(String(MAX_TABLE_NAME))
    game: Mapped[str] = mapped_column(String(MAX_ID))
    system: Mapped[str] = mapped_column(String(MAX_ID))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    players: Mapped[list[str]] = mapped_column(JSON)
    """Who sits at the table now, in dealing order."""
    first_dealer: Mapped[str] = mapped_column(String(MAX_PLAYER_NAME))
    lineups: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    """When players came or went: every lineup of the evening, the first one included, as
    `Lineup.to_json` ({"at", "players", "dealer"}); None while the players never changed."""
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    hand_count: Mapped[int] = mapped_column(default=0)
    declarer_tally: Mapped[dict[str, dict[str, int]]] = mapped_column(
        JSON, default=dict, server_default="{}"
    )
    """How the live hands ended, counted per declarer: {result: {declarer: hands}}, the
    results being 'won', 'lost' and 'draw'. Kept with `state` by every write to the table,
    so a tournament's tie-breaks are read from its tables, never from all of its hands."""
    scoring: Mapped[str] = mapped_column(String(8), default="money", server_default="money")
    """'money' for an evening's stakes and pot; 'points' at a tournament table (RULES §5)."""
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    """Bumped by every write to the table: what an export cached per version is keyed on."""
    hands_planned: Mapped[int | None] = mapped_column(default=None)
    """At a tournament table: how many hands the round has; the table is done then."""
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("stammtisch_group.id"), default=None, index=True
    )
    """The Stammtisch group this evening belongs to, if any."""
    season: Mapped[int | None] = mapped_column(default=None)
    """The group's season the evening counts for."""
    opening_pot: Mapped[int] = mapped_column(default=0, server_default="0")
    """A Haferl carried in from the group's last evening (cents); 0 otherwise."""
    paid_at: Mapped[datetime | None] = mapped_column(default=None)
    """When a group that settles collected marked the evening paid."""
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

    @property
    def points_only(self) -> bool:
        return self.scoring == "points"

    @property
    def live_hands(self) -> int:
        """Hands that count (voided ones do not)."""
        return self.state.get("hands", 0)

    @property
    def done(self) -> bool:
        return self.hands_planned is not None and self.live_hands >= self.hands_planned


class HandRecord(Model):
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
    dealer: Mapped[str] = mapped_column(String(MAX_PLAYER_NAME))
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    voided: Mapped[bool] = mapped_column(default=False)
    idempotency_key: Mapped[str | None] = mapped_column(String(MAX_IDEMPOTENCY_KEY), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    # The cache of the fold (None for a voided hand); `state_after` lets an edit fold
    # again from the changed hand instead of from the first.
    state_after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    result: Mapped[str | None] = mapped_column(String(8), default=None)
    net: Mapped[dict[str, int] | None] = mapped_column(JSON, default=None)
    explanation: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    sitting_out: Mapped[str | None] = mapped_column(String(MAX_PLAYER_NAME), default=None)
    round: Mapped[int | None] = mapped_column(default=None)
    new_round: Mapped[bool] = mapped_column(default=False)
    round_end: Mapped[bool] = mapped_column(default=False)
    pot_after: Mapped[int | None] = mapped_column(default=None)
    factor: Mapped[int] = mapped_column(default=1)

    session: Mapped[TableSession] = relationship(back_populates="hands")


class HistoryEvent(Model):
    """An append-only line of the session's history: what changed and when."""

    __tablename__ = "history_event"
    __table_args__ = (Index("ix_history_session_at", "session_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("table_session.id"))
    hand_number: Mapped[int | None] = mapped_column(default=None)
    action: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Organiser(UserMixin, Model):
    """Someone who runs tournaments; sees only their own."""

    __tablename__ = "organiser"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(MAX_EMAIL), unique=True)
    name: Mapped[str] = mapped_column(String(MAX_ORGANISER_NAME))
    password_hash: Mapped[str] = mapped_column(String(300))
    session_token: Mapped[str | None] = mapped_column(String(64), default=None)
    """Part of every login cookie's id; a new one (logout, a new password) ends them all."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    tournaments: Mapped[list[Tournament]] = relationship(back_populates="organiser")

    def get_id(self) -> str:
        return f"{self.id}:{self.session_token}"

    def new_session_token(self) -> None:
        self.session_token = secrets.token_urlsafe(32)

    def set_password(self, password: str, method: str) -> None:
        """Keeps the password hashed by werkzeug's `method` (its name is kept with the hash:
        the check reads it there)."""
        self.password_hash = generate_password_hash(password, method=method)
        self.new_session_token()

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)


class Tournament(Model):
    """Several tables over several rounds, one game and payment system, scored in points."""

    __tablename__ = "tournament"

    id: Mapped[int] = mapped_column(primary_key=True)
    organiser_id: Mapped[int] = mapped_column(ForeignKey("organiser.id"), index=True)
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    """The public token of the live standings (read only)."""
    name: Mapped[str] = mapped_column(String(120))
    day: Mapped[date]
    game: Mapped[str] = mapped_column(String(MAX_ID))
    system: Mapped[str] = mapped_column(String(MAX_ID))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rounds: Mapped[int]
    deals_per_player: Mapped[int]
    """How often each player deals in a round (a table of n plays n times as many hands)."""
    seed: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    """When the results became final: nothing changes them after."""
    tie_breaks: Mapped[list[str]] = mapped_column(
        JSON, default=lambda: list(DEFAULT_TIE_BREAKS), server_default='["wins", "last_round"]'
    )
    """How equal totals are decided, in order (`scorer.domain.tournament.TIE_BREAKS`)."""
    check_in: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Players are drawn only once checked in at the door (a tournament made with its list
    of players has them all present: no desk)."""
    registration_open: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether players may sign themselves up on the public registration page."""
    cap: Mapped[int | None] = mapped_column(default=None)
    """At most this many registered players; later ones are on the waiting list."""
    desk_code: Mapped[str | None] = mapped_column(String(8), default=None)
    """The code at the door a player types on his phone to check himself in."""
    missed_round_points: Mapped[int] = mapped_column(default=0, server_default="0")
    """**[decision]** What a player checked in after round 1 scores for each round he
    missed: 0 (nothing) unless the organiser sets points."""
    entry_fee_cents: Mapped[int] = mapped_column(default=0, server_default="0")
    prize_plan: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, server_default="{}")
    """The pool and the prizes by place (`scorer.domain.prizes.plan_to_json`)."""

    organiser: Mapped[Organiser] = relationship(back_populates="tournaments")
    players: Mapped[list[TournamentPlayer]] = relationship(
        back_populates="tournament", order_by="TournamentPlayer.id", cascade="all, delete-orphan"
    )
    round_list: Mapped[list[TournamentRound]] = relationship(
        back_populates="tournament",
        order_by="TournamentRound.number",
        cascade="all, delete-orphan",
    )
    adjustments: Mapped[list[TournamentAdjustment]] = relationship(
        back_populates="tournament",
        order_by="TournamentAdjustment.id",
        cascade="all, delete-orphan",
    )
    series_id: Mapped[int | None] = mapped_column(ForeignKey("series.id"), index=True, default=None)
    """The cup this tournament is part of (its final results give cup points)."""
    final: Mapped[bool] = mapped_column(default=False, server_default=false())
    """The series' final: its players start with the points carried in from the cup."""
    series: Mapped[Series | None] = relationship(back_populates="tournaments")
    gifts: Mapped[list[CharityGift]] = relationship(
        back_populates="tournament", order_by="CharityGift.id", cascade="all, delete-orphan"
    )

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class TournamentAdjustment(Model):
    """A director's points for or against a player (a penalty, a late arrival), with its
    reason; one taken back keeps its line (`taken_back_at`) and counts no more."""

    __tablename__ = "tournament_adjustment"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    player: Mapped[str] = mapped_column(String(MAX_PLAYER_NAME))
    points: Mapped[int]
    reason: Mapped[str] = mapped_column(String(MAX_ADJUSTMENT_REASON))
    by: Mapped[str] = mapped_column(String(MAX_ORGANISER_NAME))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    taken_back_at: Mapped[datetime | None] = mapped_column(default=None)

    tournament: Mapped[Tournament] = relationship(back_populates="adjustments")

    @property
    def counts(self) -> bool:
        return self.taken_back_at is None


class TournamentLog(Model):
    """One line of a tournament's log: what happened (`action`, `data`), when, and who did
    it (the organiser's name, or "table" for a tablet)."""

    __tablename__ = "tournament_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    by: Mapped[str] = mapped_column(String(MAX_ORGANISER_NAME))
    action: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class TournamentPlayer(Model):
    """A player of a tournament; late entries join at a round, withdrawals leave after one."""

    __tablename__ = "tournament_player"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    name: Mapped[str] = mapped_column(String(MAX_PLAYER_NAME))
    joined_round: Mapped[int] = mapped_column(default=1)
    withdrawn_after: Mapped[int | None] = mapped_column(default=None)
    club: Mapped[str | None] = mapped_column(String(MAX_CLUB_NAME), default=None)
    checked_in: Mapped[bool] = mapped_column(default=True, server_default=true())
    """At the door (or present from the start where the tournament has no desk)."""
    waiting: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Registered beyond the tournament's cap: moves up when a place comes free."""
    fee: Mapped[str] = mapped_column(String(8), default="unpaid", server_default="unpaid")
    """The entry fee: "unpaid", "paid" (cash at the desk) or "waived"."""
    fixed_table: Mapped[int | None] = mapped_column(default=None)
    """A table this player keeps in every round (limited mobility)."""
    carried: Mapped[int] = mapped_column(default=0, server_default="0")
    """In a cup's final: the points he starts with, by his place in the series ("aus dem
    Cup"), fixed when the final's first round is drawn."""

    tournament: Mapped[Tournament] = relationship(back_populates="players")

    def plays_in(self, round_number: int) -> bool:
        return (
            self.checked_in
            and not self.waiting
            and self.joined_round <= round_number
            and (self.withdrawn_after is None or round_number <= self.withdrawn_after)
        )


class Series(Model):
    """A cup over a season of tournaments: cup points by place, the best results that
    count, what ties in its table, and the points a final starts with."""

    __tablename__ = "series"

    id: Mapped[int] = mapped_column(primary_key=True)
    organiser_id: Mapped[int] = mapped_column(ForeignKey("organiser.id"), index=True)
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    """The public token of the series' standings (read only)."""
    name: Mapped[str] = mapped_column(String(MAX_GROUP_NAME))
    cup_points: Mapped[Any] = mapped_column(JSON)
    """By place ([100, 90, 82, …]) or {"rule": "field"} (`scorer.domain.cup`)."""
    best_of: Mapped[int | None] = mapped_column(default=None)
    final_carry: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    tie_breaks: Mapped[list[str]] = mapped_column(JSON, default=list)
    names: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    """The series' log of names: each rename or merge of two spellings of one person
    (`{"from", "into", "at", "by"}`), applied in order to every result."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    tournaments: Mapped[list[Tournament]] = relationship(
        back_populates="series", order_by="[Tournament.day, Tournament.id]"
    )


class CharityGift(Model):
    """One entry of a tournament's charity pot: who gave how much (integer cents)."""

    __tablename__ = "charity_gift"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    giver: Mapped[str] = mapped_column(String(MAX_PLAYER_NAME))
    cents: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=utcnow)

    tournament: Mapped[Tournament] = relationship(back_populates="gifts")


class TournamentRound(Model):
    """One round: its draw (from a stored seed) and its tables."""

    __tablename__ = "tournament_round"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    number: Mapped[int]
    seed: Mapped[int]
    byes: Mapped[list[str]] = mapped_column(JSON, default=list)
    seating: Mapped[str] = mapped_column(String(16), default="random", server_default="random")
    """How the round was seated: "random" (avoiding repeat table-mates) or "standings"."""
    keep_apart: Mapped[str | None] = mapped_column(String(16), default=None)
    """"club": club-mates kept apart as far as the numbers allowed."""
    clubs_together: Mapped[list[list[str]]] = mapped_column(JSON, default=list, server_default="[]")
    """Pairs of club-mates the numbers did not allow to keep apart."""
    closed_at: Mapped[datetime | None] = mapped_column(default=None)

    tournament: Mapped[Tournament] = relationship(back_populates="round_list")
    tables: Mapped[list[TournamentTable]] = relationship(
        back_populates="round", order_by="TournamentTable.number", cascade="all, delete-orphan"
    )

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


class TournamentTable(Model):
    """A table of a round: entered on its own tablet through its own table session."""

    __tablename__ = "tournament_table"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("tournament_round.id"), index=True)
    number: Mapped[int]
    session_id: Mapped[int] = mapped_column(ForeignKey("table_session.id"), unique=True)

    round: Mapped[TournamentRound] = relationship(back_populates="tables")
    session: Mapped[TableSession] = relationship()


class Group(Model):
    """A Stammtisch: the same people every week, their rules, the Haferl carried over from
    evening to evening, seasons and one settle-up. Its key is the permission, as a table's."""

    __tablename__ = "stammtisch_group"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(MAX_GROUP_NAME))
    game: Mapped[str] = mapped_column(String(MAX_ID))
    system: Mapped[str] = mapped_column(String(MAX_ID))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    members: Mapped[list[str]] = mapped_column(JSON, default=list)
    carry_pot: Mapped[bool] = mapped_column(default=True)
    settle: Mapped[str] = mapped_column(String(16), default="each_evening")
    """'each_evening' or 'collected'."""
    share_by: Mapped[str] = mapped_column(String(16), default="equal")
    """How the Haferl is shared out when a season ends: 'equal' or 'evenings' attended."""
    pot_cents: Mapped[int] = mapped_column(default=0)
    """The Haferl the group holds between evenings."""
    season: Mapped[int] = mapped_column(default=1)
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class GroupEvent(Model):
    """An append-only line of a group's history: the Haferl taken out or brought back, a
    season closed (with its shares), a settle-up paid, a member renamed."""

    __tablename__ = "group_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("stammtisch_group.id"), index=True)
    season: Mapped[int]
    action: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    at: Mapped[datetime] = mapped_column(default=utcnow)
