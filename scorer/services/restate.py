"""Explanation lines stored before the engine's messages became data (plain English text)
are restated once, when the server starts: each table with such a hand is folded again,
under its write lock, so every line is stored as a message the reader's language can say.
"""

from __future__ import annotations

import logging

from sqlalchemy import String, cast, select

from scorer.services import table_ledger
from scorer.store import table_rows
from scorer.store.database import db
from scorer.store.models import HandRecord, TableSession

log = logging.getLogger(__name__)


def tables_with_old_lines() -> list[str]:
    """The keys of the tables that have a hand whose explanation is still plain text."""
    old = cast(HandRecord.explanation, String).like('%"text":%')
    return list(
        db.session.scalars(
            select(TableSession.key)
            .where(TableSession.id.in_(select(HandRecord.session_id).where(old)))
            .order_by(TableSession.id)
        )
    )


def restate_old_explanations() -> int:
    """Fold again every table with plain-text explanation lines; returns how many were
    restated. A table that cannot be folded again (a hand a later rule refuses) keeps its
    lines, which are shown as they were stored, and is named in the log."""
    keys = tables_with_old_lines()
    db.session.rollback()
    done = 0
    for key in keys:
        try:
            session = table_rows.session_for_write(key)
            table_ledger.refold(session, 1)
            db.session.commit()
            done += 1
        except Exception:
            db.session.rollback()
            log.exception("table %s: explanation lines left as stored", key)
    if keys:
        log.info("explanation lines restated at %s of %s tables", done, len(keys))
    return done
