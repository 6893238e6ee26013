"""A tournament's archive (`format: haferl-tournament`, `scorer.formats.archive`): the tournament,
its players (late entries, withdrawals) and every round drawn, with its tables as
evenings' exports scored in points; checked with no database before an import
(`scorer.services.archives`) replays it. The standings in the file are informative."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from scorer.domain.limits import (
    MAX_PLAYER_NAME,
    MAX_TOURNAMENT_PLAYERS,
    MAX_TOURNAMENT_ROUNDS,
    MAX_TOURNAMENT_TABLES,
)
from scorer.domain.message import msg
from scorer.formats.archive import (
    TOURNAMENT_FORMAT,
    Checks,
    check_head,
    hands_in,
    rules_fields,
)
from scorer.formats.evening import ImportPlan, is_text

TOURNAMENT_FIELDS = {"format", "version", "exported_at", "tournament", "players", "rounds"}
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
}
PLAYER_FIELDS = {"name", "joined_round", "withdrawn_after"}
ROUND_FIELDS = {"number", "seed", "byes", "closed_at", "tables"}
TABLE_FIELDS = {"number", "table"}


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


@dataclass(frozen=True)
class ArchivedPlayer:
    name: str
    joined_round: int
    withdrawn_after: int | None


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


def parse_tournament_archive(doc: Any) -> TournamentArchive:
    """Check a tournament's archive strictly and fold every table's hands (no database)."""
    checks = Checks()
    check_head(doc, TOURNAMENT_FORMAT, TOURNAMENT_FIELDS, checks)
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
    rounds = checks.number(body.get("rounds"), "tournament.rounds", 1, MAX_TOURNAMENT_ROUNDS)
    deals = checks.number(body.get("deals_per_player"), "tournament.deals_per_player", 1, 20)
    seed = checks.number(body.get("seed"), "tournament.seed", 0, 2**31 - 1)
    created_at = checks.when(body.get("created_at"), "tournament.created_at")
    players = [
        _player(entry, f"players[{i}]", rounds, checks)
        for i, entry in enumerate(
            checks.items(doc.get("players"), "players", MAX_TOURNAMENT_PLAYERS, 3)
        )
    ]
    round_entries = checks.items(doc.get("rounds", []), "rounds", rounds)
    checks.done()
    round_list = [
        _round(entry, f"rounds[{i}]", i + 1, checks) for i, entry in enumerate(round_entries)
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
    )


def _player(entry: Any, where: str, rounds: int, checks: Checks) -> ArchivedPlayer | None:
    entry = checks.obj(entry, where)
    checks.unknown(entry, PLAYER_FIELDS, where)
    name = entry.get("name")
    if not is_text(name, MAX_PLAYER_NAME):
        checks.bad(f"{where}.name", msg("must be a name"))
        return None
    joined = checks.number(entry.get("joined_round", 1), f"{where}.joined_round", 1, rounds)
    left = entry.get("withdrawn_after")
    if left is not None:
        left = checks.number(left, f"{where}.withdrawn_after", 0, rounds)
    return ArchivedPlayer(name, joined, left)


def _round(entry: Any, where: str, number: int, checks: Checks) -> ArchivedRound | None:
    entry = checks.obj(entry, where)
    checks.unknown(entry, ROUND_FIELDS, where)
    if entry.get("number") != number:
        checks.bad(f"{where}.number", msg("rounds are numbered 1, 2, 3, … in order"))
    seed = checks.number(entry.get("seed"), f"{where}.seed", 0, 2**31 - 1)
    byes = entry.get("byes", [])
    if not isinstance(byes, list) or not all(is_text(b, MAX_PLAYER_NAME) for b in byes):
        checks.bad(f"{where}.byes", msg("must be a list of names"))
        byes = []
    closed_at = checks.when(entry.get("closed_at"), f"{where}.closed_at")
    tables = []
    listed = checks.items(entry.get("tables"), f"{where}.tables", MAX_TOURNAMENT_TABLES, 1)
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
    return ArchivedRound(number, seed, list(byes), closed_at, tuple(tables))
