"""tournament: hands_per_round is renamed deals_per_player (what it always held)

Revision ID: 7c1d2e3f4a5b
Revises: 621c6b5166f8
Create Date: 2026-12-03 11:00:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '7c1d2e3f4a5b'
down_revision = '621c6b5166f8'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.alter_column('hands_per_round', new_column_name='deals_per_player')


def downgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.alter_column('deals_per_player', new_column_name='hands_per_round')
