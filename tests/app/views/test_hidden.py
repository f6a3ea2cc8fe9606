"""Hidden information over many random hands: no REST response, websocket frame, error
body or log entry shows a seat another seat's cards, the stock or a seed before the hand
ends. The test deals the same seeded hands itself with `rules` to know the truth."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import rules
from app.rooms.tokens import fixed_match_seed
from tests.kit.clients import Api
from tests.kit.servers import LiveServer

CARD = re.compile(r'"((?:[A2-9TJQK][CDHS])|JK)"')
OVER = ("hand_over", "match_over")
# Random hands can run to the turn limit; this many moves per hand keeps the suite short.
MAX_MOVES = 60


class Truth:
    """The real game, replayed beside the server, and what has been public so far."""

    def __init__(self, variant: str, players: int, seed: int) -> None:
        self.states = [rules.new_game(variant, players, seed=fixed_match_seed(seed))]
        self.players = players
        self.public: list[set[str]] = [self._table(self.states[0])]

    @staticmethod
    def _table(state: rules.GameState) -> set[str]:
        view = rules.seat_view(state, 0)
        cards = {c for meld in view.melds for c in meld.cards}
        if view.last_move is not None:  # a discard may vanish into a rebuilt stock at once
            cards |= set(CARD.findall(json.dumps(view.last_move.move)))
        return cards | ({view.discard_top} if view.discard_top else set())

    def apply(self, seat: int, move: rules.Move) -> None:
        state = rules.apply(self.states[-1], seat, move)
        self.states.append(state)
        # Once on the table or the pile a card stays public knowledge (even if taken back).
        self.public.append(self.public[-1] | self._table(state))

    def secrets_for(self, seat: int, version: int) -> set[str]:
        """Cards `seat` must not see at `version`: other hands and the stock, minus
        anything public or in its own hand (two decks share codes)."""
        state = self.states[version]
        own = set(rules.seat_view(state, seat).hand)
        hidden = set(state.stock)
        for other in range(self.players):
            if other != seat:
                hidden |= set(rules.seat_view(state, other).hand)
        return hidden - own - self.public[version]

    def seeds(self, version: int) -> list[str]:
        state = self.states[version]
        return [str(state.seed), str(state.hand_seed)]


def check(truth: Truth, seat: int, payload: Any, where: str) -> None:
    """No secret of `seat` in `payload` (a view, a frame, an error body)."""
    text = json.dumps(payload)
    view = payload.get("state", payload) if isinstance(payload, dict) else payload
    if not isinstance(view, dict) or "version" not in view:
        assert not CARD.search(text), f"{where}: cards in a frame without a view: {text}"
        return
    version = view["version"]
    assert view["seat"] == seat, f"{where}: seat {seat} got seat {view['seat']}'s view"
    for seed in truth.seeds(version):
        assert seed not in text, f"{where}: a seed is visible"
    if view["phase"] in OVER:
        return  # every hand is revealed for scoring
    assert sorted(view["hand"]) == sorted(rules.seat_view(truth.states[version], seat).hand)
    # A joker's `stands_for` names the card it plays as: public, and not a card anyone holds.
    table = [{**m, "stands_for": []} for m in view.get("melds", [])]
    shown = set(CARD.findall(json.dumps({**view, "melds": table})))
    leaked = shown & truth.secrets_for(seat, version)
    assert not leaked, f"{where}: seat {seat} sees {sorted(leaked)} at version {version}: {text}"


def choose(legal: list[rules.Move], rng: random.Random) -> rules.Move:
    """Play to end hands soon: meld or lay off when possible, else draw, else discard."""
    for kinds in ((rules.Meld, rules.LayOff, rules.Swap), (rules.Draw,), (rules.Discard,)):
        options = [m for m in legal if isinstance(m, kinds)]
        if options:
            return rng.choice(options)
    return rng.choice(legal)


async def collect(url: str, frames: list[dict[str, Any]]) -> None:
    with contextlib.suppress(ConnectionClosed):
        async with connect(url) as ws:
            async for message in ws:
                frames.append(json.loads(message))


async def play_random_hand(
    api: Api, server: LiveServer, variant: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    created = (await api.create(variant=variant, players=players, mode="local", seed=seed)).json()
    room, tokens = created["room"], created["tokens"]
    truth = Truth(variant, players, seed)
    frames: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    readers = [
        asyncio.create_task(collect(f"{server.ws_url}/api/rooms/{room}/ws?token={t}", frames[s]))
        for s, t in enumerate(tokens)
    ]
    summary = (await api.summary(room)).json()
    assert not CARD.search(json.dumps(summary)), "cards in the public summary"
    view = (await api.state(room, tokens[0])).json()
    for step in range(MAX_MOVES):
        if view["phase"] in OVER:
            break
        turn = view["turn"]
        view = (await api.state(room, tokens[turn])).json()
        check(truth, turn, view, "GET state")
        # The room's own fields (room, version, seats, turn_deadline, ...) are not the seat's.
        fields = rules.SeatView.model_fields
        seat_view = rules.SeatView.model_validate({k: v for k, v in view.items() if k in fields})
        move = choose(list(rules.legal_moves(seat_view)), rng)
        if step % 10 == 0:  # someone else tries to move, or a stale tab does: error bodies
            other = (turn + 1) % players
            wrong = await api.move(room, tokens[other], rules.move_to_json(move), view["version"])
            assert wrong.status_code == 409
            check(truth, other, wrong.json(), "not_your_turn body")
            stale = await api.move(
                room, tokens[other], rules.move_to_json(move), view["version"] + 5
            )
            assert stale.json()["error"]["code"] == "stale_version"
            check(truth, other, stale.json(), "stale_version body")
            log = await api.log(room, tokens[other])
            assert log.json()["hands"] == [], "the log shows the hand in play"
        response = await api.move(room, tokens[turn], rules.move_to_json(move), view["version"])
        assert response.status_code == 200, response.text
        truth.apply(turn, move)
        view = response.json()
        check(truth, turn, view, "move response")
    last = view["version"]
    for seat, token in enumerate(tokens):
        check(truth, seat, (await api.state(room, token)).json(), "final state")
    log = (await api.log(room, tokens[0])).json()
    ended = view["phase"] in OVER
    assert len(log["hands"]) == int(ended)
    if ended:
        assert log["hands"][0]["end_version"] == last
    assert str(truth.states[0].seed) not in json.dumps(log), "the log shows the match seed"
    # Wait until every socket saw the last version, then check every frame it got.
    for seat, got in enumerate(frames):
        for _ in range(500):
            if any(f.get("type") == "state" and f["state"]["version"] == last for f in got):
                break
            await asyncio.sleep(0.02)
        for frame in got:
            check(truth, seat, frame, f"websocket frame {frame.get('type')}")
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)


@pytest.mark.parametrize(
    ("variant", "players", "seeds"),
    [
        ("classic", 2, range(100, 103)),
        ("basic", 3, range(200, 203)),
        ("rummy51", 2, range(300, 302)),
    ],
)
async def test_no_seat_sees_another_seats_cards(
    live_server: LiveServer, variant: str, players: int, seeds: range
) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        for seed in seeds:
            await play_random_hand(Api(http), live_server, variant, players, seed)
