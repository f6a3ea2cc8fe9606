"""Tables of the friends' features: chat messages, a room's social options and rematch,
and challenges with their invitations and entries.

Every row hangs off a room with ON DELETE CASCADE (SQLite runs with foreign keys on,
app/db.py), so the purge that deletes an expired room deletes its chat, its rematch link
and the challenge it started with it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql.expression import true

from app.models import Base


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    room_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    # 1, 2, 3... per room; the primary key makes two writers of one id collide.
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoomSocial(Base):
    """A room's chat option and its rematch; no row: chat on, no rematch yet."""

    __tablename__ = "room_social"

    room_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    chat: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The room its rematch made (docs/api.md v1.2 `rematch`); NULL until someone asks.
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Challenge(Base):
    """Its seed is not stored: it is derived from the server's key (app/social/keys.py)."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    # The challenger's room: the challenge expires with it.
    room_id: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.id", ondelete="CASCADE"))
    variant: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    # JSON: seat number -> bot level, as POST /api/challenges took it.
    bots: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeEntry(Base):
    __tablename__ = "challenge_entries"

    challenge_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("challenges.id", ondelete="CASCADE"), primary_key=True
    )
    room_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    # 0 for the challenger, then in the order friends played it.
    seq: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    # The name the owner gave the invitation it came from (docs/api.md v1.3); NULL for the
    # challenger's own entry and entries from before invitations.
    invite_name: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ChallengeInvite(Base):
    """An invitation, good for one entry (docs/api.md v1.3): only its code's SHA-256 is kept."""

    __tablename__ = "challenge_invites"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    challenge_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("challenges.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # When an entry started from it: set once, by the one UPDATE that finds it NULL.
    spent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
