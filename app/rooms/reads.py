"""The rooms' reads: the snapshot cache (app/rooms/snapshots.py) behind expiry, the
database's word for reconnects and refusals (`current`), authorization from the cached
room's token hashes, the seats' views and presence, and the log. The room service
(app/rooms/service.py) adds creation, joining and the move path."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from app.clock import Clock, utcnow
from app.config import Settings
from app.errors import AppError, Forbidden, RoomExpired, Unauthorized
from app.hub import Hub, Presence
from app.persist import GroupCommitter, Snapshot, Store
from app.rooms import history
from app.rooms.batched_marks import MarksBatcher
from app.rooms.port import NoTurns, TurnSteps
from app.rooms.snapshots import SnapshotCache
from app.rooms.tokens import MAX_TOKEN, hash_token
from app.views import LogHand, RecentMoves, RoomView, build_view, view_text
from rummy_wire.textpolicy import refusal


class RoomReads:
    """The rooms as this process reads them: the snapshot cache, expiry, authorization,
    views, presence and the log; and the turn drivers' port (app/rooms/port.py) but for
    its one write, `commit` (app/rooms/service.py)."""

    def __init__(self, store: Store, hub: Hub, settings: Settings, clock: Clock = utcnow) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.clock = clock
        self._ttl = timedelta(days=settings.room_ttl_days)
        # The turn drivers' step after each commit (the composition root puts app.turns').
        self.turn_steps: TurnSteps = NoTurns()
        # Away marks are made on this service's clock, which tests may replace.
        hub.clock = lambda: self.clock()
        # (room, seat) of owners whose return is being recorded: no stand-in move for them
        # meanwhile, even one already queued behind the room's lock (`owner_returning`).
        self._returning: set[tuple[str, int]] = set()
        # Recent rooms' snapshots: the move path and the sockets' views read no database.
        self.snapshots = SnapshotCache(store.load, store.decode_state, on_newer=self._heard)
        hub.watch(self.snapshots.on_event)
        # Connects that check their room together share one read (app/rooms/batched_marks.py).
        self._marks = MarksBatcher(store.marks)
        # Moves of different rooms that arrive together share one transaction.
        self.committer = GroupCommitter(store.writer, store.fallback)

    # -- reading ---------------------------------------------------------------------------

    async def snapshot(self, room_id: str, *, fresh: bool = False) -> Snapshot:
        """The room, from the snapshot cache or (`fresh`) the database.

        Raises RoomNotFound, RoomExpired."""
        cache = self.snapshots
        snap = await (cache.reload(room_id) if fresh else cache.get(room_id))
        if self.clock() - snap.active_at > self._ttl:
            raise RoomExpired(f"room {room_id} expired after {self.settings.room_ttl_days:g} days")
        return snap

    def cached(self, room_id: str) -> Snapshot | None:
        """The room if it is cached and unexpired, else None: `snapshot` reads or raises."""
        snap = self.snapshots.peek(room_id)
        if snap is None or self.clock() - snap.active_at > self._ttl:
            return None
        return snap

    async def current(self, room_id: str) -> Snapshot:
        """The room as the database has it now: the cached snapshot if its mark is still
        the database's (one small read), else read again. For reconnects and refusals,
        which must not trust a cache whose news may have been lost.

        Raises RoomNotFound, RoomExpired."""
        snap = await self.snapshot(room_id)
        if await self._marks.mark(room_id) == snap.mark:
            return snap
        return await self.snapshot(room_id, fresh=True)

    async def refresh(self, room_id: str) -> None:
        """Read the room again (`app.rooms.healing` found it behind): the read tells its
        sockets."""
        try:
            await self.snapshot(room_id, fresh=True)
        except AppError:
            # Expired or deleted meanwhile: the sockets read it and close.
            self.hub.notify(room_id, {"kind": "state"})

    def _heard(self, snap: Snapshot) -> None:
        """A read found news no event brought (it was lost): tell the room's sockets here,
        and play its bots if their turn came while nobody knew."""
        self.hub.notify(snap.id, {"kind": "state", "version": snap.version})
        self.turn_steps.wake(snap)

    async def authorize(self, room_id: str, token: str | None) -> int:
        """The seat `token` acts for in `room_id` (see `seated`)."""
        return (await self.seated(room_id, token))[1]

    async def seated(self, room_id: str, token: str | None) -> tuple[Snapshot, int]:
        """The room and the seat `token` acts for in it.

        Raises RoomNotFound or RoomExpired first (the room is checked before the token),
        then Unauthorized (no or unknown token) or Forbidden (a token of another room).
        """
        snap = await self.snapshot(room_id)
        if not token:
            raise Unauthorized("a seat token is required")
        if not (token.isascii() and token.isprintable()) and refusal(token, MAX_TOKEN, "a token"):
            # The text policy (a lone surrogate from an auth frame could not even be hashed).
            raise Unauthorized("that is not a seat token")
        token_hash = hash_token(token)
        # The cached room holds its seats' token hashes: a connect storm reads no database.
        seat = snap.seat_of(token_hash)
        if seat is not None:
            return snap, seat
        # Not in the cached room: tell 401 from 403, or find a seat taken through another
        # process whose news has not reached this one.
        found = await self.store.seat_of(token_hash)
        if found is None:
            raise Unauthorized("unknown seat token")
        if found[0] != room_id:
            raise Forbidden("this token belongs to another room")
        self.snapshots.forget(room_id)  # it missed that seat: read it again when next asked
        return snap, found[1]

    async def view(self, room_id: str, seat: int, snap: Snapshot | None = None) -> RoomView:
        """`seat`'s view of the room (of `snap` when the caller has it)."""
        snap = snap or await self.snapshot(room_id)
        return build_view(snap, seat, await self.presence(room_id))

    async def view_text(self, room_id: str, seat: int | None, snap: Snapshot | None = None) -> str:
        """`seat`'s view as JSON text (None: a spectator's), built once per version for every
        socket and request that asks. Raises Forbidden for a spectator of a room that may
        not be watched."""
        snap = snap or await self.snapshot(room_id)
        if seat is None and not snap.spectators:
            raise Forbidden("this room does not allow spectators")
        presence = self.hub.presence_now(room_id) or await self.presence(room_id)
        return view_text(snap, seat, presence)

    async def presence(self, room_id: str) -> Presence:
        """Who has a socket in the room, and since when each other seat is away."""
        return await self.hub.presence(room_id), await self.hub.away_since(room_id)

    def presence_now(self, room_id: str) -> Presence | None:
        """`presence` where the hub knows it without a read, else None."""
        return self.hub.presence_now(room_id)

    async def moves_since(self, room_id: str, since: int) -> RecentMoves:
        """The moves of the hand in play after version `since` (app/rooms/history.py)."""
        return await history.moves_since(self.store, await self.current(room_id), since)

    async def hand_log(self, room_id: str) -> list[LogHand]:
        return await history.hand_log(self.store, room_id)

    # -- the port the turn drivers use (app/rooms/port.py) ---------------------------------

    def lock(self, room_id: str) -> asyncio.Lock:
        return self.hub.lock(room_id)

    async def claim(self, key: str, seconds: float) -> bool:
        return await self.hub.claim(key, seconds)

    def owner_returning(self, room_id: str, seat: int) -> bool:
        return (room_id, seat) in self._returning

    async def due_rooms(self, limit: int) -> list[str]:
        return await self.store.due_turns(self.clock(), limit)

    def wake_bots(self, room_id: str, snap: Snapshot) -> None:
        """If a bot is to move (say after a restart cut its turn short), play it soon."""
        self.turn_steps.wake(snap)

    async def purge(self) -> int:
        purged = await self.store.purge(self.clock() - self._ttl)
        if purged:
            self.snapshots.clear()  # gone rooms answer 404, not 410 from a cached entry
        return purged
