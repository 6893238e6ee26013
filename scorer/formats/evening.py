"""The export files of an evening and the import of a JSON export, with no Flask in it.

`session_to_export` writes the self-describing JSON document (`format: haferl-session`,
`version: 1`): the table, its players and every hand as entered, voided ones included, so
that `parse_import` can rebuild an identical evening. `balances` and `transfers` in the
document are informative only: an import replays the hands and lets the ledger work them
out again, so a file cannot smuggle in balances of its own.

`parse_import` trusts nothing: it checks types and sizes, then folds the hands through the
rules engine (no database), so a broken or hostile file is refused with field messages
before anything is written; the messages are data, said in the reader's language.
`csv_rows` is the spreadsheet: one row per hand and player, its numbers written as a
spreadsheet in the reader's language reads them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeGuard, cast, get_args

from scorer.domain import Hand, RuleError
from scorer.domain.commands import Scoring
from scorer.domain.facts import STORED_FIELDS, parse_hand
from scorer.domain.ledger import Ledger, Lineup, Settlement
from scorer.domain.limits import (
    MAX_EVENING_HANDS,
    MAX_EVENING_PLAYERS,
    MAX_ID,
    MAX_LINEUPS,
    MAX_PARAMS,
    MAX_PLAYER_NAME,
    MAX_TABLE_NAME,
)
from scorer.domain.message import Msg, msg
from scorer.domain.model import POT, pot_name_taken
from scorer.domain.names import alike_message, clean_name, look_alike, same_name
from scorer.domain.registry import Game
from scorer.domain.scoring import Rules
from scorer.domain.validation import contains_nul, is_whole

FORMAT = "haferl-session"
VERSION = 1

NOT_A_HAFERL_FILE = msg(
    "this is not a Haferl session file (format must be '%(format)s')", format=FORMAT
)

DOCUMENT_FIELDS = {
    "format",
    "version",
    "name",
    "game",
    "system",
    "params",
    "players",
    "first_dealer",
    "lineups",
    "created_at",
    "closed",
    "scoring",
    "hands_planned",
    "hands",
    "balances",
    "transfers",
}
SCORINGS: tuple[Scoring, ...] = get_args(Scoring)
HAND_ENTRY_FIELDS = {"number", "dealer", "hand", "voided"}
LINEUP_FIELDS = {"at", "players", "dealer"}


class MalformedDocument(ValueError):
    """The bytes are not well-formed JSON (or not UTF-8)."""


# --- export ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportedHand:
    """A hand as it was entered, voided or not: what the export writes of it."""

    number: int
    dealer: str
    facts: dict[str, Any]
    voided: bool


@dataclass(frozen=True)
class ExportedEvening:
    """What the export writes of a table, as plain values (the services read them from the
    store, `scorer.services.archives.evening_export`): its rules, players and lineups, and
    its balances and pot as they stand."""

    name: str
    game: str
    system: str
    params: dict[str, Any]
    players: list[str]
    first_dealer: str
    lineups: list[dict[str, Any]]
    created_at: datetime
    closed: bool
    scoring: str
    hands_planned: int | None
    balances: dict[str, int]
    pot: int


def session_to_export(
    evening: ExportedEvening, hands: Iterable[ExportedHand], settlement: Settlement
) -> dict[str, Any]:
    """The JSON export of an evening; `hands` are all its hands, voided ones included,
    and `settlement` the ledger's settle-up (no transfers at a tournament table)."""
    transfers = [{"from": t.payer, "to": t.payee, "cents": t.cents} for t in settlement.transfers]
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": evening.name,
        "game": evening.game,
        "system": evening.system,
        "params": dict(evening.params),
        "players": list(evening.players),
        "first_dealer": evening.first_dealer,
        # Players who came and went: every lineup, the first included (absent: no change).
        **({"lineups": list(evening.lineups)} if evening.lineups else {}),
        "created_at": evening.created_at.isoformat() + "Z",
        "closed": evening.closed,
        "scoring": evening.scoring,
        "hands_planned": evening.hands_planned,
        "hands": [
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "hand": hand.facts,
                "voided": hand.voided,
            }
            for hand in hands
        ],
        # Informative: an import folds the hands again and ignores these.
        "balances": {**evening.balances, POT: evening.pot},
        "transfers": transfers,
    }


