"""The cache of a table's fold, which only the table's writes (`scorer.services.tables`)
keep: each live hand's result and the state after it, the table's state, tally and
version, always equal to a fresh fold of the stored hands (`table_reads.fold_session`).

Recording a hand continues from the cached state after the last hand; an edit, a void or
a rename folds the evening again from the changed hand on (`refold`), starting from the
state cached after the hand before it. A hand struck out has no cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, func, select, update

from scorer.domain import Hand
from scorer.domain.ledger import Entry, LedgerState
from scorer.services.table_reads import cached_state_before, ledger_for
from scorer.store.database import db
from scorer.store.models import HandRecord, TableSession, utcnow

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


def refold(session: TableSession, from_number: int = 1) -> LedgerState:
    """Fold the live hands from `from_number` on again, starting from the state cached
    after the live hand before it, and rewrite their cache; a RuleError rolls back the
    edit. Hands before `from_number` are neither read nor written."""
    ledger = ledger_for(session)
    state = cached_state_before(session, from_number) if from_number > 1 else None
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
        entry, state = ledger.play(state, row.number, Hand.from_json(row.facts), dealer=row.dealer)
        cached.append({"hand_id": row.id, **cached_columns(entry, state)})
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
    session.declarer_tally = tally_afresh(session)
    bump_version(session)
    db.session.flush()
    return state


def counted(
    tally: Mapping[str, Mapping[str, int]], result: str, declarer: str
) -> dict[str, dict[str, int]]:
    """`tally` (see `TableSession.declarer_tally`) with one more hand that ended `result`."""
    counted = {outcome: dict(by_declarer) for outcome, by_declarer in tally.items()}
    by_declarer = counted.setdefault(result, {})
    by_declarer[declarer] = by_declarer.get(declarer, 0) + 1
    return counted


def tally_afresh(session: TableSession) -> dict[str, dict[str, int]]:
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


def bump_version(session: TableSession) -> None:
    """Every write bumps the table's version: exports cached per version go stale."""
    for name, value in bumped(session).items():
        setattr(session, name, value)


def bumped(session: TableSession) -> dict[str, Any]:
    """The table's next version and when it was written."""
    return {"version": session.version + 1, "updated_at": utcnow()}


def cached_columns(entry: Entry, state: LedgerState) -> dict[str, Any]:
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
