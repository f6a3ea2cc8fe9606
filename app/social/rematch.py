"""Rematch (docs/api.md v1.2 "Rematch"): once a match is over, one new room with the same
players, names, options and bot levels, every seat moved on by one so the deal passes on.

Exactly one rematch per room: in this process a per-room lock orders the calls, and across
processes the compare-and-set on `room_social.rematch` (app/social/options.py) keeps the
first room recorded; a process that lost it deletes the room it made.

No new token is stored in the clear, nor handed to anyone but its seat: the token of new
seat `(i + 1) mod n` is derived from old seat `i`'s token hash and the new room's id under
the server's key (app/social/keys.py), so the call that makes the room can give every seat
its token, and any later call by that seat's old token returns the same one.
"""

from __future__ import annotations

import asyncio
import base64
import weakref
from dataclasses import dataclass

import rules
from app.persist import NewSeat, Snapshot
from app.rooms.service import RoomService
from app.rooms.setup import new_match_seed, new_room_id, planned_room
from app.rooms.tokens import hash_token
from app.social.keys import derive
from app.social.options import RoomSocialRows


@dataclass(frozen=True)
class RematchSeat:
    room: str
    seat: int
    token: str
    created: bool  # this call made the room
    # Local mode: every human seat's token in the new room, by seat (None for bots).
    tokens: list[str | None] | None


class Rematches:
    def __init__(
        self,
        service: RoomService,
        rows: RoomSocialRows,
    ) -> None:
        self._service = service
        self._rows = rows
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def rematch(self, room: str, seat: int) -> RematchSeat:
        """The new room and `seat`'s new seat and token in it, made by the first call.

        Raises WrongPhase (409) while the match is still on."""
        snap = await self._service.current(room)
        if snap.state.phase != "match_over":
            raise rules.WrongPhase("a rematch is for a match that is over")
        lock = self._locks.get(room)
        if lock is None:
            lock = self._locks[room] = asyncio.Lock()
        async with lock:
            new_room = await self._rows.rematch(room)
            created = new_room is None
            if new_room is None:
                made = await self._make(snap)
                new_room = await self._rows.claim_rematch(room, made)
                if new_room != made:  # another process recorded its room first
                    await self._delete(made)
                    created = False
                else:
                    await self._service.hub.publish(room, _frame(snap, seat, new_room))
        players = snap.players
        tokens = [self._token(snap, (s - 1) % players, new_room) for s in range(players)]
        token = tokens[(seat + 1) % players]
        assert token is not None
        return RematchSeat(
            room=new_room,
            seat=(seat + 1) % players,
            token=token,
            created=created,
            tokens=tokens if snap.mode == "local" else None,
        )

    def _token(self, snap: Snapshot, old_seat: int, new_room: str) -> str | None:
        old_hash = snap.seats[old_seat].token_hash
        if old_hash is None:
            return None  # a computer seat
        raw = derive(self._service.settings, "rematch-token", new_room, old_hash)
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    async def _make(self, snap: Snapshot) -> str:
        players = snap.players
        # The room id comes first: each seat's token hash depends on it.
        new_room = new_room_id()
        seats = []
        for new_seat in range(players):
            old = snap.seats[(new_seat - 1) % players]
            token = self._token(snap, old.seat, new_room)
            seats.append(
                NewSeat(name=old.name, token_hash=hash_token(token) if token else None, bot=old.bot)
            )
        made = planned_room(
            self._service.clock(),
            variant=snap.variant,
            mode=snap.mode,
            seats=seats,
            match_seed=new_match_seed(),
            limit=snap.state.limit,
            spectators=snap.spectators,
            turn_seconds=snap.turn_seconds,
            room_id=new_room,
        )
        await self._service.open(made)
        if not await self._rows.chat_on(snap.id):
            await self._rows.set_chat(made.id, False)
        return made.id

    async def _delete(self, room: str) -> None:
        await self._service.store.delete_room(room)
        self._service.snapshots.forget(room)


def _frame(snap: Snapshot, seat: int, new_room: str) -> dict[str, object]:
    name = snap.seats[seat].name or f"Player {seat + 1}"
    frame = {"type": "rematch", "room": new_room, "seat": seat, "name": name}
    return {"kind": "frame", "frame": frame}
