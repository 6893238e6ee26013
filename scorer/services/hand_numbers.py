"""Which number a device's hand takes: the one the device showed for it, when that is the
next; else the hand stored under it is the conflict (`HandExists`), and so is the very hand
a moved form brings again. Run by `tables.record_hand` inside the table's lock.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from scorer.domain import Hand, RuleError
from scorer.domain.message import msg
from scorer.services.table_reads import HAND_COLUMNS, hand_summary
from scorer.store.database import db
from scorer.store.errors import HandExists
from scorer.store.models import HandRecord, TableSession


def check_number(session: TableSession, number: int | None) -> None:
    """The number a device entered its hand as is the next one; else the stored hand of
    that number is the conflict, or the number is refused."""
    if number is None:
        return
    following = session.hand_count + 1
    if not 1 <= number <= following:
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
    raise stored_first(session, row, voided)


SINCE_AT_MOST = 12
"""How many hands back a moved form's hand is compared with those entered since."""


def check_not_entered_since(
    session: TableSession, hand: Hand, begun: int | None, *, number: int | None
) -> None:
    """A hand begun as `begun` on a device whose half-entered form moved on to `number`
    because another device's hand came in live: when the hand stored as `begun` is this
    very hand (both devices entered it), it is the conflict; entered twice, it would be
    stored twice. Only that hand: a later one that looks the same (two Bettel in a row) is
    another hand. The conflict still lets the player enter his as the next one."""
    if begun is None or number is None:
        return
    if not max(1, number - SINCE_AT_MOST) <= begun < number:
        return
    stored = db.session.execute(
        select(*(getattr(HandRecord, c) for c in HAND_COLUMNS)).where(
            HandRecord.session_id == session.id,
            HandRecord.number == begun,
            HandRecord.voided.is_(False),
        )
    ).first()
    if stored is not None and stored.facts == hand.to_json():
        raise stored_first(session, dict(stored._mapping), voided=False)


def stored_first(session: TableSession, row: dict[str, Any], voided: bool) -> HandExists:
    """The conflict of a hand whose number another device entered first: stored `row`."""
    number, following = row["number"], session.hand_count + 1
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
    return HandExists(said, row, voided, next_number=following)
