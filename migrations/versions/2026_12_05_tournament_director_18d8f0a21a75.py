"""Tournament director: adjustments, the tournament's log, its end and its tie-breaks

- tournament.finished_at: when the results became final (nothing changes them after)
- tournament.tie_breaks: the order in which equal totals are decided (after the total),
  chosen when the tournament is made; every tournament so far ranks as before (wins as
  declarer, then the last round's score)
- tournament_adjustment: a director's points for or against a player, with a reason;
  taken back is kept (taken_back_at), as the log keeps it
- tournament_log: draws, swaps, withdrawals, round closes, corrections, adjustments and
  the finish, each with when and by whom

Revision ID: 18d8f0a21a75
Revises: 35d74af2d862
Create Date: 2026-12-05 17:15:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '18d8f0a21a75'
down_revision = '35d74af2d862'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament') as batch:
        batch.add_column(sa.Column('finished_at', sa.DateTime(), nullable=True))
        batch.add_column(
            sa.Column(
                'tie_breaks',
                sa.JSON(),
                server_default='["wins", "last_round"]',
                nullable=False,
            )
        )
    op.create_table(
        'tournament_adjustment',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('player', sa.String(length=40), nullable=False),
        sa.Column('points', sa.Integer(), nullable=False),
        sa.Column('reason', sa.String(length=200), nullable=False),
        sa.Column('by', sa.String(length=80), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('taken_back_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(
        op.f('ix_tournament_adjustment_tournament_id'),
        'tournament_adjustment',
        ['tournament_id'],
        unique=False,
    )
    op.create_table(
        'tournament_log',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('by', sa.String(length=80), nullable=False),
        sa.Column('action', sa.String(length=16), nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(
        op.f('ix_tournament_log_tournament_id'), 'tournament_log', ['tournament_id'], unique=False
    )


def downgrade():
    op.drop_index(op.f('ix_tournament_log_tournament_id'), table_name='tournament_log')
    op.drop_table('tournament_log')
    op.drop_index(
        op.f('ix_tournament_adjustment_tournament_id'), table_name='tournament_adjustment'
    )
    op.drop_table('tournament_adjustment')
    with op.batch_alter_table('tournament') as batch:
        batch.drop_column('tie_breaks')
        batch.drop_column('finished_at')
