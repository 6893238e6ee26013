"""Operations that change the database: create a session, record, edit and void hands,
close the evening. They `flush`; the request commits once, and a failure rolls back all.

Every operation that changes a table runs on a session loaded with `session_for_write`,
which holds the table's lock until the request commits: two devices' writes happen one
after the other, and what an operation checks (the version, the next number, an
Idempotency-Key) cannot change before it writes.

Recording a hand continues the ledger from the cached state after the last hand; an edit
or a void folds the evening again from the changed hand on, starting from the state
cached after the hand before it (`refold`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, bindparam, case, func, insert, select, update
from sqlalchemy.orm.attributes import set_committed_value

from scorer.domain import GAMES, Hand, RuleError
from scorer.domain.facts import MAX_NAME, parse_players
from scorer.domain.ledger import Entry, Ledger, LedgerState, Lineup, Settlement
from scorer.domain.message import Msg, msg
from scorer.domain.names import clean_name
from scorer.domain.scoring import Rules
from scorer.extensions import db
from scorer.services import events
from scorer.store.hand_writes import write_hand
from scorer.store.locks import begin_write, lock_more, sqlite
from scorer.store.models import (
    Group,
    HandRecord,
    HistoryEvent,
    TableSession,
    TournamentRound,
    TournamentTable,
    utcnow,
)

if TYPE_CHECKING:
    from scorer.formats.evening import ImportPlan


def no_such_hand(number: int) -> Msg:
    return msg("no hand number %(number)s at this table", number=number)


class Conflict(Exception):
    """The request clashes with the session's state: a stale version or a closed evening."""


class NotFound(Exception):
    """No such session or hand."""


class HandExists(Conflict):
    """The hand a device entered as number N when hand N is stored already (another device
    entered it first): nothing is stored. `hand` is the stored hand's `HAND_COLUMNS` and
    `voided` whether it was struck out since; `next_number` is the number a hand sent now
    would get."""

    def __init__(self, message: Msg, hand: Mapping[str, Any], voided: bool, next_number: int):
        super().__init__(message)
        self.hand, self.voided, self.next_number = hand, voided, next_number


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


def new_key() -> str:
    """An unguessable session key: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


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


KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a key made by `new_key` looks like; anything else is no key at all."""

MAX_TABLE_NAME = 80
MAX_HANDS = 2000
"""Hands an evening (or an imported file) may hold: far more than any real evening, and
a bound on what one request can make the server fold, list or print."""


def get_session(key: str) -> TableSession:
    session = None
    if KEY_SHAPE.fullmatch(key):
        session = db.session.scalar(select(TableSession).where(TableSession.key == key))
    if session is None:
        raise NotFound(msg("no table with this key"))
    return session


_LOCK_BY_KEY = (
    select(TableSession, TournamentTable.round_id)
    .outerjoin(TournamentTable, TournamentTable.session_id == TableSession.id)
    .where(TableSession.key == bindparam("key"))
    .with_for_update(of=TableSession)
    .execution_options(populate_existing=True)
)
"""PostgreSQL: lock the table with this key and say whether it belongs to a round
(built once: every write to a table starts here)."""


def session_for_write(key: str, writes: int = 1) -> TableSession:
    """The session named by `key`, locked for this transaction (see `scorer.store.locks`), for
    `writes` writes in this transaction.

    A tournament's round closes when its last table is done, and whoever may close it holds
    the round's lock, taken before the table's (the order every writer keeps). Only a write
    that may finish its table needs it: when the table is `writes` hands or fewer from done
    (or done). The other writes at the round's tables lock their own table only, so fifty
    tables do not queue on one round (`writes_before_done` says how many may go together).

    On PostgreSQL one statement locks the table and says whether it belongs to a round;
    only then (rarely) is the lock given back and taken again in the round's order."""
    if not KEY_SHAPE.fullmatch(key):
        raise NotFound(msg("no table with this key"))
    begin_write()
    if sqlite():  # one writer at a time already excludes everyone else
        found = lock_more(TableSession, TableSession.key == key)
    else:
        row = db.session.execute(_LOCK_BY_KEY, {"key": key}).first()
        found, round_id = row if row is not None else (None, None)
        if round_id is not None and writes_before_done(found) < writes:
            begin_write()
            lock_more(TournamentRound, TournamentRound.id == round_id)
            found = lock_more(TableSession, TableSession.key == key)
    if found is None:
        raise NotFound(msg("no table with this key"))
    if found.group_id is not None and not sqlite():
        # A Stammtisch evening: its group first, as every writer of the group does.
        begin_write()
        lock_more(Group, Group.id == found.group_id)
        found = lock_more(TableSession, TableSession.key == key)
        if found is None:
            raise NotFound(msg("no table with this key"))
    return found


