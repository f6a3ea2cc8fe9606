"""The friends' writes, defined once: a room's social row (its chat option, its one
rematch), a chat message, a challenge with its entries and invitations, and the room a
rematch that lost its race deletes.

`social_sql.SocialRows` runs them by name, several in one transaction: through the engine,
or on SQLite by the writer process that orders every write (op "run",
app/persist/sqlite_process.py), which takes their SQLite text (`SQLITE_SOCIAL`). Every
conditional write is one statement, so two processes racing on it leave one winner: the
rematch's compare-and-set, an invitation spent once, the hundredth invitation the last.
A parameter outside VALUES or SET is never named as a column its statement writes
(SQLAlchemy reserves those names for the values it writes).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Integer, String, bindparam, delete, func, insert, null, select, true, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.sql.expression import Executable

from app.models import Room
from app.persist.social_tables import (
    Challenge,
    ChallengeEntry,
    ChallengeInvite,
    ChatMessage,
    RoomSocial,
)
from app.persist.sqlite_setup import sqlite_sql

_ROOM = RoomSocial.room_id == bindparam("room")


def _ensure_social(insert_of: Any) -> Executable:
    """The room's social row, made if missing (by whichever writer comes first)."""
    stmt: Executable = (
        insert_of(RoomSocial)
        .values(room_id=bindparam("room"), chat=true())
        .on_conflict_do_nothing()
    )
    return stmt


def _challenge_count(table: Any) -> Any:
    return (
        select(func.count())
        .where(table.challenge_id == bindparam("challenge", type_=String))
        .scalar_subquery()
    )


def _text(name: str) -> Any:
    return bindparam(name, type_=String)


WRITES: dict[str, Executable] = {
    "set_chat": update(RoomSocial).where(_ROOM).values(chat=bindparam("chat")),
    # The compare-and-set that lets exactly one rematch exist.
    "claim_rematch": (
        update(RoomSocial)
        .where(_ROOM, RoomSocial.rematch.is_(None))
        .values(rematch=bindparam("new_room"))
    ),
    # Its seats, hands and social rows go with it (ON DELETE CASCADE).
    "delete_room": delete(Room).where(Room.id == bindparam("room")),
    "add_chat": insert(ChatMessage).values(
        room_id=bindparam("room"),
        id=bindparam("id"),
        seat=bindparam("seat"),
        name=bindparam("name"),
        text=bindparam("text"),
        at=bindparam("at", type_=ChatMessage.at.type),
    ),
    "add_challenge": insert(Challenge).values(
        id=bindparam("challenge"),
        room_id=bindparam("room"),
        variant=bindparam("variant"),
        players=bindparam("players"),
        bots=bindparam("bots"),
        created_at=bindparam("now", type_=Challenge.created_at.type),
    ),
    # Numbered in the order they were played: 0 for the challenger's.
    "add_entry": insert(ChallengeEntry).from_select(
        ["challenge_id", "room_id", "seq", "name", "invite_name"],
        select(
            _text("challenge"),
            _text("room"),
            _challenge_count(ChallengeEntry),
            _text("label"),
            _text("invitation"),
        ),
    ),
    # No row when the challenge has `at_most` invitations already.
    "add_invite": insert(ChallengeInvite).from_select(
        ["code_hash", "challenge_id", "name", "created_at"],
        select(
            _text("code"),
            _text("challenge"),
            _text("label"),
            bindparam("now", type_=ChallengeInvite.created_at.type),
        ).where(_challenge_count(ChallengeInvite) < bindparam("at_most", type_=Integer)),
    ),
    # Finds it unspent, or changes nothing: of two plays with one code, one spends it.
    "spend_invite": (
        update(ChallengeInvite)
        .where(
            ChallengeInvite.code_hash == bindparam("code"),
            ChallengeInvite.challenge_id == bindparam("challenge"),
            ChallengeInvite.spent_at.is_(None),
        )
        .values(spent_at=bindparam("now", type_=ChallengeInvite.spent_at.type))
    ),
    "unspend_invite": (
        update(ChallengeInvite)
        .where(ChallengeInvite.code_hash == bindparam("code"))
        .values(spent_at=null())
    ),
}


def writes_for(dialect: str) -> dict[str, Executable]:
    """Every write by name, for the engine of `dialect` (only the upsert differs)."""
    ensure = _ensure_social(pg_insert if dialect == "postgresql" else sqlite_insert)
    return {**WRITES, "ensure_social": ensure}


# Their text, as SQLite's writer process runs them (sent to it once, as the moves' are).
SQLITE_SOCIAL = {f"social_{name}": sqlite_sql(stmt) for name, stmt in writes_for("sqlite").items()}
