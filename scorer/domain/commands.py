"""The changes to a table, one typed command each: open it (`OpenTable`), players who come
and go (`ChangePlayers`), and its hands (record, edit, strike out), with the one parser
that makes the hands' commands from a hand's JSON-shaped facts.

Every way in builds its command here: the API from its JSON body, the table page from the
facts its form adapter reads (`scorer.table.hand_form.facts_from_form`), so a hand is
validated once (`facts.parse_hand`, the one validator of a hand's facts) and refused with
the same messages and fields wherever it comes from. The services take the command, typed
(`scorer.services.tables`, `scorer.services.evenings`); what only the locked table can say
(the next number, a stale version, a closed evening) they check there.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scorer.domain.facts import parse_hand, parse_players
from scorer.domain.limits import MAX_PLAYER_NAME, MAX_TABLE_NAME
from scorer.domain.message import Msg, msg
from scorer.domain.model import Hand, Refusals, RuleError
from scorer.domain.names import clean_name
from scorer.domain.registry import Game
from scorer.domain.scoring import Rules
from scorer.domain.validation import is_whole

Scoring = Literal["money", "points"]
"""How a table scores: money (an evening), or a tournament's points (no pot, no stakes)."""
UNNAMED_TABLE = "Tarockrunde"


@dataclass(frozen=True)
class OpenTable:
    """A table to open: its name, its rules, the players in dealing order and who deals
    first (None: the first of them); how it scores, the hands it plans (a tournament
    table's), the Haferl it starts with (a group's evening that takes the group's)."""

    name: str
    rules: Rules
    players: tuple[str, ...]
    first_dealer: str | None = None
    scoring: Scoring = "money"
    hands_planned: int | None = None
    opening_pot: int = 0


@dataclass(frozen=True)
class ChangePlayers:
    """From the next hand on, `players` (in dealing order) sit at the table and `dealer`
    deals (None: the one due, or the next after him who stays); `version`: the table's
    version the change was made at (None: whatever it is now)."""

    players: tuple[str, ...]
    dealer: str | None = None
    version: int | None = None


def open_table(
    *,
    name: str,
    game: str,
    system: str,
    params: Mapping[str, Any] | None,
    players: Sequence[str],
    first_dealer: str | None = None,
    scoring: Scoring = "money",
    hands_planned: int | None = None,
    opening_pot: int = 0,
) -> OpenTable:
    """The table these say (a blank `name`: "Tarockrunde"), or every bad field at once."""
    refusals = Refusals()
    rules = refusals.check(Rules.build, game, system, params)
    seated = refusals.check(parse_players, list(players))
    dealer = None
    if first_dealer:
        dealer = refusals.check(clean_name, first_dealer, "first_dealer", MAX_PLAYER_NAME)
    named = refusals.check(clean_name, name, "name", MAX_TABLE_NAME) if name.strip() else None
    refusals.done()
    return OpenTable(
        name=named or UNNAMED_TABLE,
        rules=rules,
        players=tuple(seated),
        first_dealer=dealer,
        scoring=scoring,
        hands_planned=hands_planned,
        opening_pot=opening_pot,
    )


def change_players(
    players: Sequence[str], *, dealer: str | None = None, version: int | None = None
) -> ChangePlayers:
    """Tonight's players from the next hand on (as a table takes them), and its dealer."""
    refusals = Refusals()
    seated = refusals.check(parse_players, list(players))
    if dealer is not None:
        dealer = refusals.check(clean_name, dealer, "dealer", MAX_PLAYER_NAME)
    refusals.done()
    return ChangePlayers(tuple(seated), dealer=dealer, version=version)


@dataclass(frozen=True)
class RecordHand:
    """A hand to append. `number`: the number the device showed for it (None: append);
    `begun`: the number its form was begun as, when the form moved on since (the table
    page's); `idempotency_key`: a retry with the same key returns the first result."""

    hand: Hand
    dealer: str | None = None
    number: int | None = None
    begun: int | None = None
    idempotency_key: str | None = None


@dataclass(frozen=True)
class EditHand:
    """Hand `number`, read at `version`, corrected to `hand`."""

    number: int
    version: int
    hand: Hand
    dealer: str | None = None


@dataclass(frozen=True)
class VoidHand:
    """Hand `number`, read at `version`, struck out (kept in the history)."""

    number: int
    version: int


VERSION_NEEDED = msg("the version the hand was read at is needed")


def record_hand(
    facts: Mapping[str, Any],
    game: Game,
    *,
    players: Collection[str],
    next_number: int,
    idempotency_key: str | None = None,
    begun: int | None = None,
) -> RecordHand:
    """The hand `facts` say (and the `number` the device showed for it), at a table of
    `game` where `players` sat this evening and `next_number` is the next hand's number."""
    said: dict[str, list[Msg]] = {}
    number = facts.get("number")
    if number is not None and not (is_whole(number) and number >= 1):
        said["number"] = [msg("the next hand is number %(number)s", number=next_number)]
    hand = _hand(facts, game, players, said=said, own=("number",))
    return RecordHand(
        hand,
        dealer=hand.dealer,
        number=number,
        begun=begun,
        idempotency_key=idempotency_key,
    )


def edit_hand(
    facts: Mapping[str, Any], game: Game, *, number: int, players: Collection[str]
) -> EditHand:
    """Hand `number` as `facts` say it now, with the `version` it was read at."""
    version = facts.get("version")
    said: dict[str, list[Msg]] = {} if is_whole(version) else {"version": [VERSION_NEEDED]}
    hand = _hand(facts, game, players, said=said, own=("version",))
    if not is_whole(version):  # never: `_hand` refused it, with all else wrong with the hand
        raise RuleError.one("version", VERSION_NEEDED)
    return EditHand(number, version, hand, dealer=hand.dealer)


def void_hand(number: int, version: object) -> VoidHand:
    """Hand `number` to strike out, read at `version` (a whole number)."""
    if not is_whole(version):
        raise RuleError.one("version", VERSION_NEEDED)
    return VoidHand(number, version)


def _hand(
    facts: Mapping[str, Any],
    game: Game,
    players: Collection[str],
    *,
    said: dict[str, list[Msg]],
    own: tuple[str, ...],
) -> Hand:
    """The hand of `facts` without the command's `own` fields, or a RuleError with every
    field refused at once (`said`: the command's own refusals so far)."""
    try:
        hand = parse_hand({k: v for k, v in facts.items() if k not in own}, game)
    except RuleError as refused:
        for field, messages in refused.fields.items():
            said.setdefault(field, []).extend(messages)
        raise RuleError(said) from None
    if said:
        raise RuleError(said)
    if hand.dealer is not None and hand.dealer not in players:
        raise RuleError.one("dealer", msg("must be one of the players"))
    return hand
