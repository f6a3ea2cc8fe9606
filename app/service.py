"""The room service: create, join, and the one path every move and vote takes.

Move path (lila's guard, pure apply, save, publish):
    async with hub.lock(room):                       # orders writers in this process
        snap = load(room); check expiry and version
        new = rules.apply(snap.state, seat, move)    # raises IllegalMove, nothing written
        store.commit(snap, entry)                    # UPDATE ... WHERE version = v (CAS)
        hub.publish(room)                            # each socket gets its own view
        play the bots' turns, each through the same commit
An accepted move is committed before it is acknowledged or broadcast. A stand-in plays
through the same path (app/standin.py), and every commit carries the turn's deadline
(app/timers.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import rules
from app import computer, standin, timers
from app.botpool import BotPool
from app.config import Settings
from app.errors import (
    AppError,
    Forbidden,
    InvalidRequest,
    RoomExpired,
    RoomFull,
    StaleVersion,
    Unauthorized,
    WaitingForPlayers,
)
from app.hub import Hub
from app.marks import MarksBatcher
from app.persist import Commit, GroupCommitter, NewSeat, Snapshot, Store
from app.persist.records import (
    LogEntry,
    attendance_json,
    lowest_free_seat,
    mark_of,
    new_snapshot,
    seat_taken,
)
from app.pickups import discard_pickups
from app.reviews import Reviews
from app.snapshots import SnapshotCache
from app.views import (
    PLAYING,
    LogHand,
    LogMove,
    LogStandIn,
    LogVote,
    Presence,
    RecentMoves,
    RoomView,
    build_view,
    carry_seat_infos,
    view_text,
)
from bots.explain import explain

log = logging.getLogger("rummy.service")

Clock = Callable[[], datetime]
# The level whose move a hint suggests (API.md v1.1: the hard bot).
HINT_LEVEL = "hard"
# A bound on consecutive bot turns in one go, so a rules bug cannot spin forever.
MAX_BOT_TURNS = 2000
# How often a vote (no version) is re-applied after another process wrote its room first.
MAX_UNVERSIONED_RETRIES = 5


def utcnow() -> datetime:
    return datetime.now(UTC)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def seed_bytes(seed: int) -> bytes:
    """A fixed deal's integer seed as the 32 bytes rules.new_game takes."""
    return hashlib.sha256(f"rummy-fixed-seed:{seed}".encode()).digest()