def writes_before_done(session: TableSession) -> int:
    """How many writes may go in one transaction that cannot finish the table: one fewer
    than the hands it still lacks (each write adds a hand at most); any number at a table
    without planned hands, none at a table that is done."""
    if session.hands_planned is None:
        return MAX_HANDS
    return max(session.hands_planned - session.live_hands - 1, 0)


def create_session(
    name: str,
    game: str,
    system: str,
    params: Mapping[str, Any] | None,
    players: list[str],
    first_dealer: str | None,
    *,
    scoring: str = "money",
    hands_planned: int | None = None,
    opening_pot: int = 0,
) -> TableSession:
    """A new evening; systems with a pot take the first stake from every player (not at a
    tournament table, which scores in points)."""
    rules = Rules.build(game, system, params)
    stored = rules.stored_params()
    players = parse_players(players)
    if first_dealer:
        first_dealer = clean_name(first_dealer, "first_dealer", MAX_NAME)
    ledger = Ledger(
        rules,
        tuple(players),
        first_dealer or (players[0] if players else ""),
        points_only=scoring == "points",
        opening_pot=opening_pot,
    )
    name = clean_name(name, "name", MAX_TABLE_NAME) if (name or "").strip() else "Tarockrunde"
    session = TableSession(
        key=new_key(),
        name=name,
        game=game,
        system=system,
        params=stored,
        players=list(players),
        first_dealer=ledger.first_dealer,
        state=ledger.start().to_json(),
        hand_count=0,
        scoring=scoring,
        hands_planned=hands_planned,
        opening_pot=opening_pot,
    )
    db.session.add(session)
    db.session.flush()
    _history(session, "create", data={"players": list(players), "params": stored})
    return session


def record_hand(
    session: TableSession,
    hand: Hand,
    dealer: str | None = None,
    idempotency_key: str | None = None,
    number: Any = None,
) -> tuple[HandRecord, bool]:
    """Append a hand; returns (record, created). A repeated `idempotency_key` returns the
    hand it first stored; the same key with a different hand is refused. `number`, when
    given, is the number the device showed for the hand: if that hand is stored already
    (another device entered it) nothing is stored (`HandExists`), and a number beyond the
    next is refused."""
    if idempotency_key:
        existing = db.session.scalar(
            select(HandRecord).where(
                HandRecord.session_id == session.id, HandRecord.idempotency_key == idempotency_key
            )
        )
        if existing is not None:
            if existing.facts != hand.to_json() or (dealer and dealer != existing.dealer):
                raise RuleError.one(
                    "Idempotency-Key", msg("was used before for a different hand: use a new key")
                )
            return existing, False
    _require_open(session)
    if session.done:
        raise Conflict(
            msg("all %(count)s hands of this table are entered", count=session.hands_planned)
        )
    if session.hand_count >= MAX_HANDS:
        raise Conflict(
            msg("an evening holds at most %(count)s hands: start a new table", count=MAX_HANDS)
        )
    _check_number(session, number)
    ledger = ledger_for(session)
    number = session.hand_count + 1
    entry, state = ledger.play(LedgerState.from_json(session.state), number, hand, dealer)
    now = utcnow()
    stored = {
        "session_id": session.id,
        "number": number,
        "dealer": entry.dealer,
        "facts": hand.to_json(),
        "idempotency_key": idempotency_key or None,
        "version": 1,
        "voided": False,
        "created_at": now,
        "updated_at": now,
        **_cached(entry, state),
    }
    table = {
        "state": state.to_json(),
        "hand_count": number,
        "declarer_tally": _counted(session.declarer_tally, entry.score.result, hand.declarer),
        **_bumped(session),
    }
    line = _history_line(
        session, "record", number, {"hand": stored["facts"], "dealer": entry.dealer}
    )
    write_hand(db.session.connection(), stored, session.id, table, line)
    for name, value in table.items():  # what the loaded session shows, not changes to flush
        set_committed_value(session, name, value)
    record = HandRecord(**stored)  # what was stored, for the answer; not in the ORM session
    if session.done:
        events.table_done.send(session)
    return record, True


