"""A table as it is read (its repository): its rules and ledger, its hands (every one, the
latest, a page of them, the live one of a number), their rows for the API, the sheet and
the exports, its history, a fresh fold of its hands, the state before a hand, where the
evening stood after each hand, the settle-up and the table's name.

Nothing here writes. A table's writes are its aggregate, `scorer.services.tables`, which
keeps the cache of the fold (`scorer.services.table_cache`) equal to a fresh fold of the
stored hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Row, case, func, select

from scorer.domain import GAMES, Hand
from scorer.domain.ledger import Entry, Ledger, LedgerState, Lineup, Settlement
from scorer.domain.message import Msg, msg
from scorer.domain.scoring import Rules
from scorer.store.database import db
from scorer.store.errors import NotFound
from scorer.store.models import (
    HandRecord,
    HistoryEvent,
    TableSession,
    TournamentTable,
)

if TYPE_CHECKING:
    pass


def no_such_hand(number: int) -> Msg:
    return msg("no hand number %(number)s at this table", number=number)


def hand_summary(game_id: str, facts: Mapping[str, Any]) -> Msg:
    """A hand as players name it: "Berta, Frage, 66 card points" (no points for a Bettel)."""
    contract = GAMES[game_id].contract_label(facts)
    points = facts.get("points")
    if points is None or facts.get("contract") == "bettel":
        return msg("%(declarer)s, %(contract)s", declarer=facts["declarer"], contract=contract)
    return msg(
        "%(declarer)s, %(contract)s, %(points)s card points",
        declarer=facts["declarer"],
        contract=contract,
        points=points,
    )


def rules_for(session: TableSession) -> Rules:
    return Rules.build(session.game, session.system, session.params)


def ledger_for(session: TableSession) -> Ledger:
    lineups = [Lineup.from_json(data) for data in session.lineups or ()]
    start = lineups.pop(0).players if lineups else tuple(session.players)
    return Ledger(
        rules_for(session),
        start,
        session.first_dealer,
        points_only=session.points_only,
        lineups=tuple(lineups),
        opening_pot=session.opening_pot or 0,
    )


def hands_of(session: TableSession, include_voided: bool = False) -> list[HandRecord]:
    query = select(HandRecord).where(HandRecord.session_id == session.id)
    if not include_voided:
        query = query.where(HandRecord.voided.is_(False))
    return list(db.session.scalars(query.order_by(HandRecord.number)))


HAND_COLUMNS = (
    "number",
    "version",
    "dealer",
    "sitting_out",
    "facts",
    "result",
    "net",
    "explanation",
    "round",
    "new_round",
    "round_end",
    "pot_after",
)
"""What the API shows of a hand."""


def live_hand_rows(session: TableSession) -> list[Mapping[str, Any]]:
    """The `HAND_COLUMNS` of every live hand as plain rows: at 2,000 hands, building ORM
    objects would be most of the time the session JSON takes."""
    # Keyed by the names of HAND_COLUMNS (a RowMapping's keys may be columns too).
    return cast(
        "list[Mapping[str, Any]]", [row._mapping for row in hand_rows(session, HAND_COLUMNS)]
    )


SHEET_COLUMNS = (
    *(name for name in HAND_COLUMNS if name != "explanation"),
    "voided",
    "factor",
    "state_after",
    "round_end_explanation",
)
"""What a score sheet reads of a hand; its explanation only where a round ended (the
Haferl's shortfall is printed there)."""


def hand_rows(
    session: TableSession, columns: Sequence[str], include_voided: bool = False
) -> list[Row]:
    """`columns` of the session's hands (live ones unless `include_voided`) as rows read
    by attribute or through `_mapping`, by number; for a read of every hand, where ORM
    objects would cost more than the read. The column `round_end_explanation` is a hand's
    explanation when it ended a round, else None."""
    selected = [
        case((HandRecord.round_end.is_(True), HandRecord.explanation)).label(name)
        if name == "round_end_explanation"
        else getattr(HandRecord, name)
        for name in columns
    ]
    query = select(*selected).where(HandRecord.session_id == session.id)
    if not include_voided:
        query = query.where(HandRecord.voided.is_(False))
    return list(db.session.execute(query.order_by(HandRecord.number)))


def latest_hands(session: TableSession, count: int) -> list[HandRecord]:
    """The last `count` live hands, the latest first."""
    return list(
        db.session.scalars(
            select(HandRecord)
            .where(HandRecord.session_id == session.id, HandRecord.voided.is_(False))
            .order_by(HandRecord.number.desc())
            .limit(count)
        )
    )


def require_hand(session: TableSession, number: int) -> None:
    """NotFound unless the session has a hand `number` (struck out or not)."""
    stored = db.session.scalar(
        select(HandRecord.id).where(
            HandRecord.session_id == session.id, HandRecord.number == number
        )
    )
    if stored is None:
        raise NotFound(no_such_hand(number))


def live_hand(session: TableSession, number: int) -> HandRecord:
    """Hand `number` of the session unless it was voided; NotFound otherwise."""
    record = db.session.scalar(
        select(HandRecord).where(
            HandRecord.session_id == session.id,
            HandRecord.number == number,
            HandRecord.voided.is_(False),
        )
    )
    if record is None:
        raise NotFound(no_such_hand(number))
    return record


def voided_hand(session: TableSession, number: int) -> HandRecord | None:
    """Hand `number` when it is struck out (for Undo to put it back into the form)."""
    return db.session.scalar(
        select(HandRecord).where(
            HandRecord.session_id == session.id,
            HandRecord.number == number,
            HandRecord.voided.is_(True),
        )
    )


def live_hands_after(session: TableSession, number: int) -> int:
    """How many live hands come after hand `number`: the ones a change to it settles anew."""
    return (
        db.session.scalar(
            select(func.count())
            .select_from(HandRecord)
            .where(
                HandRecord.session_id == session.id,
                HandRecord.number > number,
                HandRecord.voided.is_(False),
            )
        )
        or 0
    )


def history(session: TableSession) -> list[HistoryEvent]:
    """Everything that happened at the table, in order."""
    return list(
        db.session.scalars(
            select(HistoryEvent)
            .where(HistoryEvent.session_id == session.id)
            .order_by(HistoryEvent.id)
        )
    )


def hands_numbered(session: TableSession, first: int, last: int) -> list[HandRecord]:
    """The hands numbered `first`..`last`, voided ones included: one page of the list."""
    return list(
        db.session.scalars(
            select(HandRecord)
            .where(
                HandRecord.session_id == session.id,
                HandRecord.number >= first,
                HandRecord.number <= last,
            )
            .order_by(HandRecord.number)
        )
    )


Standing = tuple[dict[str, int], int]
"""Every player's balance and what the pot holds, at one point of the evening."""


def standings(
    session: TableSession, records: Sequence[HandRecord | Row]
) -> tuple[Standing, dict[int, Standing]]:
    """Where the evening stood before the first hand and after each live hand of `records`
    (by number), as the ledger cached it (`hand.state_after`). Hands recorded before that
    cache existed are folded afresh in memory; nothing is written on a read."""
    start = ledger_for(session).start()
    live = [r for r in records if not r.voided]
    if all(r.state_after is not None for r in live):
        # None of them is None (just checked), which the checker cannot see through all().
        after = {
            r.number: (
                cast("dict[str, Any]", r.state_after)["balances"],
                cast("dict[str, Any]", r.state_after)["pot"],
            )
            for r in live
        }
    else:
        entries, _ = fold_session(session)
        after = {e.number: (e.balances_after, e.pot_after) for e in entries}
    return (start.balances, start.pot), after


def fold_session(session: TableSession) -> tuple[list[Entry], LedgerState]:
    """A fresh fold of the session's hands, ignoring the cache."""
    records = hands_of(session)
    return ledger_for(session).fold((r.number, Hand.from_json(r.facts), r.dealer) for r in records)


def state_before(session: TableSession, number: int) -> LedgerState:
    """The ledger's state just before hand `number` (what an edit of it is played from)."""
    state = cached_state_before(session, number) if number > 1 else None
    if state is not None:
        return state
    earlier = [r for r in hands_of(session) if r.number < number]
    _, state = ledger_for(session).fold(
        (r.number, Hand.from_json(r.facts), r.dealer) for r in earlier
    )
    return state


def cached_state_before(session: TableSession, number: int) -> LedgerState | None:
    """The cached state after the last live hand before `number`; None when there is no
    such hand or its cache predates the per-hand states (then the fold starts over)."""
    previous = db.session.scalar(
        select(HandRecord.state_after)
        .where(
            HandRecord.session_id == session.id,
            HandRecord.number < number,
            HandRecord.voided.is_(False),
        )
        .order_by(HandRecord.number.desc())
        .limit(1)
    )
    return LedgerState.from_json(previous) if previous else None


def settlement(session: TableSession) -> Settlement:
    """The settle-up of the session as it stands (`Ledger.settle_up`)."""
    return ledger_for(session).settle_up(LedgerState.from_json(session.state))


def table_name(session: TableSession) -> Msg | str:
    """The table's name as it is shown: a tournament table's is made of its tournament,
    round and table (in the reader's language), any other's is the name it was given."""
    if not session.points_only:
        return session.name
    place = db.session.scalar(
        select(TournamentTable).where(TournamentTable.session_id == session.id)
    )
    if place is None:
        return session.name
    return msg(
        "%(tournament)s · Round %(round)s · Table %(table)s",
        tournament=place.round.tournament.name,
        round=place.round.number,
        table=place.number,
    )
