"""A store and writer in this process's memory: the room service (app/rooms/service.py) runs on
them without a database or a server, for fast tests. The same rules as the SQL store: a
compare-and-swap per entry, the lowest free seat, hands ended and dealt, the purge; the
friends' rows (`MemorySocial`). Nothing is sealed: nothing here is at rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

import rules
from app.errors import RoomNotFound
from app.persist.rows import (
    ChallengePlan,
    ChatRow,
    Commit,
    EntryRow,
    HandRow,
    LogEntry,
    Mark,
    Snapshot,
    lowest_free_seat,
    seat_taken,
)
from app.persist.social_tables import Challenge
from app.persist.store import Batch, Writer, batch_order


@dataclass
class _Room:
    snapshot: Snapshot
    token_hashes: list[str | None]
    hands: list[HandRow] = field(default_factory=list)
    log: list[tuple[int, LogEntry]] = field(default_factory=list)  # (hand_seq, entry)


class MemoryWriter:
    """Writes a batch into a `MemoryStore`, each entry under its own compare-and-swap."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store

    async def commit_many(self, batch: Batch) -> list[int | None]:
        results: list[int | None] = [None] * len(batch)
        for i in batch_order(batch):
            results[i] = self._store.apply(*batch[i])
        return results

    async def close(self) -> None:
        pass


class MemorySocial:
    """The friends' rows in memory, under the SQL store's rules: one rematch per room, a
    chat id taken once, an invitation spent once, at most `at_most` invitations."""

    def __init__(self) -> None:
        self._social: dict[str, tuple[bool, str | None]] = {}
        self._chat: dict[str, list[ChatRow]] = {}
        self._challenges: dict[str, Challenge] = {}
        self._entries: dict[str, list[EntryRow]] = {}
        self._invites: dict[str, tuple[str, str, datetime | None]] = {}

    async def social_row(self, room: str) -> tuple[bool, str | None] | None:
        return self._social.get(room)

    async def set_chat(self, room: str, on: bool) -> None:
        self._social[room] = (on, self._social.get(room, (True, None))[1])

    async def claim_rematch(self, room: str, new_room: str) -> str:
        chat, rematch = self._social.get(room, (True, None))
        self._social[room] = (chat, rematch or new_room)
        return rematch or new_room

    async def delete_room(self, room: str) -> None:
        for rows in (self._social, self._chat):
            rows.pop(room, None)

    async def chat_since(
        self, room: str, seat: int, since: datetime
    ) -> tuple[int, datetime | None]:
        times = [m.at for m in self._chat.get(room, []) if m.seat == seat and m.at > since]
        return len(times), min(times, default=None)

    async def add_chat(
        self, room: str, seat: int, name: str, text: str, at: datetime
    ) -> int | None:
        messages = self._chat.setdefault(room, [])
        messages.append(ChatRow(id=len(messages) + 1, seat=seat, name=name, text=text, at=at))
        return len(messages)

    async def chat_messages(self, room: str, since: int | None, limit: int) -> list[ChatRow]:
        messages = self._chat.get(room, [])
        return (
            [m for m in messages if m.id > since][:1000] if since is not None else messages[-limit:]
        )

    async def add_challenge(self, plan: ChallengePlan) -> None:
        c = plan.challenge
        self._challenges[c] = Challenge(
            id=c, room_id=plan.room, variant=plan.variant, players=plan.players, bots=plan.bots,
            created_at=plan.now,
        )  # fmt: skip
        self._entries[c] = [EntryRow(room=plan.room, name=plan.name, invite_name=None)]
        self._invites[plan.invite_hash] = (c, plan.invite_name, None)

    async def challenge(self, challenge: str) -> Challenge | None:
        return self._challenges.get(challenge)

    async def add_entry(
        self, challenge: str, room: str, name: str, invite_name: str | None
    ) -> None:
        self._entries[challenge].append(EntryRow(room=room, name=name, invite_name=invite_name))

    async def entries(self, challenge: str) -> list[EntryRow]:
        return list(self._entries.get(challenge, []))

    async def add_invite(
        self, challenge: str, code_hash: str, name: str, now: datetime, at_most: int
    ) -> bool:
        if sum(c == challenge for c, _, _ in self._invites.values()) >= at_most:
            return False
        self._invites[code_hash] = (challenge, name, None)
        return True

    async def invite(self, code_hash: str) -> tuple[str, str] | None:
        found = self._invites.get(code_hash)
        return None if found is None else found[:2]

    async def spend_invite(self, challenge: str, code_hash: str, now: datetime) -> bool:
        found = self._invites.get(code_hash)
        if found is None or found[0] != challenge or found[2] is not None:
            return False
        self._invites[code_hash] = (found[0], found[1], now)
        return True

    async def unspend_invite(self, code_hash: str) -> None:
        found = self._invites.get(code_hash)
        if found is not None:
            self._invites[code_hash] = (found[0], found[1], None)


