"""A table's writes (its aggregate): open a table, record, edit, void and undo hands,
change or rename its players, import an evening, close and reopen it. They `flush`; the
request commits once, and a failure rolls back all. What a table is read as lies in
`scorer.services.table_reads`; the cache of its fold, which only these writes keep, in
`scorer.services.table_cache`.

Every operation that changes a table runs on a session loaded with `session_for_write`,
which holds the table's lock until the request commits: two devices' writes happen one
after the other, and what an operation checks (the version, the next number, an
Idempotency-Key) cannot change before it writes.

Recording a hand continues the ledger from the cached state after the last hand; an edit
or a void folds the evening again from the changed hand on, starting from the state
cached after the hand before it (`refold`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select
from sqlalchemy.orm.attributes import set_committed_value

from scorer.domain import Hand, RuleError, commands
from scorer.domain.commands import ChangePlayers, EditHand, OpenTable, RecordHand, VoidHand
from scorer.domain.ledger import Ledger, LedgerState, Lineup
from scorer.domain.limits import MAX_EVENING_HANDS
from scorer.domain.message import msg
from scorer.services import director, policies
from scorer.services.hand_numbers import check_not_entered_since, check_number
from scorer.services.table_cache import bump_version, bumped, cached_columns, counted, refold
from scorer.services.table_reads import cached_state_before, hands_of, ledger_for, no_such_hand
from scorer.store.database import db, unit_of_work
from scorer.store.errors import Conflict, LaterHandExists, NotFound
from scorer.store.hand_writes import write_hand
from scorer.store.models import (
    HandRecord,
    HistoryEvent,
    Organiser,
    TableSession,
    TournamentTable,
    utcnow,
)
from scorer.store.table_codes import unused_code
from scorer.store.table_rows import new_key

if TYPE_CHECKING:
    from scorer.formats.evening import ImportPlan


@unit_of_work
def create_session(command: OpenTable) -> TableSession:
    """A new evening; systems with a pot take the first stake from every player (not at a
    tournament table, which scores in points)."""
    rules, players = command.rules, command.players
    stored = rules.stored_params()
    ledger = Ledger(
        rules,
        players,
        command.first_dealer or (players[0] if players else ""),
        points_only=command.scoring == "points",
        opening_pot=command.opening_pot,
    )
    session = TableSession(
        key=new_key(),
        short_code=unused_code(),
        name=command.name,
        game=rules.game.id,
        system=rules.system.id,
        params=stored,
        players=list(players),
        first_dealer=ledger.first_dealer,
        state=ledger.start().to_json(),
        hand_count=0,
        scoring=command.scoring,
        hands_planned=command.hands_planned,
        opening_pot=command.opening_pot,
    )
    db.session.add(session)
    db.session.flush()
    _history(session, "create", data={"players": list(players), "params": stored})
    return session


@unit_of_work
def record_hand(session: TableSession, command: RecordHand) -> tuple[HandRecord, bool]:
    """Append the command's hand; returns (record, created). A repeated idempotency key
    returns the hand it first stored; the same key with a different hand is refused. The
    command's `number`, when given, is the number the device showed for the hand: if that
    hand is stored already (another device entered it) nothing is stored (`HandExists`),
    and a number beyond the next is refused. `begun`: the number the hand was begun as, when
    the device's form moved on since (see `hand_numbers.check_not_entered_since`)."""
    hand, dealer, idempotency_key = command.hand, command.dealer, command.idempotency_key
    existing = _sent_before(session, command)
    if existing is not None:
        return existing, False
    _require_room(session)
    check_number(session, command.number)
    check_not_entered_since(session, hand, command.begun, number=command.number)
    ledger = ledger_for(session)
    number = session.hand_count + 1
    entry, state = ledger.play(LedgerState.from_json(session.state), number, hand, dealer=dealer)
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
        **cached_columns(entry, state),
    }
    table = {
        "state": state.to_json(),
        "hand_count": number,
        "declarer_tally": counted(session.declarer_tally, entry.score.result, hand.declarer),
        **bumped(session),
    }
    line = _history_line(
        session, "record", number, data={"hand": stored["facts"], "dealer": entry.dealer}
    )
    write_hand(db.session.connection(), stored, session.id, table=table, event=line)
    for name, value in table.items():  # what the loaded session shows, not changes to flush
        set_committed_value(session, name, value)
    record = HandRecord(**stored)  # what was stored, for the answer; not in the ORM session
    return record, True


