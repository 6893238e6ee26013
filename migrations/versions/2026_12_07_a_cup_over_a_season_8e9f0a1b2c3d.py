"""A cup over a season: the series, and the tournaments that are part of one

- series: an organiser's cup (cup points by place, best N, tie-breaks, the final's carry,
  the log of renamed and merged names)
- tournament.series_id, tournament.final: a tournament stored so far is part of no series
- tournament_player.carried: the points a final's player starts with (0 for everyone so far)

Revision ID: 8e9f0a1b2c3d
Revises: 7d8e9f0a1b2c
Create Date: 2026-12-07 02:05:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '8e9f0a1b2c3d'
down_revision = '7d8e9f0a1b2c'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'series',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('organiser_id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('cup_points', sa.JSON(), nullable=False),
        sa.Column('best_of', sa.Integer(), nullable=True),
        sa.Column('final_carry', sa.JSON(), nullable=True),
        sa.Column('tie_breaks', sa.JSON(), nullable=False),
        sa.Column('names', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['organiser_id'], ['organiser.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(op.f('ix_series_key'), 'series', ['key'], unique=True)
    op.create_index(op.f('ix_series_organiser_id'), 'series', ['organiser_id'], unique=False)
    with op.batch_alter_table('tournament') as batch:
        batch.add_column(sa.Column('series_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('final', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.create_index(batch.f('ix_tournament_series_id'), ['series_id'], unique=False)
        batch.create_foreign_key('fk_tournament_series_id_series', 'series', ['series_id'], ['id'])
    with op.batch_alter_table('tournament_player') as batch:
        batch.add_column(sa.Column('carried', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('tournament_player') as batch:
        batch.drop_column('carried')
    with op.batch_alter_table('tournament') as batch:
        batch.drop_constraint('fk_tournament_series_id_series', type_='foreignkey')
        batch.drop_index(batch.f('ix_tournament_series_id'))
        batch.drop_column('final')
        batch.drop_column('series_id')
    op.drop_index(op.f('ix_series_organiser_id'), table_name='series')
    op.drop_index(op.f('ix_series_key'), table_name='series')
    op.drop_table('series')
