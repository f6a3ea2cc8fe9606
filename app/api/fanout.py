"""One task per room makes the frames that a change sends to the room's sockets in this
process; each socket's outbox only sends them (at once, or through its writer task).

A hub event marks what each socket of the room wants (a view, the seats' presence) and
wakes the room's task, which reads the snapshot and the presence once, takes each seat's
view text from the snapshot (built once per seat and version, `app.views.seat.view_text`) and
puts the finished frame text in each socket's `Outbox`. When the room is cached and the
hub knows its presence without a read (a move in one process), the event does that work at
once, without the task. A socket that fell behind holds only the newest: its slot is
overwritten, so a thousand events cost it one send.

Before, every socket's writer read the snapshot, the presence (a Redis read with several
processes) and the clock on its own after every move.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from pydantic_core import to_json

from app.api.outbox import Outbox
from app.errors import AppError, RoomExpired, RoomNotFound
from app.hub import Event, Presence
from app.persist.rows import Snapshot
from app.rooms.service import RoomService
from app.views import seat_infos, view_text


class Audience:
    """The sockets of one room in this process (seat None: a spectator)."""

    def __init__(self, service: RoomService, room: str, gone: Callable[[Audience], None]) -> None:
        self._service = service
        self.room = room
        self._gone = gone  # called when the last socket left
        self.members: dict[Outbox, int | None] = {}
        self._want_state: set[Outbox] = set()
        self._want_presence: set[Outbox] = set()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe = service.hub.subscribe(room, self._event)

    def join(self, outbox: Outbox, seat: int | None) -> None:
        """Add a socket; it is sent the view and the presence now."""
        self.members[outbox] = seat
        self.want(outbox, state=True, presence=True)

    def leave(self, outbox: Outbox) -> None:
        self.members.pop(outbox, None)
        self._want_state.discard(outbox)
        self._want_presence.discard(outbox)
        if not self.members:
            self._unsubscribe()
            self._gone(self)

    def want(self, outbox: Outbox, *, state: bool = False, presence: bool = False) -> None:
        """One socket asks again (a refused frame's resync)."""
        if state:
            self._want_state.add(outbox)
        if presence:
            self._want_presence.add(outbox)
        self._wake()

    def behind(self, version: int) -> list[Outbox]:
        """The sockets here whose newest view is older than `version` and not on its way
        (a socket still waiting for its first view is served by its join)."""
        wanted = self._want_state
        return [o for o in self.members if 0 <= o.sent_version < version and o not in wanted]

    def _event(self, event: Event) -> None:
        if event.get("kind") == "frame":  # chat, rematch: the same frame for every socket
            for outbox in list(self.members):
                outbox.put(event["frame"])
            return
        if event.get("kind") == "presence":
            self._want_presence.update(self.members)
        else:
            self._want_state.update(self.members)
        self._wake()

    def _wake(self) -> None:
        if self._task is not None and not self._task.done():
            return  # its next round serves what was just marked
        if not self._serve_now():
            self._task = asyncio.create_task(self._run())

    def _serve_now(self) -> bool:
        """Serve what is wanted here and now when the room and its presence are at hand (a
        move's event: the room cached, an in-process hub), saving a task per move. False
        when only a read can tell: the task waits for it."""
        state, presence = self._take_wanted()
        try:
            snap = self._service.cached(self.room)
            seen = None if snap is None else self._service.presence_now(self.room)
            if snap is None or seen is None:
                self._want_state |= state
                self._want_presence |= presence
                return False
            self._send(snap, seen, state, presence)
        except Exception as exc:
            # Called by the mover's publish, whose move is committed: not its failure. These
            # sockets close and resync, as in `_run`.
            for outbox in state | presence:
                outbox.fail(exc)
        return True

    def _take_wanted(self) -> tuple[set[Outbox], set[Outbox]]:
        state, self._want_state = self._want_state, set()
        presence, self._want_presence = self._want_presence, set()
        return state, presence

    async def _run(self) -> None:
        # Events that come while it reads are served by the next round.
        while self._want_state or self._want_presence:
            state, presence = self._take_wanted()
            try:
                await self._fan_out(state, presence)
            except Exception as exc:
                # A failure nobody caught (a bug, Redis gone too long): each socket's writer
                # closes its socket so that its client reconnects and resyncs.
                for outbox in state | presence:
                    outbox.fail(exc)

    async def _fan_out(self, state: set[Outbox], presence: set[Outbox]) -> None:
        try:
            try:
                snap = await self._service.snapshot(self.room)
            except RoomNotFound:  # it was there when the socket opened: purged since
                raise RoomExpired(f"room {self.room} expired and was deleted") from None
        except AppError as exc:
            for outbox in state | presence:
                outbox.fail(exc)
            return
        seen = await self._service.presence(self.room)
        self._send(snap, seen, state, presence)

    def _send(
        self, snap: Snapshot, seen: Presence, state: set[Outbox], presence: set[Outbox]
    ) -> None:
        if state:
            frames: dict[int | None, str] = {}
            for outbox in state:
                seat = self.members.get(outbox, -1)
                if seat == -1:
                    continue  # it left meanwhile
                frame = frames.get(seat)
                if frame is None:
                    frame = frames[seat] = _state_frame(snap, seat, seen)
                outbox.put_state(snap.version, frame)
        if presence:
            text = _presence_frame(snap, seen)
            for outbox in presence:
                outbox.put_presence(text)


def _state_frame(snap: Snapshot, seat: int | None, presence: Presence) -> str:
    # A spectator joined only a room that may be watched (app/api/ws.py checks at connect).
    return '{"type":"state","state":' + view_text(snap, seat, presence) + "}"


def _presence_frame(snap: Snapshot, presence: Presence) -> str:
    # What starlette's send_json wrote before: compact, non-ASCII names as they are.
    return to_json({"type": "presence", "seats": seat_infos(snap, presence)}).decode()


class Fanout:
    """Every room's `Audience` in this process."""

    def __init__(self, service: RoomService) -> None:
        self._service = service
        self._rooms: dict[str, Audience] = {}

    def join(self, room: str, seat: int | None, outbox: Outbox) -> Audience:
        audience = self._rooms.get(room)
        if audience is None:
            audience = self._rooms[room] = Audience(self._service, room, self._drop)
        audience.join(outbox, seat)
        return audience

    def audiences(self) -> list[Audience]:
        return list(self._rooms.values())

    def _drop(self, audience: Audience) -> None:
        if self._rooms.get(audience.room) is audience:
            del self._rooms[audience.room]
