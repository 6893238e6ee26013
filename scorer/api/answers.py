"""What the API answers: each answer's model (see `scorer.api.contract`). A view builds the
model and gives `.as_json()`; a field it does not declare cannot slip into an answer."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scorer.domain.model import Result

Cents = dict[str, int]
"""Amounts by name (a player, or `pot`), in integer cents (points at a tournament table)."""


class Answer(BaseModel):
    """An answer body: exactly its declared fields; `as_json()` is what is sent (a field with a
    default is sent only when it was given: a table's `group` only when it has one)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class ErrorBody(Answer):
    code: str = Field(description="Fixed, whatever the language: validation, conflict, …")
    message: str = Field(description="In the reader's language (Accept-Language)")
    fields: dict[str, list[str]] | None = Field(
        default=None, description="What is wrong with which field"
    )


class Error(Answer):
    """API.md's error body."""

    error: ErrorBody


class Said(Answer):
    """An explanation line in the reader's language, with its units or cents where it has."""

    model_config = ConfigDict(extra="allow")

    text: str


class StoredHand(Answer):
    """A recorded hand: its facts as stored, what it paid, and why (a hand struck out
    has no result, amounts or round)."""

    number: int
    version: int
    dealer: str
    sitting_out: str | None
    hand: dict[str, Any]
    result: Result | None
    net: Cents | None
    explanation: list[Said]
    round: int | None
    new_round: bool
    round_end: bool
    pot_after: int | None


class ExistingHand(StoredHand):
    """A stored hand, and whether it was struck out since."""

    voided: bool


class HandExists(Error):
    """The hand of that number is stored already: it comes with the error."""

    hand: ExistingHand
    next_number: int


class Session(Answer):
    """A table: its players, rules, balances with the Haferl (`pot`), and its hands."""

    key: str
    name: str
    game: str
    system: str
    params: dict[str, Any]
    players: list[str]
    first_dealer: str
    balances: Cents
    round: int
    next_dealer: str
    sitting_out_next: str | None
    next_hand_factor: int
    hand_count: int
    closed: bool
    created_at: str
    group: str | None = Field(default=None, description="The Stammtisch group it belongs to")
    hands: list[StoredHand] | None = None


class Transfer(Answer):
    from_: str = Field(alias="from")
    to: str
    cents: int


class Score(Answer):
    """A hand scored: the declarer's result, each one's net, who pays whom, and why."""

    result: Result
    net: Cents
    postings: list[Transfer]
    explanation: list[Said]


class Settlement(Answer):
    """Balances with the Haferl shared out, and the fewest transfers that settle them."""

    balances: Cents
    transfers: list[Transfer]
    closed: bool


class HistoryEvent(Answer):
    action: str
    hand: int | None
    at: str
    data: dict[str, Any] | None


class Evening(Answer):
    key: str
    name: str
    date: str
    season: int | None
    players: list[str]
    closed: bool
    paid: bool


class ClosedSeason(Answer):
    """A season ended: the Haferl it ended with and how it was shared out."""

    season: int
    pot_cents: int
    shares: Cents


class Group(Answer):
    """A Stammtisch group: its members, rules, the Haferl it carries, its evenings."""

    key: str
    name: str
    game: str
    system: str
    params: dict[str, Any]
    members: list[str]
    not_coming: list[str]
    carry_pot: bool
    settle: Literal["each_evening", "collected"]
    share_by: Literal["equal", "evenings"]
    pot_cents: int
    season: int
    closed_seasons: list[ClosedSeason]
    evenings: list[Evening]
    from_evening: int | None = Field(
        default=None, description="After a change of rules: the first evening they apply to"
    )


class SeasonClosed(Answer):
    """A season ended: each member's share of the Haferl, and the group after it."""

    shares: Cents
    group: Group


class GroupSettlement(Answer):
    """One settle-up for the group's closed, unpaid evenings."""

    evenings: list[str]
    balances: Cents
    transfers: list[Transfer]


class Paid(Answer):
    paid: list[str]


class RoundTable(Answer):
    number: int
    players: list[str]
    key: str
    url: str
    hands: int
    hands_planned: int | None
    done: bool


class Round(Answer):
    number: int
    seed: int
    closed: bool
    byes: list[str]
    seating: str
    keep_apart: str | None
    clubs_together: list[list[str]]
    """Club-mates who share a table although `keep_apart` asked: the numbers did not allow."""
    tables: list[RoundTable]


class TournamentPlayer(Answer):
    name: str
    joined_round: int
    withdrawn_after: int | None
    club: str | None
    checked_in: bool
    waiting: bool
    fee: str
    """"unpaid", "paid" or "waived"."""
    fixed_table: int | None


class Tournament(Answer):
    id: int
    key: str
    name: str
    date: str
    game: str
    system: str
    params: dict[str, Any]
    rounds: int
    deals_per_player: int
    players: list[TournamentPlayer]
    rounds_drawn: list[Round]
    standings_url: str
    tie_breaks: list[str]
    finished: bool
    finished_at: str | None
    check_in: bool
    registration_open: bool
    cap: int | None
    registration_url: str
    missed_round_points: int
    entry_fee_cents: int
    prize_plan: dict[str, Any]
    series: int | None
    final: bool


class Standing(Answer):
    """A player's line of the standings, in points; `total` has the director's
    `adjustment` in it, and in a cup's final the points `carried` in from the series."""

    place: int
    player: str
    total: int
    adjustment: int
    carried: int
    wins_as_declarer: int
    losses_as_declarer: int
    per_round: list[int]
    last_round: int
    final: bool


class Adjustment(Answer):
    id: int
    player: str
    points: int
    reason: str
    by: str
    at: str | None
    taken_back_at: str | None


class NewPlayer(Answer):
    name: str
    joined_round: int
    club: str | None
    checked_in: bool
    waiting: bool
    fee: str


class Prize(Answer):
    place: int
    player: str
    cents: int
    goods: list[str]


class Cash(Answer):
    """The treasurer's sum: `received_cents` = fees + charity = prizes + remainder + charity."""

    received_cents: int
    fees_cents: int
    unpaid: list[str]
    waived: list[str]
    pool_cents: int
    prizes: list[Prize]
    remainder_cents: int
    charity_cents: int
    final: bool


class LogLine(Answer):
    """A line of a tournament's log: when, who, what, and what it was about (by action:
    the round, the table, the hand, the player, the points, the reason …)."""

    model_config = ConfigDict(extra="allow")

    at: str | None
    by: str
    action: str


class NewSeries(Answer):
    id: int
    key: str
    standings_url: str


class CupResult(Answer):
    tournament: str
    place: int
    cup_points: int
    counted: bool


class SeriesRow(Answer):
    """A player's line of a series table: his counted cup points and every result."""

    place: int
    player: str
    points: int
    results: list[CupResult]


class NameLine(Answer):
    """A line of a series' log of names: `from` is one person with `into` from now on."""

    from_: str = Field(alias="from")
    into: str
    at: str
    by: str