class RoomService:
    def __init__(
        self,
        store: Store,
        hub: Hub,
        settings: Settings,
        clock: Clock = utcnow,
    ) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.clock = clock
        self._ttl = timedelta(days=settings.room_ttl_days)  # read by every socket's view
        self._rng = random.Random(secrets.randbits(64))
        # Bot decisions run off the event loop, so one bot's thinking stalls no other room.
        self.bots = BotPool(settings.bot_processes, settings.bot_budget_ms)
        self.reviews = Reviews()
        self._bot_tasks: set[asyncio.Task[None]] = set()
        # Away marks are made on this service's clock, which tests may replace.
        hub.clock = lambda: self.clock()
        # (room, seat) of owners whose return is being recorded: no stand-in move for them
        # meanwhile, even one already queued behind the room's lock (app/standin.py).
        self.returning: set[tuple[str, int]] = set()
        # Recent rooms' snapshots: the move path and the sockets' views read no database.
        self.snapshots = SnapshotCache(store.load, store.decode_state, on_newer=self._heard)
        hub.watch(self.snapshots.on_event)
        # Connects that check their room together share one read (app/marks.py).
        self._marks = MarksBatcher(store.marks)
        # Moves of different rooms that arrive together share one transaction.
        self.committer = GroupCommitter(store.writer, store.fallback)

    # -- reading ---------------------------------------------------------------------------

    @property
    def ttl(self) -> timedelta:
        return self._ttl

    async def snapshot(self, room_id: str, *, fresh: bool = False) -> Snapshot:
        """The room, from the snapshot cache or (`fresh`) the database.

        Raises RoomNotFound, RoomExpired."""
        cache = self.snapshots
        snap = await (cache.reload(room_id) if fresh else cache.get(room_id))
        if self._expired(snap):
            raise RoomExpired(f"room {room_id} expired after {self.settings.room_ttl_days:g} days")
        return snap

    def cached(self, room_id: str) -> Snapshot | None:
        """The room if it is cached and unexpired, else None: `snapshot` reads or raises."""
        snap = self.snapshots.peek(room_id)
        if snap is None or self._expired(snap):
            return None
        return snap

    def _expired(self, snap: Snapshot) -> bool:
        return self.clock() - snap.active_at > self.ttl

    async def current(self, room_id: str) -> Snapshot:
        """The room as the database has it now: the cached snapshot if its mark is still
        the database's (one small read), else read again. For reconnects and refusals,
        which must not trust a cache whose news may have been lost.

        Raises RoomNotFound, RoomExpired."""
        snap = await self.snapshot(room_id)
        if await self._marks.mark(room_id) == mark_of(snap):
            return snap
        return await self.snapshot(room_id, fresh=True)

    async def refresh(self, room_id: str) -> None:
        """Read the room again (`app.healing` found it behind): the read tells its sockets."""
        try:
            await self.snapshot(room_id, fresh=True)
        except AppError:
            # Expired or deleted meanwhile: the sockets read it and close.
            self.hub.notify(room_id, {"kind": "state"})

    def _heard(self, snap: Snapshot) -> None:
        """A read found news no event brought (it was lost): tell the room's sockets here,
        and play its bots if their turn came while nobody knew."""
        self.hub.notify(snap.id, {"kind": "state", "version": snap.version})
        self.wake_bots(snap.id, snap)

    async def authorize(self, room_id: str, token: str | None) -> int:
        """The seat `token` acts for in `room_id`.

        Raises RoomNotFound or RoomExpired first (the room is checked before the token),
        then Unauthorized (no or unknown token) or Forbidden (a token of another room).
        """
        snap = await self.snapshot(room_id)
        if not token:
            raise Unauthorized("a seat token is required")
        token_hash = hash_token(token)
        # The cached room holds its seats' token hashes: a connect storm reads no database.
        seat = snap.seat_of(token_hash)
        if seat is not None:
            return seat
        # Not in the cached room: tell 401 from 403, or find a seat taken through another
        # process whose news has not reached this one.
        found = await self.store.seat_of(token_hash)
        if found is None:
            raise Unauthorized("unknown seat token")
        if found[0] != room_id:
            raise Forbidden("this token belongs to another room")
        self.snapshots.forget(room_id)  # it missed that seat: read it again when next asked
        return found[1]

    async def view(
        self,
        room_id: str,
        seat: int,
        snap: Snapshot | None = None,
        presence: Presence | None = None,
    ) -> RoomView:
        """`seat`'s view; `presence` is the room's when the caller has read it already."""
        snap = snap or await self.snapshot(room_id)
        return build_view(snap, seat, presence or await self.presence(room_id))

    async def view_text(
        self,
        room_id: str,
        seat: int | None,
        snap: Snapshot | None = None,
        presence: Presence | None = None,
    ) -> str:
        """`seat`'s view as JSON text (None: a spectator's), built once per version for every
        socket and request that asks. Raises Forbidden for a spectator of a room that may
        not be watched."""
        snap = snap or await self.snapshot(room_id)
        if seat is None and not snap.spectators:
            raise Forbidden("this room does not allow spectators")
        return view_text(snap, seat, presence or await self.presence(room_id))

    async def presence(self, room_id: str) -> Presence:
        """Who has a socket in the room, and since when each other seat is away."""
        return await self.hub.presence(room_id), await self.hub.away_since(room_id)

    def presence_now(self, room_id: str) -> Presence | None:
        """`presence` where the hub knows it without a read, else None."""
        return self.hub.presence_now(room_id)

    async def hint(self, room_id: str, seat: int) -> tuple[rules.Move, dict[str, str]]:
        """The hard bot's move for `seat` from its own view, and why (`bots.explain`).

        Raises NotYourTurn on another seat's turn, WrongPhase when no hand is being played."""
        snap = await self.snapshot(room_id)
        view = rules.seat_view(snap.state, seat)
        if view.phase not in PLAYING:
            raise rules.WrongPhase("there is no move to suggest: the hand is not being played")
        if view.turn != seat:
            raise rules.NotYourTurn(f"it is seat {view.turn}'s turn, not seat {seat}'s")
        move = await self.bots.choose(room_id, HINT_LEVEL, view, played=False)
        return move, explain(view, move)

    async def review(self, room_id: str, seat: int, hand: int) -> list[dict[str, Any]] | None:
        """`seat`'s review of finished hand `hand` (None while it is being computed).

        Raises WrongPhase when that hand is not finished (or not in the log)."""
        key = (room_id, hand, seat)
        done = self.reviews.get(key)
        if done is not None:
            return done
        found = [h for h in await self.hand_log(room_id) if h.hand == hand]
        if not found:
            raise rules.WrongPhase(f"hand {hand} is not a finished hand of this room")

        async def run(fn: Callable[[str], list[dict[str, Any]]], arg: str) -> Any:
            return await self.bots.run(room_id, fn, arg)

        self.reviews.start(key, found[0], run)
        return None

    # -- creating and joining --------------------------------------------------------------

    async def create(
        self,
        *,
        variant: str,
        players: int | None,
        mode: str,
        name: str,
        bots: dict[str, str],
        seed: int | None,
        deal: rules.Deal | None,
        limit: int | None = None,
        spectators: bool = True,
        turn_seconds: int | None = None,
    ) -> tuple[str, list[str | None]]:
        """A new room; returns its id and the token of every human seat (None for bots).
        `limit` is the penalty limit of a variant scored by penalties (rummy51)."""
        if (seed is not None or deal is not None) and not self.settings.allow_fixed_deals:
            raise Forbidden("fixed deals are turned off on this server")
        if variant not in rules.VARIANTS:
            raise InvalidRequest(f"unknown variant {variant!r}; see GET /api/variants")
        ruleset = rules.get_variant(variant)
        low, high = players_range(ruleset)
        players = low if players is None else players
        if not low <= players <= high:
            raise InvalidRequest(f"{variant} takes {low} to {high} players")
        if limit is not None and limit not in ruleset.penalty_limits:
            raise InvalidRequest(f"limit: {variant} takes none of {limit}; see GET /api/variants")
        seat_bots = self._seat_bots(mode, players, bots)
        state = rules.new_game(
            variant,
            players,
            seed=seed_bytes(seed) if seed is not None else secrets.token_bytes(32),
            deal=deal,
            limit=limit,
        )
        tokens: list[str | None] = []
        seats: list[NewSeat] = []
        for i in range(players):
            bot = seat_bots.get(i)
            human_here = i == 0 or (mode == "local" and bot is None)
            token = new_token() if human_here else None
            tokens.append(token)
            seat_name = name if i == 0 else (f"Player {i + 1}" if human_here else None)
            if bot is not None:
                seat_name = f"{bot.capitalize()} bot"
            seats.append(
                NewSeat(name=seat_name, token_hash=hash_token(token) if token else None, bot=bot)
            )
        room_id = secrets.token_urlsafe(9)  # 72 bits
        now = self.clock()
        # A room full from the start (local, computer) starts its first turn's timer now;
        # an online room when its last seat is taken (`join`).
        full = all(t is not None or i in seat_bots for i, t in enumerate(tokens))
        first_bot = state.turn in seat_bots
        deadline = now + timedelta(seconds=turn_seconds) if turn_seconds else None
        room = new_snapshot(
            room_id,
            variant=variant,
            players=players,
            mode=mode,
            state=state,
            seats=seats,
            now=now,
            spectators=spectators,
            turn_seconds=turn_seconds,
            turn_deadline=deadline if full and not first_bot else None,
        )
        await self.store.create(room)
        # Cached as written: the creator's first socket (and in a storm, thousands of them)
        # is authorized and sent its view without reading the room back.
        self.snapshots.put(room)
        log.info("room created: %s %s %d players", mode, variant, players)
        return room_id, tokens

    def _seat_bots(self, mode: str, players: int, bots: dict[str, str]) -> dict[int, str]:
        seat_bots: dict[int, str] = {}
        for key, strategy in bots.items():
            if not key.isdigit() or not 1 <= int(key) < players:
                raise InvalidRequest(f"bots: seat {key!r} must be a number from 1 to {players - 1}")
            if not computer.is_known(strategy):
                raise InvalidRequest(f"bots: unknown strategy {strategy!r}")
            seat_bots[int(key)] = strategy
        if mode == "computer":
            for i in range(1, players):
                seat_bots.setdefault(i, computer.DEFAULT)
        return seat_bots

    async def join(self, room_id: str, name: str | None) -> tuple[int, str]:
        snap = await self.snapshot(room_id)
        token = new_token()
        token_hash = hash_token(token)
        now = self.clock()
        deadline = timers.first_deadline(snap, now)
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
            event.update(version=joined.version, taken=mark_of(joined)[1])
        await self.hub.publish(room_id, event)
        return seat, token

    # -- the move path ---------------------------------------------------------------------

    async def move(
        self, room_id: str, seat: int, move: rules.Move, version: int | None
    ) -> RoomView:
        """Apply `move`; returns the seat's view after it (and after any bot turns)."""
        await self.play(room_id, seat, move, version)
        return await self.view(room_id, seat)

    async def play(self, room_id: str, seat: int, move: rules.Move, version: int | None) -> None:
        """Apply `move` and build no view: a websocket gets its view with everyone else's."""

        def apply(state: rules.GameState, snap: Snapshot) -> rules.GameState:
            return rules.apply(state, seat, move)

        # A move from the owner is the owner back: the stand-in ends first.
        version = await standin.end(self, room_id, seat, version)
        payload = rules.move_to_json(move)
        await self._act(room_id, seat, version, "move", payload, apply)

    async def vote(
        self, room_id: str, seat: int, kind: rules.VoteKind, version: int | None
    ) -> RoomView:
        await self.cast(room_id, seat, kind, version)
        return await self.view(room_id, seat)

    async def cast(
        self, room_id: str, seat: int, kind: rules.VoteKind, version: int | None
    ) -> None:
        """Vote, building no view (see `play`).

        A vote that asks for what already happened changes nothing and is no error (README,
        "Votes"): a double click or a resent frame must not deal again. Raises
        StaleVersion only for a version the room has not reached."""
        async with self.hub.lock(room_id):
            for attempt in range(MAX_UNVERSIONED_RETRIES + 1):
                snap = await self.snapshot(room_id, fresh=attempt > 0)
                if version is not None and version > snap.version:
                    # The client may have seen a newer version through another process.
                    snap = await self.snapshot(room_id, fresh=True)
                    if version > snap.version:
                        message = f"version {version} is ahead of the room"
                        raise await self._stale(room_id, seat, message)
                if snap.is_waiting:
                    raise WaitingForPlayers("wait until every seat is taken")
                if await self._is_spent_vote(snap, seat, kind, version):
                    return
                state = rules.vote(snap.state, seat, kind, _voters(snap, seat, kind))
                entry = Commit(seat=seat, kind="vote", payload={"vote": kind}, state=state)
                try:
                    await self._commit(snap, entry)
                except StaleVersion:
                    # Another process wrote the room first: judge the vote again on the
                    # room as it is now (it may have become a repeat).
                    if attempt == MAX_UNVERSIONED_RETRIES:
                        raise
                    continue
                break
            await self._play_bots(room_id)

    async def _is_spent_vote(
        self, snap: Snapshot, seat: int, kind: rules.VoteKind, version: int | None
    ) -> bool:
        """Whether this vote would only repeat one already counted or carried out."""
        state = snap.state
        votes = state.votes.next_hand if kind == "next_hand" else state.votes.new_match
        if seat in votes:
            return True  # counted already: recording it again would only bump the version
        if version is None:
            return _repeats_last_deal(state, kind)
        # A vote made on a view of an earlier hand was about that hand: once a hand has been
        # dealt since (by this vote's twin or any other), it has nothing left to ask.
        return version < snap.version and version < await self._hand_dealt_at(snap)

    async def _hand_dealt_at(self, snap: Snapshot) -> int:
        """The version at which the room's current hand was dealt (one indexed read: only a
        vote made on an older view asks; reading the whole log here made every such vote
        cost as much as the room's history)."""
        if snap.hand_seq == 0:
            return 0
        return await self.store.hand_started_at(snap.id, snap.hand_seq)

    async def _act(
        self,
        room_id: str,
        seat: int,
        version: int | None,
        kind: str,
        payload: dict[str, Any],
        apply: Callable[[rules.GameState, Snapshot], rules.GameState],
    ) -> None:
        async with self.hub.lock(room_id):
            for attempt in range(MAX_UNVERSIONED_RETRIES + 1):
                snap, new_state = await self._decide(room_id, seat, version, apply, attempt > 0)
                entry = Commit(seat=seat, kind=kind, payload=payload, state=new_state)
                try:
                    await self._commit(snap, entry)
                except StaleVersion:
                    # Another process wrote the room first. An action without a version
                    # (a vote) means "on whatever is current": apply it again there.
                    if version is not None or attempt == MAX_UNVERSIONED_RETRIES:
                        raise
                    continue
                break
            await self._play_bots(room_id)

    async def _decide(
        self,
        room_id: str,
        seat: int,
        version: int | None,
        apply: Callable[[rules.GameState, Snapshot], rules.GameState],
        fresh: bool,
    ) -> tuple[Snapshot, rules.GameState]:
        """The room the action applies to and the state after it.

        A refusal on the cached room is decided again on the database's: the cache may lack
        news whose event was lost (or that the client saw through another process), and a
        stale cache must neither turn a valid action away nor keep the room frozen.
        """
        snap = await self.snapshot(room_id, fresh=fresh)
        if not fresh:
            try:
                return snap, _apply_on(snap, version, apply)
            except (StaleVersion, WaitingForPlayers, rules.IllegalMove):
                snap = await self.current(room_id)
        try:
            return snap, _apply_on(snap, version, apply)
        except StaleVersion as exc:
            raise await self._stale(room_id, seat, str(exc)) from None

    async def _stale(self, room_id: str, seat: int, message: str) -> StaleVersion:
        view = await self.view(room_id, seat)
        return StaleVersion(
            f"{message}: the room is at version {view.version}", state=view.model_dump(mode="json")
        )

    async def commit(self, snap: Snapshot, entry: Commit) -> None:
        """Persist one entry made on `snap` and tell every socket (the one write path).

        Raises StaleVersion (with the seat's view) when another move landed first."""
        await self._commit(snap, entry)

    async def _commit(self, snap: Snapshot, entry: Commit) -> None:
        now = self.clock()
        entry = timers.with_deadline(snap, _mark_hands(snap, entry), now)
        try:
            version = await self.committer.commit(snap, entry, now)
        except StaleVersion:
            self.snapshots.forget(snap.id)
            raise await self._stale(snap.id, entry.seat, "another move was applied first") from None
        hand_seq = snap.hand_seq + (1 if entry.new_hand_start is not None else 0)
        seats = snap.seats if entry.seats is None else entry.seats
        after = replace(
            snap,
            version=version,
            state=entry.state,
            hand_seq=hand_seq,
            active_at=now,
            seats=seats,
            turn_deadline=entry.turn_deadline,
        )
        carry_seat_infos(snap, after)
        self.snapshots.put(after)
        # The event carries what changed, so other processes (RedisHub) update their cached
        # snapshot of this room instead of reading it back from the database.
        event = {
            "kind": "state",
            "version": version,
            "state": self.store.stored_state(snap.id, entry),
            "hand_seq": hand_seq,
            "active_at": now.isoformat(),
            "turn_deadline": entry.turn_deadline.isoformat() if entry.turn_deadline else None,
            "attendance": attendance_json(seats),
        }
        await self.hub.publish(snap.id, event)

    async def play_computer_turns(self, room_id: str) -> None:
        """Play the bots' and stand-ins' turns that are due; the caller holds the room's lock."""
        await self._play_bots(room_id)

    async def bot_turn(
        self, room_id: str, name: str, state: rules.GameState, seat: int
    ) -> tuple[rules.Move, rules.GameState]:
        """The move bot `name` makes for `seat`, chosen from that seat's view only and off
        the event loop (app/botpool.py), and the state after it: a computer seat, a
        stand-in and the turn timer all play through here."""
        view = rules.seat_view(state, seat)
        move = await self.bots.choose(room_id, name, view)
        try:
            return move, rules.apply(state, seat, move)
        except rules.IllegalMove:
            log.warning("bot %s chose an illegal move; playing the fallback", name)
            move = computer.fallback_move(view, self._rng)
            return move, rules.apply(state, seat, move)

    async def _play_bots(self, room_id: str) -> None:
        """Play every consecutive bot turn now, each as its own committed move."""
        for _ in range(MAX_BOT_TURNS):
            snap = await self.snapshot(room_id)
            seat = bot_to_move(snap)
            if seat is None:
                return
            name = snap.bot_seats.get(seat)
            if name is None:  # a stand-in: only while its owner is away, one process only
                if not await standin.may_play(self, snap, seat):
                    return
                name = snap.stand_ins[seat]
            move, new_state = await self.bot_turn(room_id, name, snap.state, seat)
            entry = Commit(
                seat=seat, kind="move", payload=rules.move_to_json(move), state=new_state
            )
            try:
                await self._commit(snap, entry)
            except StaleVersion:
                # Another process played this turn (the claim keeps stand-ins from this).
                log.info("a computer turn lost its compare-and-swap to another writer")
                return

    def wake_bots(self, room_id: str, snap: Snapshot) -> None:
        """If a bot is to move (say after a restart cut its turn short), play it soon."""
        if bot_to_move(snap) is None:
            return

        async def run() -> None:
            async with self.hub.lock(room_id):
                await self._play_bots(room_id)

        task = asyncio.create_task(run())
        self._bot_tasks.add(task)
        task.add_done_callback(self._bot_tasks.discard)

    # -- the log and expiry ----------------------------------------------------------------

    async def moves_since(self, room_id: str, since: int) -> RecentMoves:
        """The moves of the hand in play made after version `since` (before it: none; a
        hand dealt since starts the list afresh). Only what every seat saw: the log's moves,
        whose stock draws name no card."""
        snap = await self.current(room_id)
        # The whole hand: a pickup's card is the discard before it (app/pickups.py).
        entries = await self.store.entries_since(snap.id, snap.hand_seq, 0)
        moves = _log_moves(entries, rules.hand_start(snap.state))
        return RecentMoves(
            room=snap.id,
            hand_number=snap.state.hand_number,
            since=since,
            moves=[m for m in moves if m.version > since],
        )

    async def hand_log(self, room_id: str) -> list[LogHand]:
        hands = []
        for hand, entries in await self.store.finished_hands(room_id):
            start = rules.GameState.model_validate_json(hand.start)
            # The match seed derives every later hand: only this hand's own seed is shown.
            start = start.model_copy(update={"seed": "0" * len(start.seed)})
            moves = _log_moves(entries, start)
            votes = [
                LogVote(version=e.version, seat=e.seat, vote=json.loads(e.move)["vote"])
                for e in entries
                if e.kind == "vote"
            ]
            stand_ins = [
                LogStandIn(version=e.version, seat=e.seat, stand_in=json.loads(e.move)["stand_in"])
                for e in entries
                if e.kind == standin.KIND
            ]
            end = rules.replay(start, [(m.seat, m.move) for m in moves])
            result = end.hand_result
            hands.append(
                LogHand(
                    hand=hand.seq,
                    start=start,
                    start_version=hand.start_version,
                    end_version=hand.end_version or 0,
                    moves=moves,
                    votes=votes,
                    stand_ins=stand_ins,
                    result=result,
                )
            )
        return hands

    async def purge(self) -> int:
        purged = await self.store.purge(self.clock() - self.ttl)
        if purged:
            self.snapshots.clear()  # gone rooms answer 404, not 410 from a cached entry
        return purged


