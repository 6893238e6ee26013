"""table: players who come and go (the lineups of an evening)

Revision ID: 8d2e3f4a5b6c
Revises: 7c1d2e3f4a5b
Create Date: 2026-12-03 14:10:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = '8d2e3f4a5b6c'
down_revision = '7c1d2e3f4a5b'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('table_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('lineups', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('table_session', schema=None) as batch_op:
        batch_op.drop_column('lineups')