def _check_number(session: TableSession, number: Any) -> None:
    """The number a device entered its hand as is the next one; else the stored hand of
    that number is the conflict, or the number is refused."""
    if number is None:
        return
    following = session.hand_count + 1
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= following:
        raise RuleError.one("number", msg("the next hand is number %(number)s", number=following))
    if number == following:
        return
    stored = db.session.execute(
        select(*(getattr(HandRecord, c) for c in HAND_COLUMNS), HandRecord.voided).where(
            HandRecord.session_id == session.id, HandRecord.number == number
        )
    ).one()
    row = dict(stored._mapping)
    voided = row.pop("voided")
    summary = hand_summary(session.game, row["facts"])
    said = (
        msg(
            "Hand %(number)s was entered on another device already (and struck out since): "
            "%(hand)s",
            number=number,
            hand=summary,
        )
        if voided
        else msg(
            "Hand %(number)s was entered on another device already: %(hand)s",
            number=number,
            hand=summary,
        )
    )
    raise HandExists(said, row, voided, following)


def edit_hand(
    session: TableSession, number: int, version: Any, hand: Hand, dealer: str | None = None
) -> HandRecord:
    """Correct a hand read at `version`; every later hand is settled again."""
    _require_open(session)
    record = _live_hand(session, number, version)
    before = {"hand": record.facts, "dealer": record.dealer}
    record.facts = hand.to_json()
    if dealer:
        record.dealer = dealer
    record.version += 1
    refold(session, number)
    _history(
        session,
        "edit",
        number,
        {"before": before, "after": {"hand": record.facts, "dealer": record.dealer}},
    )
    return record


def void_hand(session: TableSession, number: int, version: Any) -> HandRecord:
    """Take a hand out of the ledger; it stays in the history."""
    _require_open(session)
    record = _live_hand(session, number, version)
    record.voided = True
    record.version += 1
    refold(session, number)
    _history(session, "void", number, {"hand": record.facts, "dealer": record.dealer})
    return record


def import_session(plan: ImportPlan) -> TableSession:
    """An evening from an export under a new key: every hand recorded in order with its
    dealer, a voided hand voided right after it is recorded (so numbers and history match
    and later hands are scored as they were), closed at the end if it was closed."""
    session = create_session(
        plan.name,
        plan.game,
        plan.system,
        plan.params,
        list(plan.players),
        plan.first_dealer,
        scoring=plan.scoring,
        hands_planned=plan.hands_planned,
    )
    replay_hands(session, plan)
    if plan.closed:
        close_session(session)
    return session


def replay_hands(session: TableSession, plan: ImportPlan, upto: int | None = None) -> None:
    """Record an import's hands (and its changes of players) in order, from the first the
    table does not have yet up to hand `upto` (all of them, and a change of players after
    the last, when None)."""
    done = session.hand_count
    changes = [change for change in plan.lineups if change.at > done]
    for imported in plan.hands:
        if imported.number <= done:
            continue
        if upto is not None and imported.number > upto:
            return
        while changes and changes[0].at <= imported.number:
            change = changes.pop(0)
            change_players(session, change.players, change.dealer)
        record, _ = record_hand(session, imported.hand, imported.dealer)
        if imported.voided:
            # The last hand: the refold starts after the hand before it and has nothing
            # after it to fold, so many voided hands cost no more than many recorded ones.
            void_hand(session, record.number, record.version)
    if upto is None:
        for change in changes:  # after the last hand
            change_players(session, change.players, change.dealer)


