"""A tournament's archive (`format: haferl-tournament`, `scorer.formats.archive`): the tournament,
its players (late entries, withdrawals) and every round drawn, with its tables as
evenings' exports scored in points; checked with no database before an import
(`scorer.services.tournament_archives`) replays it. The standings in the file are informative.

The event's door is in it too: the tournament's desk, registration, cap, entry fee, prize
plan and the points for a missed round; each player's club, check-in, place on the waiting
list, fee and fixed table; each round's seating; the gifts to the charity pot. A file
written before the door (still version 1: these keys are new and optional) has none of
them, and reads as such a tournament was: no desk, every player present, no fee, every
round drawn at random.

The results too (`scorer.formats.archive_results`, optional keys as well): the
tie-breaks, when the tournament was finished, the director's adjustments and each
player's points carried into a cup's final."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, cast

from scorer.domain import RuleError
from scorer.domain.cup import MAX_CUP_POINTS
from scorer.domain.limits import (
    MAX_ADJUSTMENT_POINTS,
    MAX_ARCHIVE_EVENTS,
    MAX_CHARITY_CENTS,
    MAX_CLUB_NAME,
    MAX_ENTRY_FEE_CENTS,
    MAX_PLAYER_NAME,
    MAX_TOURNAMENT_PLAYERS,
    MAX_TOURNAMENT_ROUNDS,
    MAX_TOURNAMENT_TABLES,
)
from scorer.domain.message import msg
from scorer.domain.names import clean_name
from scorer.domain.prizes import FEES, plan_from_json
from scorer.domain.seating import SEATING_MODES
from scorer.domain.tournament import DEFAULT_TIE_BREAKS
from scorer.formats import archive_results as results
from scorer.formats.archive import (
    TOURNAMENT_FORMAT,
    Checks,
    check_head,
    hands_in,
    rules_fields,
)
from scorer.formats.archive_results import ArchivedAdjustment
from scorer.formats.evening import ImportPlan, is_text

TOURNAMENT_FIELDS = {
    "format",
    "version",
    "exported_at",
    "tournament",
    "players",
    "rounds",
    "gifts",
    "adjustments",
}
TOURNAMENT_BODY_FIELDS = {
    "name",
    "date",
    "game",
    "system",
    "params",
    "rounds",
    "deals_per_player",
    "seed",
    "created_at",
    "standings",
    "check_in",
    "registration_open",
    "cap",
    "missed_round_points",
    "entry_fee_cents",
    "prize_plan",
    "tie_breaks",
    "finished_at",
}
PLAYER_FIELDS = {
    "name",
    "joined_round",
    "withdrawn_after",
    "club",
    "checked_in",
    "waiting",
    "fee",
    "fixed_table",
    "carried",
}
ROUND_FIELDS = {
    "number",
    "seed",
    "byes",
    "closed_at",
    "tables",
    "seating",
    "keep_apart",
    "clubs_together",
}
TABLE_FIELDS = {"number", "table"}
PRIZE_PLAN_FIELDS = ("pool_percent", "pool_cents", "prizes")
GIFT_FIELDS = {"giver", "cents", "at"}


@dataclass(frozen=True)
class ArchivedTable:
    number: int
    plan: ImportPlan
    created_at: datetime | None


@dataclass(frozen=True)
class ArchivedRound:
    number: int
    seed: int
    byes: list[str]
    closed_at: datetime | None
    tables: tuple[ArchivedTable, ...]
    seating: str = "random"
    keep_apart: str | None = None
    clubs_together: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ArchivedPlayer:
    name: str
    joined_round: int
    withdrawn_after: int | None
    club: str | None = None
    checked_in: bool = True
    waiting: bool = False
    fee: str = "unpaid"
    fixed_table: int | None = None
    carried: int = 0


@dataclass(frozen=True)
class ArchivedGift:
    giver: str
    cents: int
    at: datetime | None


@dataclass(frozen=True)
class TournamentArchive:
    name: str
    day: date
    game: str
    system: str
    params: dict[str, Any]
    rounds: int
    deals_per_player: int
    seed: int
    created_at: datetime | None
    players: tuple[ArchivedPlayer, ...]
    round_list: tuple[ArchivedRound, ...]
    check_in: bool = False
    registration_open: bool = False
    cap: int | None = None
    missed_round_points: int = 0
    entry_fee_cents: int = 0
    prize_plan: dict[str, Any] = field(default_factory=dict)
    gifts: tuple[ArchivedGift, ...] = ()
    tie_breaks: tuple[str, ...] = tuple(DEFAULT_TIE_BREAKS)
    finished_at: datetime | None = None
    adjustments: tuple[ArchivedAdjustment, ...] = ()


def parse_tournament_archive(doc: Any) -> TournamentArchive:
    """Check a tournament's archive strictly and fold every table's hands (no database)."""
    checks = Checks()
    check_head(doc, TOURNAMENT_FORMAT, TOURNAMENT_FIELDS, checks=checks)
    body = checks.obj(doc.get("tournament"), "tournament")
    checks.unknown(body, TOURNAMENT_BODY_FIELDS, "tournament")
    name = body.get("name")
    if not is_text(name, MAX_PLAYER_NAME * 2):
        checks.bad("tournament.name", msg("must be text"))
    game, system, params = rules_fields(body, "tournament", checks)
    try:
        # Whatever the file says: anything but text raises the TypeError caught below.
        day = date.fromisoformat(cast(Any, body.get("date")))
    except (TypeError, ValueError):
        checks.bad("tournament.date", msg("must be a date (YYYY-MM-DD)"))
        day = date.min
    rounds = checks.number(body.get("rounds"), "tournament.rounds", 1, high=MAX_TOURNAMENT_ROUNDS)
    deals = checks.number(body.get("deals_per_player"), "tournament.deals_per_player", 1, high=20)
    seed = checks.number(body.get("seed"), "tournament.seed", 0, high=2**31 - 1)
    created_at = checks.when(body.get("created_at"), "tournament.created_at")
    door = _door(body, checks)
    # A tournament with a desk may have fewer than 3 players registered (or none yet).
    players = [
        _player(entry, f"players[{i}]", rounds, checks=checks)
        for i, entry in enumerate(
            checks.items(doc.get("players"), "players", MAX_TOURNAMENT_PLAYERS)
        )
    ]
    round_entries = checks.items(doc.get("rounds", []), "rounds", rounds)
    gifts = [
        _gift(entry, f"gifts[{i}]", checks)
        for i, entry in enumerate(checks.items(doc.get("gifts", []), "gifts", MAX_ARCHIVE_EVENTS))
    ]
    outcome = results.read(doc, body, [p.name for p in players if p is not None], checks=checks)
    checks.done()
    round_list = [
        _round(entry, f"rounds[{i}]", i + 1, checks=checks) for i, entry in enumerate(round_entries)
    ]
    hands_in([t.plan for r in round_list if r for t in r.tables], checks)
    checks.done()
    return TournamentArchive(
        name=cast(str, name),  # text: `checks.done()` raised otherwise
        day=day,
        game=game,
        system=system,
        params=params,
        rounds=rounds,
        deals_per_player=deals,
        seed=seed,
        created_at=created_at,
        players=tuple(p for p in players if p is not None),
        round_list=tuple(r for r in round_list if r is not None),
        gifts=tuple(g for g in gifts if g is not None),
        **door,
        **outcome,
    )


def _door(body: dict[str, Any], checks: Checks) -> dict[str, Any]:
    """The tournament's door (`scorer.domain.tournament_commands.Door`): none where the file
    says nothing of it."""
    where = "tournament"
    cap = body.get("cap")
    fee = checks.number(
        body.get("entry_fee_cents", 0), f"{where}.entry_fee_cents", 0, high=MAX_ENTRY_FEE_CENTS
    )
    return {
        "check_in": _flag(checks, body.get("check_in", False), f"{where}.check_in"),
        "registration_open": _flag(
            checks, body.get("registration_open", False), f"{where}.registration_open"
        ),
        "cap": None
        if cap is None
        else checks.number(cap, f"{where}.cap", 3, high=MAX_TOURNAMENT_PLAYERS),
        "missed_round_points": checks.number(
            body.get("missed_round_points", 0),
            f"{where}.missed_round_points",
            -MAX_ADJUSTMENT_POINTS,
            high=MAX_ADJUSTMENT_POINTS,
        ),
        "entry_fee_cents": fee,
        "prize_plan": _prize_plan(
            body.get("prize_plan", {}), fee, f"{where}.prize_plan", checks=checks
        ),
    }


def _prize_plan(value: Any, fee: int, where: str, *, checks: Checks) -> dict[str, Any]:
    """The plan as the tournament keeps it (`scorer.domain.tournament_commands.prize_plan`),
    checked as a new tournament's is."""
    plan = checks.obj(value, where)
    checks.unknown(plan, set(PRIZE_PLAN_FIELDS), where)
    try:
        plan_from_json(
            fee, plan.get("pool_percent"), plan.get("prizes"), pool_cents=plan.get("pool_cents")
        )
    except RuleError as error:
        checks.take(error, where)
    return {key: plan[key] for key in PRIZE_PLAN_FIELDS if key in plan}


