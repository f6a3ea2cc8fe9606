"""The room service: creating and joining rooms, and the one path every move and vote takes
(on top of the rooms' reads, app/rooms/reads.py).

The move path (`play`, `cast`), thin on purpose:
    authorize                               # the route's dependency, on the cached room
    async with lock(room):                  # orders writers in this process
        the room, loaded once               # the authorized snapshot, or a newer cached one
        rules.apply(state, seat, move)      # raises IllegalMove: nothing written
        commit(room, entry)                 # UPDATE ... WHERE version = v (CAS), publish
        turns.after_commit(room)            # the computer's turns now due: a step of its own
    answer                                  # the seat's view, built once per seat and version
An accepted move is committed before it is acknowledged or broadcast. A move from a seat a
stand-in plays is its owner back: the stand-in ends first, an entry of its own. The turn
drivers (app/turns/) act through the port this service implements (app/rooms/port.py).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Unpack

import rules
from app.errors import AppError, RoomFull, StaleVersion, WaitingForPlayers
from app.metrics import M, hand_ended, refused
from app.persist import Commit, Snapshot
from app.persist.rows import lowest_free_seat, seat_taken
from app.rooms import setup
from app.rooms.entries import completed, first_deadline
from app.rooms.port import stand_in_entry
from app.rooms.reads import RoomReads
from app.rooms.tokens import hash_token, new_token
from app.rooms.votes import is_spent, voters
from app.views import RoomView, carry_seat_infos

log = logging.getLogger("rummy.service")

# How often an entry is tried again after another process wrote its room first: a vote or
# an unversioned move on the room as it is then, a stand-in's end.
MAX_RETRIES = 5


class RoomService(RoomReads):
    """Reads (`RoomReads`), creation, joining and the move path."""

    # -- creating and joining --------------------------------------------------------------

    async def create(self, **request: Unpack[setup.RoomRequest]) -> tuple[str, list[str | None]]:
        """A new room (app/rooms/setup.py `new_room` takes `request`); returns its id and the
        token of every human seat (None for bots)."""
        room, tokens = setup.new_room(self.settings, self.clock(), **request)
        await self.open(room)
        return room.id, tokens

    async def open(self, room: Snapshot) -> None:
        """Write a new room (made by the one factory, `setup.planned_room`: a lobby's, a
        rematch's or a challenge's) and cache it as written: the creator's first socket
        (and in a storm, thousands of them) is authorized and sent its view without reading
        the room back."""
        await self.store.create(room)
        self.snapshots.put(room)
        M.rooms_created[room.variant][room.mode].inc()
        log.info(
            "room created: %s %s %d players", room.mode, room.variant, room.players,
            extra={"room": room.id},
        )  # fmt: skip

    async def join(self, room_id: str, name: str | None) -> tuple[int, str]:
        """Take the lowest free seat; returns it and its token. Raises RoomFull."""
        snap = await self.snapshot(room_id)
        token = new_token()
        token_hash = hash_token(token)
        now = self.clock()
        deadline = first_deadline(snap, now)
        seat = await self.store.take_seat(
            room_id, name=name, token_hash=token_hash, now=now, deadline=deadline
        )
        if seat is None:
            raise RoomFull("every seat of this room is taken")
        joined: Snapshot | None = None
        if lowest_free_seat(snap) == seat:
            # The cached room had that seat as its lowest free one, so it missed no join
            # before this one: it takes the seat here, with no read.
            joined = seat_taken(snap, seat, name, token_hash, now, deadline)
            self.snapshots.put(joined)
        else:
            try:
                # Its seats changed elsewhere too: read it now, so the new seat's token is
                # in the cached room its socket is checked against.
                joined = await self.snapshots.reload(room_id)
            except AppError:
                pass  # the seat is taken all the same: the next reader of the room reads it
        # Other processes drop their cached room when it has fewer seats taken than this.
        event: dict[str, Any] = {"kind": "state"}
        if joined is not None:
            event.update(version=joined.version, taken=joined.mark[1])
        await self.hub.publish(room_id, event)
        return seat, token

    # -- the move path ---------------------------------------------------------------------

    async def move(
        self, room_id: str, seat: int, move: rules.Move, version: int | None
    ) -> RoomView:
        """Apply `move`; returns the seat's view after it (and after any bot turns)."""
        return await self.view(room_id, seat, await self.play(room_id, seat, move, version))

    async def play(
        self,
        room_id: str,
        seat: int,
        move: rules.Move,
        version: int | None,
        known: Snapshot | None = None,
    ) -> Snapshot:
        """Apply `move` made on view `version`; returns the room after it and after the
        computer's turns it made due. `known`: the room as the seat was authorized on."""
        seen = known or self.snapshots.peek(room_id)
        back = seen is not None and seen.seats[seat].stand_in is not None
        if back:
            self._returning.add((room_id, seat))
        payload = rules.move_to_json(move)
        try:
            async with self.hub.lock(room_id):
                snap = await self._load(room_id, known)
                if snap.seats[seat].stand_in is not None:
                    snap, version = await self._end_stand_in(snap, seat, version)
                for attempt in range(MAX_RETRIES + 1):
                    if attempt:
                        snap = await self.snapshot(room_id, fresh=True)
                    snap, state = await self._decide(snap, seat, version, move, attempt > 0)
                    entry = Commit(seat=seat, kind="move", payload=payload, state=state)
                    try:
                        snap = await self.commit(snap, entry)
                    except StaleVersion:
                        # Another process wrote the room first. A move without a version
                        # means "on whatever is current": apply it again there.
                        if version is not None or attempt == MAX_RETRIES:
                            raise
                        continue
                    return await self.turn_steps.after_commit(snap)
        except (AppError, rules.IllegalMove) as exc:
            refused(seen or self.snapshots.peek(room_id), exc.code)
            raise
        finally:
            if back:
                self._returning.discard((room_id, seat))
        raise AssertionError("unreachable")

    async def _load(self, room_id: str, known: Snapshot | None) -> Snapshot:
        """The room a move applies to, its lock held: the newest cached snapshot when the
        caller authorized on one (no second read), else the cache's or the database's."""
        if known is not None:
            latest = self.snapshots.peek(room_id)
            if latest is not None:
                return latest
        return await self.snapshot(room_id)

    async def _decide(
        self, snap: Snapshot, seat: int, version: int | None, move: rules.Move, fresh: bool
    ) -> tuple[Snapshot, rules.GameState]:
        """The room the move applies to and the state after it. Raises StaleVersion (with
        the seat's view), WaitingForPlayers or rules.IllegalMove.

        A refusal on the cached room is decided again on the database's (`fresh`: it is the
        database's already): the cache may lack news whose event was lost (or that the
        client saw through another process), and a stale cache must neither turn a valid
        move away nor keep the room frozen.
        """
        while True:
            try:
                if version is not None and version != snap.version:
                    raise StaleVersion(f"version {version} is stale")
                if snap.is_waiting:
                    raise WaitingForPlayers("wait until every seat is taken")
                return snap, rules.apply(snap.state, seat, move)
            except StaleVersion as exc:
                if fresh:
                    raise await self._stale(snap.id, seat, str(exc)) from None
            except (WaitingForPlayers, rules.IllegalMove):
                if fresh:
                    raise
            snap, fresh = await self.current(snap.id), True

    async def cast(
        self,
        room_id: str,
        seat: int,
        kind: rules.VoteKind,
        version: int | None,
        known: Snapshot | None = None,
    ) -> Snapshot:
        """Vote; returns the room after it (and after the computer's turns it made due).

        A vote that asks for what already happened changes nothing and is no error (docs/rooms.md,
        "Votes"): a double click or a resent frame must not deal again. Raises
        StaleVersion only for a version the room has not reached."""
        async with self.hub.lock(room_id):
            snap = await self._load(room_id, known)
            for attempt in range(MAX_RETRIES + 1):
                if attempt or (version is not None and version > snap.version):
                    # Another process wrote first, or the client saw a newer version there.
                    snap = await self.snapshot(room_id, fresh=True)
                if version is not None and version > snap.version:
                    message = f"version {version} is ahead of the room"
                    raise await self._stale(room_id, seat, message)
                if snap.is_waiting:
                    raise WaitingForPlayers("wait until every seat is taken")
                if await is_spent(snap, seat, kind, version, self.store.hand_started_at):
                    return snap
                state = rules.vote(snap.state, seat, kind, voters(snap, seat, kind))
                entry = Commit(seat=seat, kind="vote", payload={"vote": kind}, state=state)
                try:
                    snap = await self.commit(snap, entry)
                except StaleVersion:
                    if attempt == MAX_RETRIES:
                        raise
                    continue
                return await self.turn_steps.after_commit(snap)
        raise AssertionError("unreachable")

    async def vote(
        self, room_id: str, seat: int, kind: rules.VoteKind, version: int | None
    ) -> RoomView:
        return await self.view(room_id, seat, await self.cast(room_id, seat, kind, version))

    async def owner_back(self, room_id: str, seat: int) -> None:
        """The owner of `seat` is back (a socket with its token opened): its stand-in ends
        before the stand-in's next move, even one already waiting for the room's lock."""
        key = (room_id, seat)
        self._returning.add(key)
        try:
            async with self.hub.lock(room_id):
                snap = await self.snapshot(room_id)
                if snap.seats[seat].stand_in is not None:
                    await self._end_stand_in(snap, seat, None)
        finally:
            self._returning.discard(key)

    async def _end_stand_in(
        self, snap: Snapshot, seat: int, version: int | None
    ) -> tuple[Snapshot, int | None]:
        """End `seat`'s stand-in (its lock held); returns the room after the end, and
        `version` as it stands then (a move made on the view just before the end is not
        stale for it)."""
        for attempt in range(MAX_RETRIES + 1):
            if attempt:
                snap = await self.snapshot(snap.id, fresh=True)
            if snap.seats[seat].stand_in is None:
                break  # ended already, by another process
            try:
                after = await self.commit(snap, stand_in_entry(snap, seat, None))
            except StaleVersion:
                if attempt == MAX_RETRIES:
                    raise
                continue
            log.info("seat %d is back: its stand-in ended", seat)
            return after, after.version if version == snap.version else version
        return snap, version

    async def _stale(self, room_id: str, seat: int, message: str) -> StaleVersion:
        view = await self.view(room_id, seat)
        return StaleVersion(
            f"{message}: the room is at version {view.version}", state=view.model_dump(mode="json")
        )

    async def commit(self, snap: Snapshot, entry: Commit) -> Snapshot:
        """Persist one entry made on `snap` and tell every socket (the one write path; the
        caller holds the room's lock); returns the room after it.

        Raises StaleVersion (with the seat's view) when another move landed first."""
        now = self.clock()
        entry = completed(snap, entry, now)
        try:
            version = await self.committer.commit(snap, entry, now)
        except StaleVersion:
            self.snapshots.forget(snap.id)
            raise await self._stale(snap.id, entry.seat, "another move was applied first") from None
        after = replace(
            snap,
            version=version,
            state=entry.state,
            hand_seq=snap.hand_seq + (1 if entry.new_hand_start is not None else 0),
            active_at=now,
            seats=snap.seats if entry.seats is None else entry.seats,
            turn_deadline=entry.turn_deadline,
        )
        carry_seat_infos(snap, after)
        self.snapshots.put(after)
        M.accepted[entry.kind][snap.variant].inc()
        if entry.hand_ended:
            hand_ended(snap.variant, entry.state.phase)
        # The event carries what changed, so other processes (RedisHub) update their cached
        # snapshot of this room instead of reading it back from the database.
        event = {
            "kind": "state",
            "version": version,
            "state": self.store.stored_state(snap.id, entry),
            "hand_seq": after.hand_seq,
            "active_at": now.isoformat(),
            "turn_deadline": entry.turn_deadline.isoformat() if entry.turn_deadline else None,
            "attendance": after.attendance,
        }
        await self.hub.publish(snap.id, event)
        return after
