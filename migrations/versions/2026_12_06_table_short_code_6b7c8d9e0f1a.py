"""A short code for each table, typed on a second device instead of the key

- table_session.short_code: eight characters of Crockford's base32, unique; every table
  stored so far gets one (scorer/store/table_codes.py says what they are)

Revision ID: 6b7c8d9e0f1a
Revises: 18d8f0a21a75
Create Date: 2026-12-06 19:30:00.000000

"""
import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '6b7c8d9e0f1a'
down_revision = '18d8f0a21a75'
branch_labels = None
depends_on = None

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""As scorer.store.table_codes had it when this migration was written (a migration keeps
its own copy: the code may change, what it did may not)."""


def upgrade():
    with op.batch_alter_table('table_session') as batch:
        batch.add_column(sa.Column('short_code', sa.String(length=8), nullable=True))
    connection = op.get_bind()
    tables = sa.table('table_session', sa.column('id', sa.Integer), sa.column('short_code'))
    ids = connection.execute(sa.select(tables.c.id)).scalars().all()
    codes: list[str] = []
    drawn: set[str] = set()
    while len(codes) < len(ids):  # each its own, in the order drawn
        code = "".join(secrets.choice(ALPHABET) for _ in range(8))
        if code not in drawn:
            drawn.add(code)
            codes.append(code)
    for table_id, code in zip(ids, codes):
        connection.execute(
            tables.update().where(tables.c.id == table_id).values(short_code=code)
        )
    with op.batch_alter_table('table_session') as batch:
        batch.create_index(batch.f('ix_table_session_short_code'), ['short_code'], unique=True)


def downgrade():
    with op.batch_alter_table('table_session') as batch:
        batch.drop_index(batch.f('ix_table_session_short_code'))
        batch.drop_column('short_code')
