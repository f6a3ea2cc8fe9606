"""Room events and presence across server processes and machines, through Redis.

`RedisHub` is the hub (`app.hub.protocol.Hub`) for several `rummy serve` processes on one database
(RUMMY_REDIS_URL). The routes use the same interface; what changes underneath:

- Events: `publish` delivers to this process's own sockets at once and sends the event to
  channel `rummy:room:<id>`, tagged with this process's id; a process listens on the
  channels of the rooms it has sockets in (app/hub/channels.py), not on every room's,
  and delivers events from the others to its sockets. A listener that loses
  Redis reconnects; events are hints ("the room changed"), and a socket always sends the
  room as the database has it, so a missed event delays a view but never corrupts one:
  `app.rooms.healing` finds the rooms it left behind within a few seconds.
- Frames (chat, rematch) cross Redis sealed under the server key (app/hub/sealed.py).
- Presence: hash `rummy:presence:<room>` has one field per (seat, process) holding that
  process's connection count. Each process keeps `rummy:proc:<id>` alive with a short TTL;
  a field whose process stopped heartbeating does not count, so a `kill -9`'d process's
  seats read as gone within `PROCESS_TTL` seconds. The survivors sweep its fields and tell
  the rooms it had, so their sockets get a presence frame. A graceful stop removes its own
  fields at once.
- Away marks: hash `rummy:away:<room>` holds, per seat, when a process saw that seat's
  last socket there close (or swept a dead process's); a connect deletes it. Presence
  decides whether a mark counts: a seat still connected through another process is not away.
- Claims: `claim` is a SET NX with a short TTL, so of several processes that could play
  the same computer turn only one even tries.
- Ordering of moves is not the hub's job: the per-process lock orders writers inside one
  process, and the compare-and-swap on `rooms.version` picks one winner across processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from app.hub.channels import RoomChannels
from app.hub.local import LocalHub
from app.hub.protocol import Event, Listener, Presence, away_of
from app.hub.publisher import Publisher
from app.hub.sealed import open_event, seal_event
from app.metrics import M
from app.persist.sealing import StateCipher

log = logging.getLogger("rummy.redis_hub")

CHANNEL = "rummy:room:"
CONTROL = "rummy:hub:"  # a channel of each process's own: keeps its subscription open
PRESENCE = "rummy:presence:"
PROCESS = "rummy:proc:"  # liveness key of one process, with a TTL
PROCESSES = "rummy:procs"  # every process that ever registered and was not swept yet
PROCESS_ROOMS = "rummy:proc-rooms:"  # rooms a process has had sockets in
AWAY = "rummy:away:"  # hash per room: seat -> when its last socket (on any process) closed
AWAY_TTL = 7 * 86400
CLAIM = "rummy:claim:"  # who plays a computer turn (app/turns/standin.py): one process per turn
HEARTBEAT_SECONDS = 2.0
PROCESS_TTL = 6  # seconds without a heartbeat before a process counts as dead
# Presence a process read from Redis is reused until an event says it changed (or this).
PRESENCE_CACHE_SECONDS = 30.0  # events (and the sweep of dead processes) invalidate it
PRESENCE_CACHE_MAX = 50_000
REDIS_CONNECTIONS = 64  # per process; the subscription holds one of them
# How long a command waits for a free connection: past it a view goes out with the presence
# this process knows, and a publish is logged as missed (app/rooms/healing.py heals the rest).
REDIS_WAIT_SECONDS = 5


class RedisHub(LocalHub):
    def __init__(self, url: str, cipher: StateCipher | None = None) -> None:
        super().__init__()
        self._cipher = cipher  # seals the frames that cross Redis; None: in the clear
        # A blocking pool: under a burst (hundreds of sockets connecting at once) a command
        # waits for a free connection instead of failing with "Too many connections".
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT_SECONDS,
            decode_responses=True,
        )
        # Typed loosely: with decode_responses=True every reply is str, which the stubs miss.
        self._redis: Any = aioredis.Redis.from_pool(pool)  # closes the pool with it
        self.process = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()
        # room -> (read at, seats); generation bumps on every presence event of the room.
        self._presence: dict[str, tuple[float, set[int]]] = {}
        self._away_cache: dict[str, tuple[float, dict[int, datetime]]] = {}
        self._generation: dict[str, int] = {}
        self._presence_failing = False  # logged once per outage, not once per view
        self._publisher = Publisher(self._redis)
        self._channels = RoomChannels(
            self._redis, CHANNEL, CONTROL + self.process, self._room_message
        )
        # How this process's own events end (`publish` puts the origin last): with room
        # affinity nearly every event a process hears is its own.
        self._own_tail = json.dumps({"origin": self.process}, separators=(",", ":"))[1:]
        # The snapshot cache's rooms and how to drop one (keep_current).
        self._cached: Callable[[], Iterable[str]] = tuple
        self._forget: Callable[[str], None] = lambda room: None

    # -- life ------------------------------------------------------------------------------

    async def start(self) -> None:
        await self._heartbeat_once()
        self._tasks = [
            asyncio.create_task(self._listen_forever(), name="redis-hub-listen"),
            asyncio.create_task(self._heartbeat_forever(), name="redis-hub-heartbeat"),
        ]
        await asyncio.wait_for(self._ready.wait(), timeout=10)
        self._publisher.start()

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(RedisError, OSError):
            await self._forget_process(self.process, announce=True)
        await self._publisher.stop()
        await self._redis.aclose()

    # -- events ----------------------------------------------------------------------------

    async def publish(self, room: str, event: Event) -> None:
        """Deliver to this process's sockets now and to every other process via Redis.

        The event goes to Redis with the others that gathered meanwhile (app/hub/publisher.py),
        off the move's path. A committed move must not fail because Redis is briefly away: a
        failed batch is logged, local sockets still get the event, and the other processes
        catch up on their next event or their next heal round (app/rooms/healing.py).
        """
        self._note(room, event)
        self._deliver(room, event)
        sent = seal_event(self._cipher, room, event)
        message = json.dumps({**sent, "origin": self.process}, separators=(",", ":"))
        self._publisher.put(CHANNEL + room, message)

    def _note(self, room: str, event: Event) -> None:
        if event.get("kind") == "presence":
            self._generation[room] = self._generation.get(room, 0) + 1
            self._presence.pop(room, None)
            self._away_cache.pop(room, None)

    async def _listen_forever(self) -> None:
        delay = 0.1
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError):
                log.warning("lost the Redis subscription; retrying in %.1f s", delay)
            # Events may have been missed while away: forget every cached presence.
            self._presence.clear()
            self._away_cache.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _listen(self) -> None:
        async def subscribed() -> None:
            if self._ready.is_set():
                # Back after losing Redis (it may have restarted empty): say again which
                # seats this process holds, and tell their rooms.
                await self._reassert()
            self._ready.set()

        await self._channels.run(subscribed)

    def _room_message(self, room: str, data: str) -> None:
        if data.endswith(self._own_tail):
            return  # its own event, delivered locally when published: not even parsed
        try:
            heard: dict[str, Any] = json.loads(data)
            if heard.pop("origin", None) == self.process:
                return  # delivered locally when it was published
            if (event := open_event(self._cipher, room, heard)) is None:
                return
            M.hub_received.inc()
            self._note(room, event)
            self._deliver(room, event)
        except Exception:  # one bad message must not stop the fan-out
            log.exception("bad hub message")

    def subscribe(self, room: str, listener: Listener) -> Callable[[], None]:
        self._channels.want(room)  # its events come here from now on
        return super().subscribe(room, listener)

    def keep_current(
        self, rooms: Callable[[], Iterable[str]], forget: Callable[[str], None]
    ) -> None:
        """The snapshots cached here: `rooms()` lists them, `forget(room)` drops one."""
        self._cached, self._forget = rooms, forget

    def _reconcile(self) -> None:
        """Hear only the rooms with a socket here; drop the cached snapshots of the others.

        A room read for a request that landed here (no room affinity: a deploy, a dead
        process) is served from the cache until the next heartbeat, then read again when
        next asked: its events do not come here, so the cache would fall behind (a move
        would still be safe, through the compare-and-swap, but a view would be late)."""
        wanted = set(self._listeners)
        for room in self._channels.reconcile(wanted):
            self._presence.pop(room, None)
            self._away_cache.pop(room, None)
        for room in [r for r in self._cached() if r not in wanted]:
            self._forget(room)

    # -- presence --------------------------------------------------------------------------

    async def _reassert(self) -> None:
        await self._heartbeat_once()
        rooms = [room for room, seats in self._connections.items() if seats]
        pipe = self._redis.pipeline(transaction=False)
        for room in rooms:
            for seat, n in self._connections[room].items():
                pipe.hset(PRESENCE + room, f"{seat}:{self.process}", n)
            pipe.expire(PRESENCE + room, 86400)
            pipe.sadd(PROCESS_ROOMS + self.process, room)
        await pipe.execute()
        for room in rooms:
            await self.publish(room, {"kind": "presence"})

    async def connect(self, room: str, seat: int) -> None:
        # Subscribed before the socket's first view is read: no event falls in between.
        await self._channels.ready(room)
        self._count_socket(room, seat)
        pipe = self._redis.pipeline(transaction=False)
        pipe.hincrby(PRESENCE + room, f"{seat}:{self.process}", 1)
        pipe.expire(PRESENCE + room, 86400)
        pipe.sadd(PROCESS_ROOMS + self.process, room)
        pipe.hdel(AWAY + room, str(seat))
        await pipe.execute()
        await self.publish(room, {"kind": "presence"})

    async def disconnect(self, room: str, seat: int) -> None:
        self._uncount_socket(room, seat)
        field = f"{seat}:{self.process}"
        try:
            left = await self._redis.hincrby(PRESENCE + room, field, -1)
            if left <= 0:
                pipe = self._redis.pipeline(transaction=False)
                pipe.hdel(PRESENCE + room, field)
                pipe.hset(AWAY + room, str(seat), self.clock().isoformat())
                pipe.expire(AWAY + room, AWAY_TTL)
                await pipe.execute()
            if room not in self._connections:
                await self._redis.srem(PROCESS_ROOMS + self.process, room)
        finally:
            await self.publish(room, {"kind": "presence"})

    async def presence(self, room: str) -> set[int]:
        """Seats with an open connection on a live process.

        Without Redis (a timeout, an outage) the last presence read, or this process's own
        seats: a view with a stale dot beats a socket that sends no view at all."""
        cached = self._presence.get(room)
        now = time.monotonic()
        if cached is not None and now - cached[0] < PRESENCE_CACHE_SECONDS:
            return set(cached[1])
        try:
            seats = await self._read_presence(room, now)
        except (RedisError, OSError):
            if not self._presence_failing:
                log.warning("reading presence from Redis failed; using what this process knows")
            self._presence_failing = True
            if cached is not None:
                return set(cached[1])
            return {seat for seat, n in self._connections.get(room, {}).items() if n > 0}
        self._presence_failing = False
        return seats

    async def _read_presence(self, room: str, now: float) -> set[int]:
        generation = self._generation.get(room, 0)
        counts = await self._redis.hgetall(PRESENCE + room)
        owners: dict[str, set[int]] = {}
        for field, n in counts.items():
            seat, _, process = field.partition(":")
            if int(n) > 0:
                owners.setdefault(process, set()).add(int(seat))
        seats: set[int] = set()
        if owners:
            processes = sorted(owners)
            alive = await self._redis.mget([PROCESS + p for p in processes])
            for process, mark in zip(processes, alive, strict=True):
                if mark is not None or process == self.process:
                    seats |= owners[process]
        # Cached only while its events (which invalidate it) come here.
        if self._generation.get(room, 0) == generation and self._channels.listening(room):
            if len(self._presence) >= PRESENCE_CACHE_MAX:
                self._presence.clear()
            self._presence[room] = (now, seats)
        return set(seats)

    async def away_since(self, room: str) -> dict[int, datetime]:
        """When each seat without a socket on any live process lost its last one."""
        present = await self.presence(room)
        cached = self._away_cache.get(room)
        now = time.monotonic()
        if cached is None or now - cached[0] >= PRESENCE_CACHE_SECONDS:
            generation = self._generation.get(room, 0)
            try:
                stored = await self._redis.hgetall(AWAY + room)
            except (RedisError, OSError):
                # As presence does: a view with a stale away mark beats no view at all.
                marks = {} if cached is None else cached[1]
            else:
                marks = {int(seat): datetime.fromisoformat(at) for seat, at in stored.items()}
                if self._generation.get(room, 0) == generation and self._channels.listening(room):
                    if len(self._away_cache) >= PRESENCE_CACHE_MAX:
                        self._away_cache.clear()
                    self._away_cache[room] = (now, marks)
        else:
            marks = cached[1]
        return away_of(marks, present)

    def presence_now(self, room: str) -> Presence | None:
        """`presence` and `away_since` while both reads are fresh in this process's cache,
        else None (the fan-out then reads them in a task)."""
        seats, marks = self._presence.get(room), self._away_cache.get(room)
        if seats is None or marks is None:
            return None
        if time.monotonic() - min(seats[0], marks[0]) >= PRESENCE_CACHE_SECONDS:
            return None
        present = set(seats[1])
        return present, away_of(marks[1], present)

    async def claim(self, key: str, seconds: float) -> bool:
        """Whether this process holds `key`: it claimed it first in the last `seconds`, now
        or before (a turn of several moves claims once per move)."""
        try:
            if await self._redis.set(CLAIM + key, self.process, nx=True, px=int(seconds * 1000)):
                return True
            return bool(await self._redis.get(CLAIM + key) == self.process)
        except (RedisError, OSError):
            return True  # without Redis the compare-and-swap still lets one move land

    # -- liveness --------------------------------------------------------------------------

    async def _heartbeat_once(self) -> None:
        pipe = self._redis.pipeline(transaction=False)
        pipe.set(PROCESS + self.process, "1", ex=PROCESS_TTL)
        pipe.sadd(PROCESSES, self.process)
        await pipe.execute()

    async def _heartbeat_forever(self) -> None:
        rounds = 0
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self._heartbeat_once()
                self._reconcile()
                rounds += 1
                if rounds % 2 == 0:
                    await self._sweep()
            except (RedisError, OSError):
                log.warning("Redis heartbeat failed; retrying")

    async def _sweep(self) -> None:
        """Forget the presence of processes that stopped heartbeating (kill -9, lost host)."""
        processes = await self._redis.smembers(PROCESSES)
        others = sorted(p for p in processes if p != self.process)
        if not others:
            return
        alive = await self._redis.mget([PROCESS + p for p in others])
        for process, mark in zip(others, alive, strict=True):
            if mark is None:
                log.info("process %s is gone; clearing its presence", process)
                await self._forget_process(process, announce=True)

    async def _forget_process(self, process: str, *, announce: bool) -> None:
        rooms = await self._redis.smembers(PROCESS_ROOMS + process)
        suffix = f":{process}"
        for room in rooms:
            fields = [f for f in await self._redis.hkeys(PRESENCE + room) if f.endswith(suffix)]
            if fields:
                await self._redis.hdel(PRESENCE + room, *fields)
                # Its seats are away from now on, unless another process has them too.
                at = self.clock().isoformat()
                for field in fields:
                    await self._redis.hsetnx(AWAY + room, field.partition(":")[0], at)
                if announce:
                    await self.publish(room, {"kind": "presence"})
        pipe = self._redis.pipeline(transaction=False)
        pipe.delete(PROCESS_ROOMS + process, PROCESS + process)
        pipe.srem(PROCESSES, process)
        await pipe.execute()