def close_session(session: TableSession, *, with_round: bool = False) -> None:
    """End the evening. A tournament table is closed only with its round (`with_round`):
    its key is in every player's hand, and a table ended early would end for good."""
    require_closable(session, with_round=with_round)
    session.closed_at = utcnow()
    _changed(session)
    _history(
        session, "close", data={"balances": session.state["balances"], "pot": session.state["pot"]}
    )
    events.table_closed.send(session)


def require_closable(session: TableSession, *, with_round: bool = False) -> None:
    _require_open(session)
    if not with_round and session.points_only and in_tournament(session):
        raise Conflict(msg("a tournament table is closed with its round"))


def in_tournament(session: TableSession) -> bool:
    """Whether the table is one of a tournament round's tables."""
    found = select(TournamentTable.id).where(TournamentTable.session_id == session.id)
    return db.session.scalar(found) is not None


def change_players(
    session: TableSession,
    players: Sequence[str],
    dealer: str | None = None,
    expected_version: Any = None,
) -> None:
    """Players who come and go: from the next hand on, `players` (in dealing order) sit at
    the table, and `dealer` deals (by default the one due, or the next after him who stays).
    Two changes before a hand is played are one change. With `expected_version`, the table
    must not have changed since it was read (the caller holds its lock)."""
    _require_open(session)
    if expected_version is not None and expected_version != session.version:
        raise Conflict(msg("the table was changed on another device since: reload and try again"))
    if session.points_only:
        raise Conflict(msg("at a tournament table the draw decides who plays"))
    players = tuple(parse_players(list(players)))
    if dealer is not None:
        dealer = clean_name(dealer, "dealer", MAX_NAME)
    ledger = ledger_for(session)
    state = LedgerState.from_json(session.state)
    seated = ledger.seated(state)
    if players == seated and dealer in (None, state.next_dealer):
        return
    if dealer is None:
        due = seated.index(state.next_dealer)
        order = seated[due:] + seated[:due]
        dealer = next((p for p in order if p in players), players[0] if players else "")
    at = session.hand_count + 1
    lineups = list(session.lineups or [Lineup(1, ledger.players, ledger.first_dealer).to_json()])
    if len(lineups) > 1 and lineups[-1]["at"] == at:
        lineups.pop()  # changed again before a hand was played
    if len(lineups) == 1 and at == 1:
        lineups = []  # before the first hand: the evening simply starts with these players
    lineups.append(Lineup(at, players, dealer).to_json())
    if at == 1:
        # Nothing played yet: the new lineup is the start (stakes paid by those who sit).
        _restart(session, players, dealer)
        return
    changed = replace(ledger, lineups=tuple(Lineup.from_json(data) for data in lineups[1:]))
    # From the state after the last live hand: the change in effect for the next hand.
    before = _state_before(session, at) if session.hand_count else None
    state = changed.ready(before or changed_fold(session, changed), at)
    session.lineups = lineups
    session.players = list(players)
    session.state = state.to_json()
    _changed(session)
    _history(session, "players", data={"players": list(players), "dealer": dealer, "at": at})


def _restart(session: TableSession, players: tuple[str, ...], dealer: str) -> None:
    """The players of an evening without a hand yet, as if it had begun with them."""
    ledger = replace(ledger_for(session), players=players, first_dealer=dealer)
    session.players = list(players)
    session.first_dealer = dealer
    session.lineups = None
    session.state = ledger.start().to_json()
    _changed(session)
    _history(session, "players", data={"players": list(players), "dealer": dealer, "at": 1})


