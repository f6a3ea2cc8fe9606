"""challenge_invites, challenge_entries.invite_name: a challenge is played by invitation

Revision ID: 0005_invites
Revises: 0004_friends
Create Date: 2026-12-10

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_invites"
down_revision: str | Sequence[str] | None = "0004_friends"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "challenge_invites",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("challenge_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("spent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["challenge_id"],
            ["challenges.id"],
            name=op.f("fk_challenge_invites_challenge_id_challenges"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("code_hash", name=op.f("pk_challenge_invites")),
    )
    op.create_index(
        op.f("ix_challenge_invites_challenge_id"),
        "challenge_invites",
        ["challenge_id"],
        unique=False,
    )
    # Entries from before invitations came from none: NULL.
    with op.batch_alter_table("challenge_entries") as batch:
        batch.add_column(sa.Column("invite_name", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("challenge_entries") as batch:
        batch.drop_column("invite_name")
    op.drop_index(op.f("ix_challenge_invites_challenge_id"), table_name="challenge_invites")
    op.drop_table("challenge_invites")