def _sent_before(session: TableSession, command: RecordHand) -> HandRecord | None:
    """The hand stored with the command's Idempotency-Key (a retry), or None; the same key
    with a different hand is refused."""
    if not command.idempotency_key:
        return None
    existing = db.session.scalar(
        select(HandRecord).where(
            HandRecord.session_id == session.id,
            HandRecord.idempotency_key == command.idempotency_key,
        )
    )
    if existing is not None:
        dealer = command.dealer
        if existing.facts != command.hand.to_json() or (dealer and dealer != existing.dealer):
            raise RuleError.one(
                "Idempotency-Key", msg("was used before for a different hand: use a new key")
            )
    return existing


def _require_room(session: TableSession) -> None:
    """An open table with a hand still to play: not closed, not all its planned hands
    entered, not at the most hands an evening holds."""
    _require_open(session)
    if session.done:
        raise Conflict(
            msg("all %(count)s hands of this table are entered", count=session.hands_planned)
        )
    if session.hand_count >= MAX_EVENING_HANDS:
        raise Conflict(
            msg(
                "an evening holds at most %(count)s hands: start a new table",
                count=MAX_EVENING_HANDS,
            )
        )


@unit_of_work
def edit_hand(
    session: TableSession, command: EditHand, *, by: Organiser | None = None
) -> HandRecord:
    """Correct the command's hand, read at its version; every later hand is settled again.
    `by`: the organiser who corrects it (a tournament's table after its round closed), else
    None."""
    _require_correctable(session, by)
    number = command.number
    record = _live_hand(session, number, command.version)
    before = {"hand": record.facts, "dealer": record.dealer}
    record.facts = command.hand.to_json()
    if command.dealer:
        record.dealer = command.dealer
    record.version += 1
    refold(session, number)
    after = {"hand": record.facts, "dealer": record.dealer}
    _history(session, "edit", number, data={"before": before, "after": after})
    director.log_correction(session, number, before, after=after, by=by)
    return record


@unit_of_work
def void_hand(
    session: TableSession, command: VoidHand, *, by: Organiser | None = None
) -> HandRecord:
    """Take the command's hand out of the ledger; it stays in the history. `by` as for
    `edit_hand`."""
    _require_correctable(session, by)
    number = command.number
    record = _live_hand(session, number, command.version)
    record.voided = True
    record.version += 1
    refold(session, number)
    before = {"hand": record.facts, "dealer": record.dealer}
    _history(session, "void", number, data=before)
    director.log_correction(session, number, before, after=None, by=by)
    return record


@unit_of_work
def undo_hand(
    session: TableSession, command: VoidHand, *, by: Organiser | None = None
) -> HandRecord:
    """Undo on the table page: strike the command's hand (read at its version) so that it goes back
    into the form, but only while it is the latest live hand. When another device entered a
    later hand meanwhile, `LaterHandExists` and nothing is struck: the hand is corrected in
    its own form instead, and the dealer and who sits out stay those of the real table."""
    number = command.number
    later = db.session.scalar(
        select(HandRecord.number)
        .where(
            HandRecord.session_id == session.id,
            HandRecord.number > number,
            HandRecord.voided.is_(False),
        )
        .order_by(HandRecord.number.desc())
        .limit(1)
    )
    if later is not None:
        said = msg(
            "Hand %(later)s is entered already: correct hand %(number)s in its form?",
            later=later,
            number=number,
        )
        raise LaterHandExists(said, number, later)
    return void_hand(session, command, by=by)


def _require_correctable(session: TableSession, by: Organiser | None) -> None:
    """A stored hand may be corrected at an open table, and at a closed one where the policy
    allows it (a tournament's organiser after the round closed); the policy may refuse it
    anywhere (a finished tournament)."""
    if not policies.may_correct(session, by):
        _require_open(session)