def changed_fold(session: TableSession, ledger: Ledger) -> LedgerState:
    """The state after every live hand, folded afresh (when no cached state serves)."""
    _, state = ledger.fold((r.number, Hand.from_json(r.facts), r.dealer) for r in hands_of(session))
    return state


def reopen_session(session: TableSession) -> None:
    """Open a closed evening again. A tournament table is closed with its round and stays
    closed."""
    if not session.closed:
        raise Conflict(msg("the evening is not closed"))
    if session.points_only:
        raise Conflict(msg("a tournament table is closed with its round"))
    events.table_reopened.send(session)
    session.closed_at = None
    _changed(session)
    _history(session, "reopen")


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
    return [row._mapping for row in hand_rows(session, HAND_COLUMNS)]


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
        after = {r.number: (r.state_after["balances"], r.state_after["pot"]) for r in live}
    else:
        entries, _ = fold_session(session)
        after = {e.number: (e.balances_after, e.pot_after) for e in entries}
    return (start.balances, start.pot), after


def fold_session(session: TableSession) -> tuple[list[Entry], LedgerState]:
    """A fresh fold of the session's hands, ignoring the cache."""
    records = hands_of(session)
    return ledger_for(session).fold((r.number, Hand.from_json(r.facts), r.dealer) for r in records)


def refold(session: TableSession, from_number: int = 1) -> LedgerState:
    """Fold the live hands from `from_number` on again, starting from the state cached
    after the live hand before it, and rewrite their cache; a RuleError rolls back the
    edit. Hands before `from_number` are neither read nor written."""
    ledger = ledger_for(session)
    state = _state_before(session, from_number) if from_number > 1 else None
    if state is None:
        from_number, state = 1, ledger.start()
    # Only what the fold reads is loaded, and the cache is written with one executemany
    # (an ORM object per hand would cost more than the fold at 2,000 hands).
    later = db.session.execute(
        select(HandRecord.id, HandRecord.number, HandRecord.facts, HandRecord.dealer)
        .where(
            HandRecord.session_id == session.id,
            HandRecord.number >= from_number,
            HandRecord.voided.is_(False),
        )
        .order_by(HandRecord.number)
    ).all()
    cached = []
    for row in later:
        entry, state = ledger.play(state, row.number, Hand.from_json(row.facts), row.dealer)
        cached.append({"hand_id": row.id, **_cached(entry, state)})
    if cached:
        hands = HandRecord.__table__
        write = (
            hands.update()
            .where(hands.c.id == bindparam("hand_id"))
            .values({column: bindparam(column) for column in CLEARED})
        )
        db.session.execute(write, cached)
    db.session.execute(  # a hand struck out has no cache (it is not in the ledger)
        update(HandRecord)
        .where(
            HandRecord.session_id == session.id,
            HandRecord.number >= from_number,
            HandRecord.voided.is_(True),
            HandRecord.state_after.is_not(None),
        )
        .values(**CLEARED)
        .execution_options(synchronize_session=False)
    )
    for record in list(db.session.identity_map.values()):
        if isinstance(record, HandRecord) and record.number >= from_number:
            db.session.expire(record)  # read again from what was just written
    session.state = ledger.ready(state, session.hand_count + 1).to_json()
    session.declarer_tally = _tally(session)
    _changed(session)
    db.session.flush()
    return state


def _counted(
    tally: Mapping[str, Mapping[str, int]], result: str, declarer: str
) -> dict[str, dict[str, int]]:
    """`tally` (see `TableSession.declarer_tally`) with one more hand that ended `result`."""
    counted = {outcome: dict(by_declarer) for outcome, by_declarer in tally.items()}
    by_declarer = counted.setdefault(result, {})
    by_declarer[declarer] = by_declarer.get(declarer, 0) + 1
    return counted


