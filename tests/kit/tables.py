"""Helpers of the operator's tests (metrics, JSON logs, backups): tables that play on their
own over REST, every seat a greedy bot, recording each move's acknowledged version."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import pytest

import rules

T = TypeVar("T")

PLAYING = ("draw", "play")
VOTES = {"hand_over": "next_hand", "match_over": "new_match"}


def need_tool(name: str) -> str:
    """The path of a system tool the test needs (Debian's `prometheus`, `pg_dump`...):
    missing, the test fails under `make test` (RUMMY_TEST_REQUIRE_SERVICES=1), else skips."""
    path = shutil.which(name)
    if path is None:
        reason = f"{name} is not installed (apt-get install -y prometheus postgresql-client)"
        if os.environ.get("RUMMY_TEST_REQUIRE_SERVICES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


class Greedy:
    """The greedy bot's move for a seat's wire `state`."""

    def __init__(self, seed: int = 1) -> None:
        from bots import get_strategy

        self._strategy = get_strategy("greedy")
        self._rng = random.Random(seed)
        self._fields = set(rules.SeatView.model_fields)

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        view = rules.SeatView.model_validate({k: v for k, v in state.items() if k in self._fields})
        move = self._strategy.choose(view, list(rules.legal_moves(view)), self._rng)
        return rules.move_to_json(move)


@dataclass
class Table:
    """An online room whose seats all play from here."""

    base: str
    room: str
    tokens: list[str]
    acked: list[tuple[int, int]] = field(default_factory=list)  # (version made, seat)
    top: int = 0  # the newest version acknowledged here
    hands_done: int = 0

    @classmethod
    async def open(cls, http: httpx.AsyncClient, base: str, players: int = 2) -> Table:
        made = (await http.post(f"{base}/api/rooms", json={"players": players})).json()
        tokens = [made["token"]]
        for seat in range(1, players):
            joined = await http.post(
                f"{base}/api/rooms/{made['room']}/join", json={"name": f"p{seat}"}
            )
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
        return cls(base, made["room"], tokens)

    def _auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    async def state(self, http: httpx.AsyncClient, seat: int = 0) -> dict[str, Any]:
        r = await http.get(f"{self.base}/api/rooms/{self.room}/state", headers=self._auth(seat))
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def step(self, http: httpx.AsyncClient, bot: Greedy) -> None:
        """One move of the seat to act, or the votes that deal the next hand."""
        state = await self.state(http)
        if state["phase"] in VOTES:
            for seat in range(len(self.tokens)):
                vote = {"vote": VOTES[state["phase"]], "version": state["version"]}
                await http.post(
                    f"{self.base}/api/rooms/{self.room}/votes", json=vote, headers=self._auth(seat)
                )
            self.hands_done += 1
            return
        seat = state["turn"]
        mine = await self.state(http, seat)
        body = {"move": bot.choose(mine), "version": mine["version"]}
        r = await http.post(
            f"{self.base}/api/rooms/{self.room}/moves", json=body, headers=self._auth(seat)
        )
        assert r.status_code == 200, r.text
        version = int(r.json()["version"])
        self.acked.append((version, seat))
        self.top = max(self.top, version)

    async def play(self, http: httpx.AsyncClient, stop: asyncio.Event, seed: int = 1) -> None:
        """Play until `stop` is set."""
        bot = Greedy(seed)
        while not stop.is_set():
            await self.step(http, bot)

    async def play_hand(self, http: httpx.AsyncClient, seed: int = 1) -> None:
        """Play until the hand in play is over."""
        bot = Greedy(seed)
        while (await self.state(http))["phase"] in PLAYING:
            await self.step(http, bot)


Versions = dict[str, int]


async def while_playing(
    http: httpx.AsyncClient, base: str, action: Callable[[], Awaitable[T]], rooms: int = 4
) -> tuple[list[Table], Versions, Versions, T]:
    """Open `rooms` tables on `base` and play them; once each has a few moves, run
    `action` while they go on. Returns the tables, each room's acknowledged version before
    and after `action`, and what `action` returned."""
    tables = [await Table.open(http, base) for _ in range(rooms)]
    stop = asyncio.Event()
    players = [asyncio.create_task(t.play(http, stop, i)) for i, t in enumerate(tables)]
    try:
        while min(t.top for t in tables) < 3:
            await asyncio.sleep(0.05)
        before = {t.room: t.top for t in tables}
        result = await action()
        after = {t.room: t.top for t in tables}
    finally:
        stop.set()
        await asyncio.gather(*players)
    return tables, before, after, result