@unit_of_work
def import_session(plan: ImportPlan) -> TableSession:
    """An evening from an export under a new key: every hand recorded in order with its
    dealer, a voided hand voided right after it is recorded (so numbers and history match
    and later hands are scored as they were), closed at the end if it was closed."""
    session = create_session(
        commands.open_table(
            name=plan.name,
            game=plan.game,
            system=plan.system,
            params=plan.params,
            players=list(plan.players),
            first_dealer=plan.first_dealer,
            scoring=plan.scoring,
            hands_planned=plan.hands_planned,
        )
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
            change_players(session, commands.change_players(change.players, dealer=change.dealer))
        record, _ = record_hand(session, RecordHand(imported.hand, dealer=imported.dealer))
        if imported.voided:
            # The last hand: the refold starts after the hand before it and has nothing
            # after it to fold, so many voided hands cost no more than many recorded ones.
            void_hand(session, VoidHand(record.number, record.version))
    if upto is None:
        for change in changes:  # after the last hand
            change_players(session, commands.change_players(change.players, dealer=change.dealer))


@unit_of_work
def close_session(session: TableSession, *, with_round: bool = False) -> None:
    """End the evening. A tournament table is closed only with its round (`with_round`):
    its key is in every player's hand, and a table ended early would end for good."""
    require_closable(session, with_round=with_round)
    session.closed_at = utcnow()
    bump_version(session)
    _history(
        session, "close", data={"balances": session.state["balances"], "pot": session.state["pot"]}
    )


def require_closable(session: TableSession, *, with_round: bool = False) -> None:
    _require_open(session)
    if not with_round and session.points_only and in_tournament(session):
        raise Conflict(msg("a tournament table is closed with its round"))


def require_reopenable(session: TableSession) -> None:
    """Only a closed evening opens again; a tournament table is closed with its round and
    stays closed."""
    if not session.closed:
        raise Conflict(msg("the evening is not closed"))
    if session.points_only:
        raise Conflict(msg("a tournament table is closed with its round"))


def in_tournament(session: TableSession) -> bool:
    """Whether the table is one of a tournament round's tables."""
    found = select(TournamentTable.id).where(TournamentTable.session_id == session.id)
    return db.session.scalar(found) is not None


@unit_of_work
def change_players(session: TableSession, command: ChangePlayers) -> None:
    """Players who come and go (`ChangePlayers`). Two changes before a hand is played are
    one change. With the command's `version`, the table must not have changed since it
    was read (the caller holds its lock)."""
    _require_open(session)
    if command.version is not None and command.version != session.version:
        raise Conflict(msg("the table was changed on another device since: reload and try again"))
    if session.points_only:
        raise Conflict(msg("at a tournament table the draw decides who plays"))
    players, dealer = command.players, command.dealer
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
    before = cached_state_before(session, at) if session.hand_count else None
    state = changed.ready(before or changed_fold(session, changed), at)
    session.lineups = lineups
    session.players = list(players)
    session.state = state.to_json()
    bump_version(session)
    _history(session, "players", data={"players": list(players), "dealer": dealer, "at": at})


def _restart(session: TableSession, players: tuple[str, ...], dealer: str) -> None:
    """The players of an evening without a hand yet, as if it had begun with them."""
    ledger = replace(ledger_for(session), players=players, first_dealer=dealer)
    session.players = list(players)
    session.first_dealer = dealer
    session.lineups = None
    session.state = ledger.start().to_json()
    bump_version(session)
    _history(session, "players", data={"players": list(players), "dealer": dealer, "at": 1})


def rename_in_evening(session: TableSession, old: str, new: str) -> None:
    """A member's new name (`scorer.services.groups`) wherever the evening names him:
    its players, dealers and lineups, every hand's declarer and dealer, and the fold."""

    def swap(name: str) -> str:
        return new if name == old else name

    if old not in ledger_for(session).everyone:
        return
    session.players = [swap(p) for p in session.players]
    session.first_dealer = swap(session.first_dealer)
    if session.lineups:
        session.lineups = [
            {**lu, "players": [swap(p) for p in lu["players"]], "dealer": swap(lu["dealer"])}
            for lu in session.lineups
        ]
    for record in hands_of(session, include_voided=True):
        record.facts = {**record.facts, "declarer": swap(record.facts["declarer"])}
        record.dealer = swap(record.dealer)
    refold(session, 1)


def changed_fold(session: TableSession, ledger: Ledger) -> LedgerState:
    """The state after every live hand, folded afresh (when no cached state serves)."""
    _, state = ledger.fold((r.number, Hand.from_json(r.facts), r.dealer) for r in hands_of(session))
    return state


@unit_of_work
def reopen_session(session: TableSession) -> None:
    """Open a closed evening again (`require_reopenable`)."""
    require_reopenable(session)
    session.closed_at = None
    bump_version(session)
    _history(session, "reopen")


def _live_hand(session: TableSession, number: int, version: int) -> HandRecord:
    record = db.session.scalar(
        select(HandRecord).where(HandRecord.session_id == session.id, HandRecord.number == number)
    )
    if record is None:
        raise NotFound(no_such_hand(number))
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
    *,
    data: dict[str, Any] | None = None,
) -> None:
    """One line of the table's history, written at once as a plain INSERT on the
    transaction's connection: nothing reads it back, and the ORM's unit of work cost
    recording a hand a fifth of its time."""
    db.session.connection().execute(
        insert(HistoryEvent.__table__), _history_line(session, action, number, data=data)
    )


def _history_line(
    session: TableSession,
    action: str,
    number: int | None = None,
    *,
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