def _flag(checks: Checks, value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        checks.bad(where, msg("must be true or false"))
        return False
    return value


def _name(checks: Checks, value: Any, where: str, *, limit: int) -> str | None:
    """A name cleaned as the services clean one (`clean_name`), or None (recorded)."""
    try:
        return clean_name(value, where, limit)
    except RuleError as error:
        checks.take(error)
        return None


def _gift(entry: Any, where: str, checks: Checks) -> ArchivedGift | None:
    entry = checks.obj(entry, where)
    checks.unknown(entry, GIFT_FIELDS, where)
    giver = _name(checks, entry.get("giver"), f"{where}.giver", limit=MAX_PLAYER_NAME)
    cents = checks.number(entry.get("cents"), f"{where}.cents", 1, high=MAX_CHARITY_CENTS)
    at = checks.when(entry.get("at"), f"{where}.at")
    return None if giver is None else ArchivedGift(giver, cents, at)


def _player(entry: Any, where: str, rounds: int, *, checks: Checks) -> ArchivedPlayer | None:
    entry = checks.obj(entry, where)
    checks.unknown(entry, PLAYER_FIELDS, where)
    name = entry.get("name")
    if not is_text(name, MAX_PLAYER_NAME):
        checks.bad(f"{where}.name", msg("must be a name"))
        return None
    joined = checks.number(entry.get("joined_round", 1), f"{where}.joined_round", 1, high=rounds)
    left = entry.get("withdrawn_after")
    if left is not None:
        left = checks.number(left, f"{where}.withdrawn_after", 0, high=rounds)
    club = entry.get("club")
    if club is not None:
        club = _name(checks, club, f"{where}.club", limit=MAX_CLUB_NAME)
    fee = entry.get("fee", "unpaid")
    if fee not in FEES:
        checks.bad(f"{where}.fee", msg("must be paid, waived or unpaid"))
    table = entry.get("fixed_table")
    if table is not None:
        table = checks.number(table, f"{where}.fixed_table", 1, high=MAX_TOURNAMENT_TABLES)
    return ArchivedPlayer(
        name,
        joined,
        left,
        club=club,
        checked_in=_flag(checks, entry.get("checked_in", True), f"{where}.checked_in"),
        waiting=_flag(checks, entry.get("waiting", False), f"{where}.waiting"),
        fee=fee,
        fixed_table=table,
        carried=checks.number(entry.get("carried", 0), f"{where}.carried", 0, high=MAX_CUP_POINTS),
    )


def _round(entry: Any, where: str, number: int, *, checks: Checks) -> ArchivedRound | None:
    entry = checks.obj(entry, where)
    checks.unknown(entry, ROUND_FIELDS, where)
    if entry.get("number") != number:
        checks.bad(f"{where}.number", msg("rounds are numbered 1, 2, 3, … in order"))
    seed = checks.number(entry.get("seed"), f"{where}.seed", 0, high=2**31 - 1)
    byes = entry.get("byes", [])
    if not isinstance(byes, list) or not all(is_text(b, MAX_PLAYER_NAME) for b in byes):
        checks.bad(f"{where}.byes", msg("must be a list of names"))
        byes = []
    closed_at = checks.when(entry.get("closed_at"), f"{where}.closed_at")
    tables = []
    listed = checks.items(entry.get("tables"), f"{where}.tables", MAX_TOURNAMENT_TABLES, least=1)
    for index, table in enumerate(listed):
        at = f"{where}.tables[{index}]"
        table = checks.obj(table, at)
        checks.unknown(table, TABLE_FIELDS, at)
        if table.get("number") != index + 1:
            checks.bad(f"{at}.number", msg("tables are numbered 1, 2, 3, … in order"))
        session = table.get("table")
        created = checks.when(session.get("created_at") if isinstance(session, dict) else None, at)
        plan = checks.evening(session, f"{at}.table")
        if plan is not None and plan.scoring != "points":
            checks.bad(f"{at}.table.scoring", msg("a tournament table scores in points"))
        if plan is not None:
            tables.append(ArchivedTable(index + 1, plan, created))
    seating = entry.get("seating", "random")
    if seating not in SEATING_MODES:
        checks.bad(f"{where}.seating", msg("must be 'random' or 'standings'"))
    keep_apart = entry.get("keep_apart")
    if keep_apart not in (None, "club"):
        checks.bad(f"{where}.keep_apart", msg("must be 'club' or null"))
    together = _pairs(entry.get("clubs_together", []), keep_apart == "club")
    if together is None:
        checks.bad(
            f"{where}.clubs_together",
            msg("must be pairs of club-mates' names (none unless clubs were kept apart)"),
        )
    return ArchivedRound(
        number,
        seed,
        list(byes),
        closed_at,
        tuple(tables),
        seating=seating,
        keep_apart=keep_apart,
        clubs_together=together or (),
    )


def _pairs(value: Any, apart: bool) -> tuple[tuple[str, str], ...] | None:
    """Pairs of two different names (a round drawn with club-mates apart: those the numbers
    did not allow to part; none in any other round), or None."""
    if not isinstance(value, list) or len(value) > MAX_TOURNAMENT_PLAYERS or (value and not apart):
        return None
    pairs = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            return None
        a, b = pair
        if not (is_text(a, MAX_PLAYER_NAME) and is_text(b, MAX_PLAYER_NAME)) or a == b:
            return None
        pairs.append((a, b))
    return tuple(pairs)