# --- import ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportedHand:
    """One hand of an import: its number, dealer, facts and whether it was voided."""

    number: int
    dealer: str
    hand: Hand
    voided: bool


@dataclass(frozen=True)
class ImportPlan:
    """A checked export document: what `scorer.services.tables` needs to rebuild the evening."""

    name: str
    game: str
    system: str
    params: dict[str, Any]
    players: tuple[str, ...]
    """The players the evening began with."""
    first_dealer: str
    lineups: tuple[Lineup, ...]
    """Players who came and went after the start."""
    closed: bool
    scoring: Scoring
    hands_planned: int | None
    hands: tuple[ImportedHand, ...]


def load_document(raw: bytes) -> Any:
    """Parse UTF-8 JSON (a byte order mark is allowed); MalformedDocument otherwise.

    Deep nesting makes the standard parser raise RecursionError, which is not a
    ValueError: it is caught here so that no file can cause a 500. Text with NUL
    characters is refused here too, as the API refuses it."""
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError) as exc:
        raise MalformedDocument(msg("the file must be well-formed JSON in UTF-8")) from exc
    if contains_nul(document):
        raise MalformedDocument(msg("text may not contain NUL characters"))
    return document


def parse_import(doc: Any) -> ImportPlan:
    """Check an export document strictly and fold its hands through the rules.

    Raises RuleError with field messages (`hands[3].hand.points`: position 3 of the list)."""
    _check_header(doc)
    errors: dict[str, list[Msg]] = {}

    def bad(field: str, message: Msg) -> None:
        errors.setdefault(field, []).append(message)

    unknown_fields(doc, DOCUMENT_FIELDS, bad)
    name, game, system, params = _rules_fields(doc, bad)
    players = _players(doc.get("players"), bad)
    first_dealer = doc.get("first_dealer")
    if first_dealer is None and players:
        first_dealer = players[0]
    lineups = _lineups(doc.get("lineups"), players, bad)
    start = list(lineups[0].players) if lineups else players
    if start and first_dealer not in start:
        bad("first_dealer", msg("must be one of the players"))
    closed, scoring, hands_planned, entries = _evening_fields(doc, lineups, bad)
    if errors:
        raise RuleError(errors)
    # What passed the checks above (else they raised): two ids and one of the players.
    game, system, first_dealer = cast(str, game), cast(str, system), cast(str, first_dealer)

    rules = Rules.build(game, system, params)
    changes = tuple(lineups[1:])
    ledger = Ledger(
        rules, tuple(start), first_dealer, points_only=scoring == "points", lineups=changes
    )
    if changes and changes[-1].at > len(entries) + 1:
        raise RuleError.one(
            "lineups", msg("a change of players must come before a hand of the file")
        )
    hands = tuple(_hands(entries, list(ledger.everyone), ledger, hands_planned=hands_planned))
    stored = rules.stored_params()
    return ImportPlan(
        name=name,
        game=game,
        system=system,
        params=stored,
        players=tuple(start),
        first_dealer=first_dealer,
        lineups=changes,
        closed=closed,
        scoring=scoring,
        hands_planned=hands_planned,
        hands=hands,
    )


def _check_header(doc: Any) -> None:
    """A Haferl session export of the version this Haferl reads, or a RuleError at once."""
    if not isinstance(doc, dict):
        raise RuleError.one("document", msg("must be a JSON object (a Haferl session export)"))
    if doc.get("format") != FORMAT:
        raise RuleError.one("format", NOT_A_HAFERL_FILE)
    version = doc.get("version")
    if not is_whole(version) or version != VERSION:
        raise RuleError.one(
            "version",
            msg("this Haferl reads version %(version)s of the file only", version=VERSION),
        )