def players_range(ruleset: Any) -> tuple[int, int]:
    """(fewest, most) players of a rule set."""
    for low_name, high_name in (("min_players", "max_players"), ("players_min", "players_max")):
        if hasattr(ruleset, low_name):
            return int(getattr(ruleset, low_name)), int(getattr(ruleset, high_name))
    players = ruleset.players
    return int(players[0]), int(players[-1])


def bot_to_move(snap: Snapshot) -> int | None:
    """The seat a computer plays now: a bot's, or a stand-in's (app/standin.py)."""
    # Read straight from the state (the seat view shows the same phase and turn): this
    # runs after every move.
    state = snap.state
    if state.phase not in PLAYING or snap.is_waiting:
        return None
    if state.turn in snap.bot_seats or snap.seats[state.turn].stand_in:
        return state.turn
    return None


def _voters(snap: Snapshot, seat: int, kind: rules.VoteKind) -> frozenset[int]:
    # Bots always agree, so only humans vote; in a local room the holder decides. A seat
    # played by a stand-in agrees to the next hand like a bot, but a new match (which
    # wipes its owner's score) waits for its owner (app/standin.py).
    if snap.mode == "local":
        return frozenset({seat})
    return frozenset(
        s.seat
        for s in snap.seats
        if s.bot is None and not (kind == "next_hand" and s.stand_in and s.seat != seat)
    )


