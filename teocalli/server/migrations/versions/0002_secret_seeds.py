"""Seeds as decimal text: the server deals from 129-bit secret seeds, beyond any SQL integer.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.Integer(),
            type_=sa.String(80),
            existing_nullable=False,
            postgresql_using="seed::text",
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.String(80),
            type_=sa.Integer(),
            existing_nullable=False,
            postgresql_using="seed::integer",
        )
