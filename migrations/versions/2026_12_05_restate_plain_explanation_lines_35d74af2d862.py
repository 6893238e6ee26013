"""Explanation lines stored as plain English text become messages, once

Hands recorded before the engine's messages became data (2026-12) stored each explanation
line as `{"text": "…"}`, which only English can say. Each table with such a hand is folded
again with the rules engine, and every live hand's explanation is stored as the messages
the fold gives, which the reader's language says. Nothing else is rewritten (the amounts,
results and states the fold gives are the ones stored). A table the rules refuse to fold
again (a hand a later rule refuses) keeps its lines as stored, and is named in the log.

This reads and writes the two tables with explicit columns (no ORM models), so it runs on
the schema of its own revision whatever the models become later. It used to run at every
start of the server (scorer/restate.py, a LIKE over every hand).

Revision ID: 35d74af2d862
Revises: a1b2c3d4e5f6
Create Date: 2026-12-05 17:10:00.000000

"""
import logging

import sqlalchemy as sa
from alembic import op

from scorer.domain import Hand, RuleError
from scorer.domain.ledger import Ledger, Lineup
from scorer.domain.scoring import Rules

# revision identifiers, used by Alembic.
revision = '35d74af2d862'
down_revision = 'a1b2c3d4e5f6'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")

table_session = sa.table(
    'table_session',
    sa.column('id', sa.Integer),
    sa.column('game', sa.String),
    sa.column('system', sa.String),
    sa.column('params', sa.JSON),
    sa.column('players', sa.JSON),
    sa.column('first_dealer', sa.String),
    sa.column('scoring', sa.String),
    sa.column('lineups', sa.JSON),
    sa.column('opening_pot', sa.Integer),
)
hand = sa.table(
    'hand',
    sa.column('id', sa.Integer),
    sa.column('session_id', sa.Integer),
    sa.column('number', sa.Integer),
    sa.column('dealer', sa.String),
    sa.column('facts', sa.JSON),
    sa.column('voided', sa.Boolean),
    sa.column('explanation', sa.JSON),
)


def upgrade():
    bind = op.get_bind()
    plain = sa.cast(hand.c.explanation, sa.String).like('%"text":%')
    tables = bind.execute(
        sa.select(table_session)
        .where(table_session.c.id.in_(sa.select(hand.c.session_id).where(plain)))
        .order_by(table_session.c.id)
    ).all()
    restated = 0
    for table in tables:
        try:
            lines = _explanations(bind, table)
        except (RuleError, ValueError, KeyError, TypeError):
            log.warning("table %s: explanation lines left as stored", table.id, exc_info=True)
            continue
        if lines:
            bind.execute(
                hand.update()
                .where(hand.c.id == sa.bindparam('hand_id'))
                .values(explanation=sa.bindparam('lines')),
                [{'hand_id': hand_id, 'lines': said} for hand_id, said in lines.items()],
            )
        restated += 1
    if tables:
        log.info("explanation lines restated at %s of %s tables", restated, len(tables))


def _explanations(bind, table) -> dict[int, list]:
    """Each live hand's explanation as the fold of the table's hands gives it."""
    lineups = [Lineup.from_json(data) for data in table.lineups or ()]
    start = lineups.pop(0).players if lineups else tuple(table.players)
    ledger = Ledger(
        Rules.build(table.game, table.system, table.params),
        start,
        table.first_dealer,
        points_only=table.scoring == 'points',
        lineups=tuple(lineups),
        opening_pot=table.opening_pot or 0,
    )
    state = ledger.start()
    lines = {}
    live = bind.execute(
        sa.select(hand.c.id, hand.c.number, hand.c.dealer, hand.c.facts)
        .where(hand.c.session_id == table.id, hand.c.voided.is_(False))
        .order_by(hand.c.number)
    )
    for row in live:
        entry, state = ledger.play(state, row.number, Hand.from_json(row.facts), dealer=row.dealer)
        lines[row.id] = [line.to_json() for line in entry.score.explanation]
    return lines


def downgrade():
    # Not undone: the plain text is not kept, and the revisions before this one read the
    # lines as messages too (only the releases before 2026-12 wrote plain text).
    pass