def _tally(session: TableSession) -> dict[str, dict[str, int]]:
    """`TableSession.declarer_tally` counted afresh from the live hands, in the database
    (after a refold has written their results)."""
    declarer = HandRecord.facts["declarer"].as_string()
    rows = db.session.execute(
        select(HandRecord.result, declarer, func.count())
        .where(
            HandRecord.session_id == session.id,
            HandRecord.voided.is_(False),
            HandRecord.result.is_not(None),
        )
        .group_by(HandRecord.result, declarer)
    )
    tally: dict[str, dict[str, int]] = {}
    for result, name, hands in rows:
        tally.setdefault(result, {})[name] = hands
    return tally


def state_before(session: TableSession, number: int) -> LedgerState:
    """The ledger's state just before hand `number` (what an edit of it is played from)."""
    state = _state_before(session, number) if number > 1 else None
    if state is not None:
        return state
    earlier = [r for r in hands_of(session) if r.number < number]
    _, state = ledger_for(session).fold(
        (r.number, Hand.from_json(r.facts), r.dealer) for r in earlier
    )
    return state


def _state_before(session: TableSession, number: int) -> LedgerState | None:
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


def _changed(session: TableSession) -> None:
    """Every write bumps the table's version: exports cached per version go stale."""
    for name, value in _bumped(session).items():
        setattr(session, name, value)


def _bumped(session: TableSession) -> dict[str, Any]:
    """The table's next version and when it was written."""
    return {"version": session.version + 1, "updated_at": utcnow()}


def _cached(entry: Entry, state: LedgerState) -> dict[str, Any]:
    """A live hand's cached columns: what folding it gave."""
    return {
        "state_after": state.to_json(),
        "result": entry.score.result,
        "net": entry.net,
        "explanation": [line.to_json() for line in entry.score.explanation],
        "sitting_out": entry.sitting_out,
        "round": entry.round,
        "new_round": entry.new_round,
        "round_end": entry.round_end,
        "pot_after": entry.pot_after,
        "factor": entry.factor,
    }


CLEARED: dict[str, Any] = {
    "state_after": None,
    "result": None,
    "net": None,
    "explanation": None,
    "sitting_out": None,
    "round": None,
    "pot_after": None,
    "new_round": False,
    "round_end": False,
    "factor": 1,
}
"""The cached columns of a hand struck out."""


def _live_hand(session: TableSession, number: int, version: Any) -> HandRecord:
    record = db.session.scalar(
        select(HandRecord).where(HandRecord.session_id == session.id, HandRecord.number == number)
    )
    if record is None:
        raise NotFound(no_such_hand(number))
    if isinstance(version, bool) or not isinstance(version, int):
        raise RuleError.one("version", msg("the version the hand was read at is needed"))
    if record.voided and version < record.version:
        raise Conflict(
            msg("hand %(number)s was struck out by someone else since: reload", number=number)
        )
    if record.voided:
        raise NotFound(no_such_hand(number))
    if version != record.version:
        raise Conflict(
            msg(
                "hand %(number)s was changed by someone else since: reload and try again",
                number=number,
            )
        )
    return record


def _require_open(session: TableSession) -> None:
    if session.closed:
        raise Conflict(msg("the evening is closed: no more changes"))


def _history(
    session: TableSession,
    action: str,
    number: int | None = None,
    data: dict[str, Any] | None = None,
) -> None:
    """One line of the table's history, written at once as a plain INSERT on the
    transaction's connection: nothing reads it back, and the ORM's unit of work cost
    recording a hand a fifth of its time."""
    db.session.connection().execute(
        insert(HistoryEvent.__table__), _history_line(session, action, number, data)
    )


def _history_line(
    session: TableSession,
    action: str,
    number: int | None = None,
    data: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The columns of one line of the table's history."""
    return {
        "session_id": session.id,
        "hand_number": number,
        "action": action,
        "data": data or {},
        "at": utcnow(),
    }


def settlement(session: TableSession) -> Settlement:
    """The settle-up of the session as it stands (`Ledger.settle_up`)."""
    return ledger_for(session).settle_up(LedgerState.from_json(session.state))
