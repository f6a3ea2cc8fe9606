"""rooms.turn_seconds, rooms.turn_deadline, rooms.attendance: the turn timer and stand-ins

Revision ID: 0003_seats_alive
Revises: 0002_spectators
Create Date: 2026-12-02

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_seats_alive"
down_revision: str | Sequence[str] | None = "0002_spectators"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Older rooms have no timer and nobody stood in: every new column may stay NULL.
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("turn_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("attendance", sa.Text(), nullable=True))
        batch_op.create_index(batch_op.f("ix_rooms_turn_deadline"), ["turn_deadline"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rooms_turn_deadline"))
        batch_op.drop_column("attendance")
        batch_op.drop_column("turn_deadline")
        batch_op.drop_column("turn_seconds")