def _rules_fields(doc: dict[str, Any], bad) -> tuple[Any, Any, Any, Any]:
    """The table's name, game, payment system and parameters, each checked (`bad` told
    of what is wrong)."""
    name = doc.get("name", "")
    if not is_text(name, MAX_TABLE_NAME, empty=True):
        bad("name", msg("must be text of at most %(limit)s characters", limit=MAX_TABLE_NAME))
    game, system = doc.get("game"), doc.get("system")
    if not is_text(game, MAX_ID):
        bad("game", msg("must be the id of a game"))
    if not is_text(system, MAX_ID):
        bad("system", msg("must be the id of a payment system"))
    params = doc.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict) or len(params) > MAX_PARAMS:
        bad("params", msg("must be an object of at most %(count)s parameters", count=MAX_PARAMS))
    elif not all(is_text(k, MAX_ID) and is_scalar(v) for k, v in params.items()):
        bad("params", msg("names and values must be short texts, numbers or true/false"))
    return name, game, system, params


def _evening_fields(doc: dict[str, Any], lineups: list[Lineup], bad) -> tuple[Any, Any, Any, Any]:
    """Whether the evening was closed, how it scored, the hands it planned and the hands'
    entries, each checked; and that the informative fields have the right shape."""
    closed = doc.get("closed", False)
    if not isinstance(closed, bool):
        bad("closed", msg("must be true or false"))
    scoring = doc.get("scoring", "money")
    if scoring not in SCORINGS:
        bad("scoring", msg("must be 'money' or 'points'"))
    elif scoring == "points" and len(lineups) > 1:
        bad("lineups", msg("at a tournament table the draw decides who plays"))
    hands_planned = doc.get("hands_planned")
    if hands_planned is not None and not (
        is_whole(hands_planned) and 0 < hands_planned <= MAX_EVENING_HANDS
    ):
        bad(
            "hands_planned",
            msg("must be a whole number 1..%(maximum)s or null", maximum=MAX_EVENING_HANDS),
        )
    created_at = doc.get("created_at")
    if created_at is not None and not is_text(created_at, MAX_ID):
        bad("created_at", msg("must be a date and time (text)"))
    if not isinstance(doc.get("balances", {}), dict):
        bad("balances", msg("must be an object"))
    if not isinstance(doc.get("transfers", []), list):
        bad("transfers", msg("must be a list"))
    entries = doc.get("hands", [])
    if not isinstance(entries, list):
        bad("hands", msg("must be a list"))
    elif len(entries) > MAX_EVENING_HANDS:
        bad("hands", msg("at most %(count)s hands", count=MAX_EVENING_HANDS))
    return closed, scoring, hands_planned, entries


def _hands(
    entries: list[Any], players: list[str], ledger: Ledger, *, hands_planned: int | None
) -> Iterator[ImportedHand]:
    """Each hand checked, then folded in order; the first bad hand stops the import.

    A voided hand is scored too (it was a valid hand when it was entered, and the import
    records it before voiding it), but it does not move the ledger on. A tournament table
    takes no hand once its planned hands are in."""
    state = ledger.start()
    live = 0
    seen: set[int] = set()
    for index, entry in enumerate(entries):
        where = f"hands[{index}]"
        full = hands_planned if hands_planned is not None and live >= hands_planned else None
        imported = _entry(
            entry, where, index, game=ledger.rules.game, players=players, seen=seen, full=full
        )
        seen.add(imported.number)
        try:
            _, after = ledger.play(state, imported.number, imported.hand, dealer=imported.dealer)
        except RuleError as exc:
            raise RuleError({f"{where}.hand.{k}": v for k, v in exc.fields.items()}) from exc
        if not imported.voided:
            state = after
            live += 1
        yield imported


