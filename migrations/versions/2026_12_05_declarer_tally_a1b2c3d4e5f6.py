"""table_session.declarer_tally: how the live hands ended, per declarer, kept with the state

Counted here once from the stored hands (a live hand's cached `result` and its declarer);
from then on every write to a table keeps it. Adding a column with a default needs no
batch copy of the table on SQLite.

Revision ID: a1b2c3d4e5f6
Revises: 9e4f5a6b7c8d
Create Date: 2026-12-05 04:30:00.000000

"""
from collections import defaultdict

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'a1b2c3d4e5f6'
down_revision = '9e4f5a6b7c8d'
branch_labels = None
depends_on = None

hand = sa.table(
    'hand',
    sa.column('session_id', sa.Integer),
    sa.column('result', sa.String),
    sa.column('facts', sa.JSON),
    sa.column('voided', sa.Boolean),
)
table_session = sa.table(
    'table_session', sa.column('id', sa.Integer), sa.column('declarer_tally', sa.JSON)
)


def upgrade():
    op.add_column(
        'table_session',
        sa.Column('declarer_tally', sa.JSON(), server_default='{}', nullable=False),
    )
    connection = op.get_bind()
    tallies = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    live = connection.execute(
        sa.select(hand.c.session_id, hand.c.result, hand.c.facts).where(
            hand.c.voided.is_(False), hand.c.result.is_not(None)
        )
    )
    for session_id, result, facts in live:
        tallies[session_id][result][facts['declarer']] += 1
    if tallies:
        connection.execute(
            table_session.update()
            .where(table_session.c.id == sa.bindparam('session'))
            .values(declarer_tally=sa.bindparam('tally')),
            [
                {'session': session_id, 'tally': {r: dict(d) for r, d in tally.items()}}
                for session_id, tally in tallies.items()
            ],
        )


def downgrade():
    # A plain DROP COLUMN (SQLite 3.35 and later): a batch copy of table_session would
    # drop a table that others reference.
    op.drop_column('table_session', 'declarer_tally')
