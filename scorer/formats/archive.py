"""The archive of a Stammtisch's or a tournament's whole history: one versioned JSON file
(`format: haferl-group` or `haferl-tournament`, `version: 1`), checked with no database:
a group's here, a tournament's in `scorer.formats.archive_tournament` with the checks here.

A group's archive holds the group (rules, members, how it settles), every evening as an
evening's export (`data.session_to_export`: players, rules, every hand as entered) with
its season and when it was closed and paid, and the group's history in order: the Haferl
taken out by an evening and brought back, seasons closed, settle-ups paid, members
renamed. A tournament's archive holds the tournament, its door and players, every round
drawn with its tables (each an evening's export scored in points), its charity pot.

Every amount in an archive (balances, the Haferl, shares, settle-ups, standings) is
informative. An import (`scorer.services.archives`) replays the hands through the rules and the
history through the group's own operations, so every amount is worked out again: a file
can say what happened, never what it came to. The parsers here refuse a broken, hostile
or newer file with field messages before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from scorer.domain import RuleError
from scorer.domain.group_commands import SETTLE_MODES, SHARE_MODES, Settle, ShareBy
from scorer.domain.limits import (
    MAX_ARCHIVE_EVENINGS,
    MAX_ARCHIVE_EVENTS,
    MAX_ARCHIVE_HANDS,
    MAX_EVENING_HANDS,
    MAX_ID,
    MAX_PLAYER_NAME,
)
from scorer.domain.message import Msg, msg
from scorer.domain.validation import is_whole, whole_number_in
from scorer.formats.evening import (
    ImportPlan,
    is_scalar,
    is_text,
    parse_import,
    unknown_fields,
)

GROUP_FORMAT = "haferl-group"
TOURNAMENT_FORMAT = "haferl-tournament"
VERSION = 1
"""The archive's layout; a file of a later version is refused, never half read. Keys added
since (a tournament's door) are optional: a file without them reads as it always did."""
EVENT_ACTIONS = (
    "pot_out",
    "pot_back",
    "season_close",
    "paid",
    "rename",
    "rules",
    "retire",
    "return",
)
NOTED = ("rename", "rules", "retire", "return")
"""History lines an import writes as they are (what they say changed nothing it works out
again: names and rules are in the evenings themselves)."""

GROUP_FIELDS = {"format", "version", "exported_at", "group", "evenings", "history"}
GROUP_BODY_FIELDS = {
    "name",
    "game",
    "system",
    "params",
    "members",
    "carry_pot",
    "settle",
    "share_by",
    "season",
    "pot_cents",
    "created_at",
}
EVENING_FIELDS = {"season", "closes", "closed_at", "paid_at", "opening_pot", "evening"}
EVENT_FIELDS = {
    "action",
    "season",
    "at",
    "evening",
    "evenings",
    "reopened",
    "cents",
    "pot",
    "shares",
    "balances",
    "transfers",
    "from",
    "to",
    "name",
    "system",
    "params",
    "from_evening",
}


# --- the plans an import replays --------------------------------------------------------------


@dataclass(frozen=True)
class ArchivedEvening:
    plan: ImportPlan
    season: int
    created_at: datetime | None
    closed_at: datetime | None
    closes: tuple[int, ...] = ()
    """How many hands the evening had each time it was closed (more than one close: it
    was opened again), so that its Haferl goes back as it did each time."""


@dataclass(frozen=True)
class ArchivedEvent:
    """One line of the group's history: what happened, not what it came to (the amounts
    are worked out again). `evenings` are positions in the archive's list of evenings."""

    action: str
    season: int
    at: datetime | None
    evenings: tuple[int, ...] = ()
    reopened: bool = False
    noted: dict[str, Any] | None = None
    """What a line of `NOTED` says (checked), written as it is."""


@dataclass(frozen=True)
class GroupArchive:
    name: str
    game: str
    system: str
    params: dict[str, Any]
    members: list[str]
    carry_pot: bool
    settle: Settle
    share_by: ShareBy
    created_at: datetime | None
    evenings: tuple[ArchivedEvening, ...]
    history: tuple[ArchivedEvent, ...]


# --- reading ------------------------------------------------------------------------------------


def archive_format(doc: Any) -> str | None:
    """Which archive `doc` claims to be (GROUP_FORMAT or TOURNAMENT_FORMAT), or None."""
    if isinstance(doc, dict) and doc.get("format") in (GROUP_FORMAT, TOURNAMENT_FORMAT):
        return doc["format"]
    return None


class Checks:
    """Field messages gathered while reading, raised together (`done`)."""

    def __init__(self) -> None:
        self.errors: dict[str, list[Msg]] = {}

    def bad(self, field: str, message: Msg) -> None:
        self.errors.setdefault(field, []).append(message)

    def done(self) -> None:
        if self.errors:
            raise RuleError(self.errors)

    def unknown(self, data: dict[str, Any], known: set[str], where: str) -> None:
        unknown_fields(data, known, lambda key, m: self.bad(f"{where}.{key}", m))

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.bad(where, msg("must be an object"))
            return {}
        return value

    def items(self, value: Any, where: str, limit: int, *, least: int = 0) -> list[Any]:
        if not isinstance(value, list) or not least <= len(value) <= limit:
            self.bad(where, msg("must be a list of %(least)s..%(count)s", least=least, count=limit))
            return []
        return value

    def take(self, error: RuleError, where: str | None = None) -> None:
        """A check's RuleError gathered with the rest, its fields put under `where`."""
        for field, messages in error.fields.items():
            self.errors.setdefault(f"{where}.{field}" if where else field, []).extend(messages)

    def number(self, value: Any, where: str, low: int, *, high: int) -> int:
        try:
            return whole_number_in(value, where, low=low, high=high)
        except RuleError as error:
            self.take(error)
            return low

    def when(self, value: Any, where: str) -> datetime | None:
        """A stored time (`…Z` or without a zone, as the exports write it), or None."""
        if value is None:
            return None
        if is_text(value, MAX_ID):
            try:
                moment = datetime.fromisoformat(value.removesuffix("Z"))
            except ValueError:
                pass
            else:
                if moment.tzinfo is None:
                    return moment
        self.bad(where, msg("must be a date and time (text)"))
        return None

    def evening(self, value: Any, where: str) -> ImportPlan | None:
        """An evening's export, checked and folded like a single import; its messages are
        put under `where` (`evenings[3].evening.hands[7].hand.points`)."""
        try:
            return parse_import(value)
        except RuleError as exc:
            self.take(exc, where)
            return None


def check_head(doc: Any, expected: str, fields: set[str], *, checks: Checks) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise RuleError.one("document", msg("must be a JSON object (a Haferl archive)"))
    if doc.get("format") != expected:
        said = msg("this is not a Haferl archive (format must be '%(format)s')", format=expected)
        raise RuleError.one("format", said)
    version = doc.get("version")
    if not is_whole(version) or version < 1:
        raise RuleError.one("version", msg("must be a whole number from 1"))
    if version > VERSION:
        raise RuleError.one(
            "version",
            msg(
                "this file was written by a newer Haferl (archive version %(version)s); this "
                "server reads version %(supported)s: update Haferl to import it",
                version=version,
                supported=VERSION,
            ),
        )
    checks.unknown(doc, fields, "document")
    return doc


def rules_fields(body: dict[str, Any], where: str, checks: Checks) -> tuple[str, str, dict]:
    game, system, params = body.get("game"), body.get("system"), body.get("params", {})
    if not is_text(game, MAX_ID):
        checks.bad(f"{where}.game", msg("must be the id of a game"))
    if not is_text(system, MAX_ID):
        checks.bad(f"{where}.system", msg("must be the id of a payment system"))
    if not isinstance(params, dict):
        checks.bad(f"{where}.params", msg("must be an object"))
        params = {}
    # Ids once the archive is made: a bad one is recorded, and `checks.done()` raises.
    return cast(str, game), cast(str, system), params


def hands_in(plans: list[ImportPlan | None], checks: Checks) -> None:
    if sum(len(p.hands) for p in plans if p is not None) > MAX_ARCHIVE_HANDS:
        checks.bad("document", msg("at most %(count)s hands", count=MAX_ARCHIVE_HANDS))


def parse_group_archive(doc: Any) -> GroupArchive:
    """Check a group's archive strictly and fold every evening's hands (no database)."""
    checks = Checks()
    check_head(doc, GROUP_FORMAT, GROUP_FIELDS, checks=checks)
    body = checks.obj(doc.get("group"), "group")
    checks.unknown(body, GROUP_BODY_FIELDS, "group")
    name = body.get("name", "")
    if not is_text(name, MAX_PLAYER_NAME * 2, empty=True):
        checks.bad("group.name", msg("must be text"))
    game, system, params = rules_fields(body, "group", checks)
    members = body.get("members")
    if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
        checks.bad("group.members", msg("must be a list of names"))
    carry_pot = body.get("carry_pot", True)
    if not isinstance(carry_pot, bool):
        checks.bad("group.carry_pot", msg("must be true or false"))
    settle, share_by = body.get("settle", "each_evening"), body.get("share_by", "equal")
    if settle not in SETTLE_MODES:
        checks.bad("group.settle", msg("must be 'each_evening' or 'collected'"))
    if share_by not in SHARE_MODES:
        checks.bad("group.share_by", msg("must be 'equal' or 'evenings'"))
    created_at = checks.when(body.get("created_at"), "group.created_at")
    entries = checks.items(doc.get("evenings"), "evenings", MAX_ARCHIVE_EVENINGS)
    lines = checks.items(doc.get("history", []), "history", MAX_ARCHIVE_EVENTS)
    checks.done()  # the shape is right: now each evening

    evenings: list[ArchivedEvening | None] = []
    for index, entry in enumerate(entries):
        where = f"evenings[{index}]"
        entry = checks.obj(entry, where)
        checks.unknown(entry, EVENING_FIELDS, where)
        season = checks.number(
            entry.get("season"), f"{where}.season", 1, high=MAX_ARCHIVE_EVENINGS + 1
        )
        evening = entry.get("evening")
        said = evening.get("created_at") if isinstance(evening, dict) else None
        created = checks.when(said, f"{where}.evening.created_at")
        closed_at = checks.when(entry.get("closed_at"), f"{where}.closed_at")
        plan = checks.evening(evening, f"{where}.evening")
        closes = _closes(entry.get("closes", []), f"{where}.closes", checks)
        evenings.append(ArchivedEvening(plan, season, created, closed_at, closes) if plan else None)
    hands_in([e.plan if e else None for e in evenings], checks)
    history = [
        _event(line, f"history[{index}]", len(entries), checks=checks)
        for index, line in enumerate(lines)
    ]
    checks.done()
    return GroupArchive(
        name=name,
        game=game,
        system=system,
        params=params,
        members=cast("list[str]", members),  # names: `checks.done()` raised otherwise
        carry_pot=carry_pot,
        settle=settle,
        share_by=share_by,
        created_at=created_at,
        evenings=tuple(e for e in evenings if e is not None),
        history=tuple(e for e in history if e is not None),
    )


def _closes(value: Any, where: str, checks: Checks) -> tuple[int, ...]:
    counts = checks.items(value, where, MAX_ARCHIVE_EVENTS)
    if not all(is_whole(c) and 0 <= c <= MAX_EVENING_HANDS for c in counts) or counts != sorted(
        counts
    ):
        checks.bad(where, msg("must be hand counts in order"))
        return ()
    return tuple(counts)


def _event(line: Any, where: str, evenings: int, *, checks: Checks) -> ArchivedEvent | None:
    line = checks.obj(line, where)
    checks.unknown(line, EVENT_FIELDS, where)
    action = line.get("action")
    if action not in EVENT_ACTIONS:
        checks.bad(f"{where}.action", msg("not a line of a group's history"))
        return None
    season = checks.number(line.get("season"), f"{where}.season", 1, high=MAX_ARCHIVE_EVENINGS + 1)
    at = checks.when(line.get("at"), f"{where}.at")

    def position(value: Any, field: str) -> int:
        return checks.number(value, f"{where}.{field}", 0, high=max(evenings - 1, 0))

    if action in ("pot_out", "pot_back"):
        reopened = line.get("reopened", False)
        if not isinstance(reopened, bool):
            checks.bad(f"{where}.reopened", msg("must be true or false"))
        chosen: tuple[int, ...] = (position(line.get("evening"), "evening"),)
        return ArchivedEvent(action, season, at, chosen, reopened is True)
    if action == "paid":
        listed = checks.items(
            line.get("evenings"), f"{where}.evenings", MAX_ARCHIVE_EVENINGS, least=1
        )
        chosen = tuple(position(v, f"evenings[{i}]") for i, v in enumerate(listed))
        return ArchivedEvent(action, season, at, chosen)
    if action == "rename":
        old, new = line.get("from"), line.get("to")
        if not (is_text(old, MAX_PLAYER_NAME) and is_text(new, MAX_PLAYER_NAME)):
            checks.bad(where, msg("a rename says 'from' and 'to' (names)"))
            return None
        return ArchivedEvent(action, season, at, noted={"from": old, "to": new})
    if action in ("retire", "return"):
        name = line.get("name")
        if not is_text(name, MAX_PLAYER_NAME):
            checks.bad(f"{where}.name", msg("must be a name"))
            return None
        return ArchivedEvent(action, season, at, noted={"name": name})
    if action == "rules":
        system, params = line.get("system"), line.get("params")
        first = checks.number(
            line.get("from_evening"), f"{where}.from_evening", 1, high=MAX_ARCHIVE_EVENINGS + 1
        )
        if not is_text(system, MAX_ID) or not isinstance(params, dict) or len(params) > 64:
            checks.bad(where, msg("a change of rules says 'system' and 'params'"))
            return None
        if not all(is_text(k, MAX_ID) and is_scalar(v) for k, v in params.items()):
            checks.bad(
                f"{where}.params",
                msg("names and values must be short texts, numbers or true/false"),
            )
            return None
        noted = {"system": system, "params": params, "from_evening": first}
        return ArchivedEvent(action, season, at, noted=noted)
    return ArchivedEvent(action, season, at)


# --- writing ------------------------------------------------------------------------------------


def stamp(moment: datetime | None) -> str | None:
    """A stored (UTC, zone-less) time as the exports write it."""
    return None if moment is None else moment.isoformat() + "Z"


Positions = Callable[[str], int]
"""An evening's key → its place in the archive's list of evenings."""


def event_line(
    action: str, season: int, at: datetime, *, data: dict[str, Any], position: Positions
) -> dict[str, Any]:
    """A group event as an archive line: evenings named by their place, not their key (the
    keys are the old server's, and an import makes new ones)."""
    line: dict[str, Any] = {"action": action, "season": season, "at": stamp(at)}
    for field, value in data.items():
        if field == "evening":
            line["evening"] = position(value)
        elif field == "evenings":
            line["evenings"] = [position(key) for key in value]
        else:
            line[field] = value
    return line