class MemoryStore(MemorySocial):
    def __init__(self) -> None:
        super().__init__()
        self._rooms: dict[str, _Room] = {}
        self._own_writer = MemoryWriter(self)
        self._writer: Writer = self._own_writer

    @property
    def writer(self) -> Writer:
        return self._writer

    @writer.setter
    def writer(self, writer: Writer) -> None:
        """Tests put a recording writer in front of the memory one."""
        self._writer = writer

    @property
    def fallback(self) -> Writer:
        return self._own_writer

    async def ping(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def create(self, room: Snapshot) -> None:
        start = rules.hand_start(room.state).model_dump_json()
        self._rooms[room.id] = _Room(
            snapshot=room,
            token_hashes=[s.token_hash for s in room.seats],
            hands=[HandRow(seq=0, start=start, start_version=0, end_version=None)],
        )

    async def load(self, room_id: str) -> Snapshot:
        return self._room(room_id).snapshot

    def stored_state(self, room_id: str, entry: Commit) -> str:
        return entry.state_json

    def decode_state(self, room_id: str, stored: str) -> rules.GameState:
        return rules.GameState.model_validate_json(stored)

    async def seat_of(self, token_hash: str) -> tuple[str, int] | None:
        for room_id, room in self._rooms.items():
            if token_hash in room.token_hashes:
                return room_id, room.token_hashes.index(token_hash)
        return None

    async def take_seat(
        self,
        room_id: str,
        *,
        name: str | None,
        token_hash: str,
        now: datetime,
        deadline: datetime | None = None,
    ) -> int | None:
        room = self._room(room_id)
        seat = lowest_free_seat(room.snapshot)
        if seat is not None:
            room.snapshot = seat_taken(room.snapshot, seat, name, token_hash, now, deadline)
            room.token_hashes[seat] = token_hash
        return seat

    def apply(self, snap: Snapshot, entry: Commit, now: datetime) -> int | None:
        """One entry's compare-and-swap and rows; None when the room moved on."""
        room = self._rooms.get(snap.id)
        if room is None or room.snapshot.version != snap.version:
            return None
        version = snap.version + 1
        new_hand = entry.new_hand_start is not None
        room.snapshot = replace(
            room.snapshot,
            version=version,
            state=entry.state,
            active_at=now,
            hand_seq=snap.hand_seq + 1 if new_hand else snap.hand_seq,
            seats=room.snapshot.seats if entry.seats is None else entry.seats,
            turn_deadline=entry.turn_deadline,
        )
        room.log.append(
            (snap.hand_seq, LogEntry(version, entry.seat, entry.kind, entry.payload_json))
        )
        if entry.hand_ended:
            room.hands = [
                replace(h, end_version=version)
                if h.seq == snap.hand_seq and h.end_version is None
                else h
                for h in room.hands
            ]
        if entry.new_hand_start is not None:
            room.hands.append(HandRow(snap.hand_seq + 1, entry.new_hand_start, version, None))
        return version

    async def marks(self, room_ids: Iterable[str]) -> dict[str, Mark]:
        rooms = self._rooms
        return {r: rooms[r].snapshot.mark for r in room_ids if r in rooms}

    async def entries_since(self, room_id: str, seq: int, version: int) -> list[LogEntry]:
        return [e for s, e in self._room(room_id).log if s == seq and e.version > version]

    async def hand_started_at(self, room_id: str, seq: int) -> int:
        return next((h.start_version for h in self._room(room_id).hands if h.seq == seq), 0)

    async def due_turns(self, now: datetime, limit: int) -> list[str]:
        due = [
            (room.snapshot.turn_deadline, room_id)
            for room_id, room in self._rooms.items()
            if room.snapshot.turn_deadline is not None and room.snapshot.turn_deadline <= now
        ]
        return [room_id for _, room_id in sorted(due)[:limit]]

    async def finished_hands(self, room_id: str) -> list[tuple[HandRow, list[LogEntry]]]:
        room = self._room(room_id)
        return [
            (h, [e for seq, e in room.log if seq == h.seq])
            for h in room.hands
            if h.end_version is not None
        ]

    async def versions(self, room_id: str) -> list[int]:
        return [e.version for _, e in self._room(room_id).log]

    async def purge(self, inactive_since: datetime) -> int:
        gone = [r for r, room in self._rooms.items() if room.snapshot.active_at < inactive_since]
        for room_id in gone:
            del self._rooms[room_id]
            await self.delete_room(room_id)
        return len(gone)

    def _room(self, room_id: str) -> _Room:
        room = self._rooms.get(room_id)
        if room is None:
            raise RoomNotFound(f"no room {room_id}")
        return room