def _entry(
    entry: Any,
    where: str,
    index: int,
    *,
    game: Game,
    players: list[str],
    seen: set[int],
    full: int | None,
) -> ImportedHand:
    """Hand `index` of the file checked on its own (`full`: the number of the table's
    planned hands, all in before it), or every bad field of it refused at once."""
    errors: dict[str, list[Msg]] = {}

    def bad(field: str, message: Msg) -> None:
        errors.setdefault(f"{where}.{field}" if field else where, []).append(message)

    if not isinstance(entry, dict):
        raise RuleError.one(where, msg("must be an object with number, dealer, hand, voided"))
    unknown_fields(entry, HAND_ENTRY_FIELDS, bad)
    number = entry.get("number")
    if not is_whole(number):
        bad("number", msg("must be a whole number"))
    elif number in seen:
        bad("number", msg("hand number %(number)s appears twice", number=number))
    elif number != index + 1:
        bad(
            "number",
            msg("must be %(number)s: hands are numbered 1, 2, 3, … in order", number=index + 1),
        )
    dealer = entry.get("dealer")
    if dealer not in players:
        bad("dealer", msg("must be one of the players"))
    voided = entry.get("voided", False)
    if not isinstance(voided, bool):
        bad("voided", msg("must be true or false"))
    try:
        hand = parse_hand(entry.get("hand"), game, fields=STORED_FIELDS)
    except RuleError as exc:
        hand = None
        for field, messages in exc.fields.items():
            for message in messages:
                bad("hand" if field == "hand" else f"hand.{field}", message)
    if full is not None:
        bad("", msg("the table's %(count)s planned hands were all entered before it", count=full))
    if errors:
        raise RuleError(errors)
    # What passed the checks above (else they raised): a number, a player, a hand.
    return ImportedHand(
        number=cast(int, number), dealer=cast(str, dealer), hand=cast(Hand, hand), voided=voided
    )


def _players(value: Any, bad, field: str = "players") -> list[str]:
    if not isinstance(value, list) or not 0 < len(value) <= MAX_EVENING_PLAYERS:
        bad(field, msg("must be a list of 1..%(count)s names", count=MAX_EVENING_PLAYERS))
        return []
    try:
        clean = [clean_name(v, field, MAX_PLAYER_NAME) for v in value]
    except RuleError as exc:
        bad(field, exc.fields[field][0])
        return []
    if clean != value:
        bad(field, msg("names must be written as Haferl stores them (no extra spaces)"))
        return []
    if clash := look_alike(value):
        bad(field, alike_message(*clash))
        return []
    if any(same_name(v, POT) for v in value):
        # The pot is an account of the ledger: a player of that name would be merged into it.
        bad(field, pot_name_taken())
        return []
    return list(value)


def _lineups(value: Any, players: list[str], bad) -> list[Lineup]:
    """The evening's lineups, the first included; [] when the players never changed. The
    last is who sits at the table now: the document's `players`."""
    if value is None:
        return []
    if not isinstance(value, list) or not 0 < len(value) <= MAX_LINEUPS:
        bad("lineups", msg("must be a list of 1..%(count)s lineups", count=MAX_LINEUPS))
        return []
    lineups: list[Lineup] = []
    for index, entry in enumerate(value):
        where = f"lineups[{index}]"
        if not isinstance(entry, dict):
            bad(where, msg("must be an object with at, players, dealer"))
            return []
        unknown_fields(entry, LINEUP_FIELDS, lambda k, m, w=where: bad(f"{w}.{k}", m))
        at, dealer = entry.get("at"), entry.get("dealer")
        names = _players(entry.get("players"), bad, f"{where}.players")
        expected_first = index == 0 and at != 1
        if not is_whole(at) or expected_first or (lineups and at <= lineups[-1].at):
            bad(f"{where}.at", msg("must be the number of the first hand, 1 for the first lineup"))
            return []
        if dealer not in names:
            bad(f"{where}.dealer", msg("must be one of the players"))
            return []
        lineups.append(Lineup(at, tuple(names), dealer))
    if players and list(lineups[-1].players) != players:
        bad("players", msg("must be the players of the last lineup"))
    return lineups


def unknown_fields(data: dict[str, Any], known: set[str], bad) -> None:
    """Name the first few unknown keys (shortened: they come from the file)."""
    for key in [k for k in data if k not in known][:5]:
        bad(key[:MAX_ID], msg("unknown field"))


def is_text(value: Any, limit: int, empty: bool = False) -> TypeGuard[str]:
    return (
        isinstance(value, str)
        and (empty or value.strip() != "")
        and len(value) <= limit
        and "\x00" not in value
    )


def is_scalar(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= MAX_ID
    return value is None or isinstance(value, bool | int | float)
