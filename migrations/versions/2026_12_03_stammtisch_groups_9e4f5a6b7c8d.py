"""Stammtisch groups: the group, its history, and its evenings' season and carried Haferl

Revision ID: 9e4f5a6b7c8d
Revises: 8d2e3f4a5b6c
Create Date: 2026-12-03 15:00:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = '9e4f5a6b7c8d'
down_revision = '8d2e3f4a5b6c'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'stammtisch_group',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('game', sa.String(length=40), nullable=False),
        sa.Column('system', sa.String(length=40), nullable=False),
        sa.Column('params', sa.JSON(), nullable=False),
        sa.Column('members', sa.JSON(), nullable=False),
        sa.Column('carry_pot', sa.Boolean(), nullable=False),
        sa.Column('settle', sa.String(length=16), nullable=False),
        sa.Column('share_by', sa.String(length=16), nullable=False),
        sa.Column('pot_cents', sa.Integer(), nullable=False),
        sa.Column('season', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('stammtisch_group', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_stammtisch_group_key'), ['key'], unique=True)
    op.create_table(
        'group_event',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('season', sa.Integer(), nullable=False),
        sa.Column('action', sa.String(length=16), nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['stammtisch_group.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('group_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_event_group_id'), ['group_id'], unique=False)
    with op.batch_alter_table('table_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('season', sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column('opening_pot', sa.Integer(), server_default='0', nullable=False)
        )
        batch_op.add_column(sa.Column('paid_at', sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f('ix_table_session_group_id'), ['group_id'], unique=False)
        batch_op.create_foreign_key(
            'fk_table_session_group_id', 'stammtisch_group', ['group_id'], ['id']
        )


def downgrade():
    with op.batch_alter_table('table_session', schema=None) as batch_op:
        batch_op.drop_constraint('fk_table_session_group_id', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_table_session_group_id'))
        batch_op.drop_column('paid_at')
        batch_op.drop_column('opening_pot')
        batch_op.drop_column('season')
        batch_op.drop_column('group_id')
    with op.batch_alter_table('group_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_group_event_group_id'))
    op.drop_table('group_event')
    with op.batch_alter_table('stammtisch_group', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_stammtisch_group_key'))
    op.drop_table('stammtisch_group')