def _log_moves(entries: list[LogEntry], start: rules.GameState) -> list[LogMove]:
    """The moves among a hand's log entries (from `start`, the hand as dealt), as the log and
    the recent moves show them: discard draws name their card."""
    moves = [
        LogMove(version=e.version, seat=e.seat, move=rules.parse_move(json.loads(e.move)))
        for e in entries
        if e.kind == "move"
    ]
    cards = discard_pickups(start, [(m.seat, m.move) for m in moves])
    return [
        m.model_copy(update={"card": cards[i]}) if i in cards else m for i, m in enumerate(moves)
    ]


def _repeats_last_deal(state: rules.GameState, kind: rules.VoteKind) -> bool:
    """An unversioned vote arriving on a hand that its kind of vote has just dealt, before
    anyone moved in it, is taken as a repeat of the vote that dealt it (a v1 client
    double-clicking): "new_match" on a new match's untouched first hand, "next_hand" on an
    untouched later hand (where v1 answered 409 wrong_phase)."""
    if state.phase not in PLAYING or state.last_move is not None:
        return False
    if kind == "new_match":
        return state.match_number > 1 and state.hand_number == 1
    return state.hand_number > 1


def _apply_on(
    snap: Snapshot,
    version: int | None,
    apply: Callable[[rules.GameState, Snapshot], rules.GameState],
) -> rules.GameState:
    """Raises StaleVersion (a bare one: the caller adds the view), WaitingForPlayers or
    rules.IllegalMove."""
    if version is not None and version != snap.version:
        raise StaleVersion(f"version {version} is stale")
    if snap.is_waiting:
        raise WaitingForPlayers("wait until every seat is taken")
    return apply(snap.state, snap)


def _mark_hands(snap: Snapshot, entry: Commit) -> Commit:
    """Note whether this entry ends the current hand and whether it deals a new one."""
    before, after = snap.state, entry.state  # phase as every seat view shows it
    was_playing = before.phase in PLAYING
    new_hand = None
    if entry.kind == "vote" and after.phase in PLAYING:
        if not was_playing or rules.hand_start(entry.state) != rules.hand_start(snap.state):
            new_hand = rules.hand_start(entry.state).model_dump_json()
    # A hand ends when it is scored, or when a new match abandons it halfway.
    ended = was_playing and (after.phase not in PLAYING or new_hand is not None)
    if ended == entry.hand_ended and new_hand == entry.new_hand_start:
        return entry  # a move within a hand, nearly every entry: no copy (2.7 us each)
    return replace(entry, hand_ended=ended, new_hand_start=new_hand)
