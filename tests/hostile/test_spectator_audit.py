"""The spectator leak audit: over random hands of every variant on the real server, bots
playing each seat through the API with a spectator socket attached, nothing the spectator
gets (socket frames, `GET /watch`) names a card of any hand or of the stock, or a seed,
before the hand ends.

A spectator may know only what every seat knows: the discard pile, the table and a card
taken from the pile. `RUMMY_AUDIT_HANDS` scales it like tests/hostile/test_audit.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from websockets.asyncio.client import connect

import rules
from tests.kit.audits import GREEDY, SCALE, ServerTruth
from tests.kit.clients import Socket, bearer
from tests.kit.leaks import cards_in, public_cards
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.scenarios import EVERY_TABLE
from tests.kit.servers import LiveServer


def secret_cards(state: rules.GameState, public: set[str]) -> set[str]:
    """Cards no spectator may learn of: every hand's and the stock's, except those seen in
    the open this hand (rummy51's two packs: a copy may be public while its twin is held)."""
    hidden = set(state.stock).union(*state.hands)
    return hidden - public_cards(state) - public


class SpectatorAudit(ServerTruth):
    """The server's true state of each room, checked from a spectator's side."""

    def check_watched(self, text: str, version: int) -> None:
        state = self.truth[version]
        self.checked += 1
        if state.hand_result is not None:
            return  # the hand is over: its result shows every hand
        assert state.hand_seed not in text and state.seed not in text
        found = set(cards_in(text)) & secret_cards(state, self.public)
        assert not found, (version, found, text[:2000])

    def check_view(self, view: dict[str, Any], version: int) -> None:
        assert view["seat"] is None and view["hand"] == [] and view["legal"] is None
        assert view["hand_counts"] == [len(h) for h in self.truth[version].hands]
        self.check_watched(json.dumps(view), version)

    async def watch(self, variant: str, players: int) -> None:
        room, tokens = await online_room(self.http, variant, players)
        version, state = await self.true_state(room)
        url = f"{self.live.ws_url}/api/rooms/{room}/ws?watch=1"
        async with connect(url, max_size=None) as ws:
            spectator = Socket(ws)
            self.check_view(await spectator.state(version), version)
            while state.hand_result is None:
                seat = state.turn
                view = ok(
                    await self.http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[seat]))
                )
                fields = rules.SeatView.model_fields
                seat_view = rules.SeatView.model_validate(
                    {k: v for k, v in view.items() if k in fields}
                )
                legal = list(rules.legal_moves(seat_view))
                if self.rng.random() < 0.9:
                    move = GREEDY.choose(seat_view, legal, self.rng)
                else:
                    move = self.rng.choice(legal)
                ok(
                    await self.http.post(
                        f"/api/rooms/{room}/moves",
                        json={"move": rules.move_to_json(move), "version": version},
                        headers=bearer(tokens[seat]),
                    )
                )
                version, state = await self.true_state(room)
                # Live: the spectator is told of every move as it happens.
                self.check_view(await spectator.state(version), version)
                if self.rng.random() < 0.2:
                    watched = await self.http.get(f"/api/rooms/{room}/watch")
                    self.check_view(ok(watched), version)
            for frame in spectator.frames:
                at = frame["state"]["version"] if frame["type"] == "state" else version
                self.check_watched(json.dumps(frame), at)


async def test_a_spectator_never_sees_a_hidden_card(live_server: LiveServer) -> None:
    tables = EVERY_TABLE * SCALE
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        audit = SpectatorAudit(live_server, http, random.Random(5151))
        for variant, players in tables:
            await audit.watch(variant, players)
    assert audit.checked > 50 * len(tables)
