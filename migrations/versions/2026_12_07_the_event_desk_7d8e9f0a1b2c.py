"""The event: registration, check-in at the door, entry fees, prizes and seating modes

- tournament: check_in, registration_open, cap, desk_code, missed_round_points,
  entry_fee_cents, prize_plan. A tournament stored so far has no desk (its players were
  all present from the start), no fee and no prizes.
- tournament_player: club, checked_in (true for every player stored so far), waiting,
  fee ("unpaid": with no fee nothing is owed), fixed_table
- tournament_round: seating ("random", as every round so far was drawn), keep_apart,
  clubs_together
- charity_gift: the charity pot's entries

Revision ID: 7d8e9f0a1b2c
Revises: 6b7c8d9e0f1a
Create Date: 2026-12-07 01:30:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '7d8e9f0a1b2c'
down_revision = '6b7c8d9e0f1a'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament') as batch:
        batch.add_column(sa.Column('check_in', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column('registration_open', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column('cap', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('desk_code', sa.String(length=8), nullable=True))
        batch.add_column(sa.Column('missed_round_points', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('entry_fee_cents', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('prize_plan', sa.JSON(), nullable=False, server_default='{}'))
    with op.batch_alter_table('tournament_player') as batch:
        batch.add_column(sa.Column('club', sa.String(length=60), nullable=True))
        batch.add_column(sa.Column('checked_in', sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column('waiting', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column('fee', sa.String(length=8), nullable=False, server_default='unpaid'))
        batch.add_column(sa.Column('fixed_table', sa.Integer(), nullable=True))
    with op.batch_alter_table('tournament_round') as batch:
        batch.add_column(sa.Column('seating', sa.String(length=16), nullable=False, server_default='random'))
        batch.add_column(sa.Column('keep_apart', sa.String(length=16), nullable=True))
        batch.add_column(sa.Column('clubs_together', sa.JSON(), nullable=False, server_default='[]'))
    op.create_table(
        'charity_gift',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('giver', sa.String(length=40), nullable=False),
        sa.Column('cents', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(
        op.f('ix_charity_gift_tournament_id'), 'charity_gift', ['tournament_id'], unique=False
    )


def downgrade():
    op.drop_index(op.f('ix_charity_gift_tournament_id'), table_name='charity_gift')
    op.drop_table('charity_gift')
    with op.batch_alter_table('tournament_round') as batch:
        batch.drop_column('clubs_together')
        batch.drop_column('keep_apart')
        batch.drop_column('seating')
    with op.batch_alter_table('tournament_player') as batch:
        for column in ('fixed_table', 'fee', 'waiting', 'checked_in', 'club'):
            batch.drop_column(column)
    with op.batch_alter_table('tournament') as batch:
        for column in ('prize_plan', 'entry_fee_cents', 'missed_round_points', 'desk_code',
                       'cap', 'registration_open', 'check_in'):
            batch.drop_column(column)
