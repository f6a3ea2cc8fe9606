"""What the hidden-information audits share (tests/hostile/test_audit.py, a seat's side,
and tests/hostile/test_spectator_audit.py, a spectator's): how far they go (`SCALE` hands
at every table of `scenarios.EVERY_TABLE`), the greedy bot that plays the seats, and
`ServerTruth`, the server's true state of a room at each version it reached."""

from __future__ import annotations

import os
import random

import httpx

import rules
from bots import get_strategy
from tests.kit.leaks import public_cards
from tests.kit.servers import LiveServer

# `RUMMY_AUDIT_HANDS` scales every audit (default 1).
SCALE = max(1, int(os.environ.get("RUMMY_AUDIT_HANDS", "1")))
# The audits' seats play the greedy bot, from what their own view shows, with the audit's
# own random generator.
GREEDY = get_strategy("greedy")


class ServerTruth:
    """A room played on a real server and audited: the server's true state at each version
    read (from inside the server), the cards seen in the open so far, and how many texts the
    audit has checked."""

    def __init__(self, live: LiveServer, http: httpx.AsyncClient, rng: random.Random) -> None:
        self.live = live
        self.http = http
        self.rng = rng
        self.truth: dict[int, rules.GameState] = {}  # version -> the server's real state
        self.public: set[str] = set()
        self.checked = 0

    async def true_state(self, room: str) -> tuple[int, rules.GameState]:
        """The room's version and state as the server holds them now, recorded."""
        game = self.live.app.state.service
        snap = await self.live.call(lambda: game.snapshot(room))
        self.truth[snap.version] = snap.state
        self.public |= public_cards(snap.state)
        return snap.version, snap.state
