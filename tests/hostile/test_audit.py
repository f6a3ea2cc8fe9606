"""The hidden-information audit: no view, frame, error or log a seat receives names another
seat's card or a stock card (so neither the stock's order) before the hand ends, and no
seed shows before its hand is over.

Two levels:
- the rules' view layer, which every answer of the server is made from: thousands of
  random hands of every variant and player count, each seat's view checked at sampled
  moments and after every reshuffle and hand end, with illegal moves naming hidden cards;
- the real server over HTTP and websockets, one token and one socket per seat: random
  hands of every variant, every frame each socket received, REST views, error answers and
  the log, checked against the server's true state at that version. Finished hands are
  then checked with `rummy verify`'s `verify_log`.

`RUMMY_AUDIT_HANDS` scales both (default 1: 2,050 view-layer hands and 7 live ones).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterable
from typing import Any

import httpx
import pytest

import rules
from app.records.verify import verify_log
from rules import playout
from rules.cards import int_to_code
from rules.shuffle import commitment
from tests.kit.audits import GREEDY, SCALE, ServerTruth
from tests.kit.clients import bearer, seat_socket
from tests.kit.leaks import leaks
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.scenarios import EVERY_TABLE
from tests.kit.servers import LiveServer

# The engine's audit picks mostly melds and lay-offs, so its hands end sooner. (Over the
# real server, slower, the seats play the greedy bot from what their own view shows.)
PLAYS = (playout.MELD, playout.LAYOFF, playout.SWAP)


def _pick(moves: list[Any], rng: random.Random) -> Any:
    """Mostly melds and lay-offs (hands end sooner), sometimes anything legal."""
    plays = [m for m in moves if m[0] in PLAYS]
    return rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(moves)


def _probes(state: rules.GameState, seat: int, rng: random.Random) -> list[rules.Move]:
    """Illegal moves that name cards `seat` cannot see, to read the errors they get."""
    hidden = [c for i, h in enumerate(state.hands) if i != seat for c in h] + list(state.stock)
    hidden = [c for c in hidden if c not in state.hands[seat]]  # rummy51 has two of each
    picks = rng.sample(hidden, min(3, len(hidden)))
    probes: list[rules.Move] = [rules.Discard(card=c) for c in picks]
    if len(picks) == 3:
        probes.append(rules.Meld(melds=(tuple(picks),)))
    if state.melds and picks:
        probes.append(rules.LayOff(meld=state.melds[0].id, cards=(picks[0],)))
    return probes


def _audit_view_layer(variant: str, players: int, hands: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    views = 0
    for _ in range(hands):
        g = playout.new_fast_game(variant, players, rng.randbytes(32))
        public: set[int] = set(g.discard)
        stock_size = len(g.stock)
        while not playout.is_over(g):
            if g.phase == playout.DRAW_PHASE:
                # Drawing needs no move search: try the pile, fall back on the stock.
                try:
                    source = playout.SRC_DISCARD if rng.random() < 0.3 else playout.SRC_STOCK
                    g.apply(g.turn, (playout.DRAW, source))
                except rules.IllegalMove:
                    g.apply(g.turn, (playout.DRAW, playout.SRC_STOCK))
            else:
                g.apply(g.turn, _pick(playout.generate(g, g.turn), rng))
            public.update(g.discard)
            for meld in g.melds:
                public.update(meld.cards)
            if g.drawn_from_discard >= 0:
                public.add(g.drawn_from_discard)
            reshuffled = len(g.stock) > stock_size
            stock_size = len(g.stock)
            if not (reshuffled or playout.is_over(g) or rng.random() < 0.02):
                continue
            state = playout.state_from_game(g)
            seen = {int_to_code(c) for c in public}
            for seat in range(players):
                view = rules.seat_view(state, seat)
                text = view.model_dump_json()
                views += 1
                assert state.hand_seed not in text and state.seed not in text
                if state.hand_result is not None:
                    continue
                assert view.commitment == commitment(bytes.fromhex(state.hand_seed))
                assert not leaks(text, state, seat, public=seen), (seat, text)
                if rng.random() < 0.3:
                    for probe in _probes(state, seat, rng):
                        named = json.dumps(rules.move_to_json(probe))
                        with pytest.raises(rules.IllegalMove) as refused:
                            rules.apply(state, seat, probe)
                        message = f"{refused.value.code} {refused.value.message}"
                        assert not leaks(message, state, seat, sent=named_cards(named)), message
    return hands, views


def named_cards(text: str) -> set[str]:
    from tests.kit.leaks import cards_in

    return set(cards_in(text))


@pytest.mark.parametrize(("variant", "players"), EVERY_TABLE)
def test_views_never_show_hidden_cards(variant: str, players: int) -> None:
    # About 2,000 hands in all; rummy51's (two decks, jokers) cost the most to play.
    hands = {"classic": 1000, "basic": 200, "rummy51": 150}[variant] * SCALE
    played, views = _audit_view_layer(
        variant, players, hands, seed=hash((variant, players)) % 2**32
    )
    assert played == hands and views > hands


# --- the real server ------------------------------------------------------------------------


class LiveAudit(ServerTruth):
    """One random hand on the real server, every seat with its own token and socket."""

    def check(self, text: str, version: int, seat: int, sent: Iterable[str] = frozenset()) -> None:
        state = self.truth[version]
        self.checked += 1
        if state.hand_result is not None:
            return
        assert state.hand_seed not in text and state.seed not in text
        found = leaks(text, state, seat, sent=sent, public=self.public)
        assert not found, (seat, version, found, text[:2000])

    async def play(self, variant: str, players: int) -> str:
        room, tokens = await online_room(self.http, variant, players)
        version, state = await self.true_state(room)
        async with contextlib_all([seat_socket(self.live, room, t) for t in tokens]) as sockets:
            views = [await sock.state(version) for sock in sockets]
            while state.hand_result is None:
                seat = state.turn
                view = views[seat]
                if self.rng.random() < 0.1:  # the same view over REST, now and then
                    rest = await self.http.get(
                        f"/api/rooms/{room}/state", headers=bearer(tokens[seat])
                    )
                    self.check(rest.text, version, seat)
                    assert {**ok(rest), "seats": None} == {**view, "seats": None}
                assert view["version"] == version and view["commitment"]
                seat_view = _seat_view(view)
                legal = list(rules.legal_moves(seat_view))
                # The greedy bot ends hands in a few dozen moves; now and then a random move.
                if self.rng.random() < 0.9:
                    move = GREEDY.choose(seat_view, legal, self.rng)
                else:
                    move = self.rng.choice(legal)
                if self.rng.random() < 0.05:
                    await self._probe(room, tokens, version, state)
                r = await self.http.post(
                    f"/api/rooms/{room}/moves",
                    json={"move": rules.move_to_json(move), "version": version},
                    headers=bearer(tokens[seat]),
                )
                after = ok(r)
                version, state = await self.true_state(room)
                assert after["version"] == version
                self.check(r.text, version, seat)
                views = [await sock.state(version) for sock in sockets]
                for other, frame in enumerate(views):
                    assert frame["version"] == version and frame["seat"] == other
                # The log never shows the hand being played.
                if self.rng.random() < 0.05:
                    log = await self.http.get(
                        f"/api/rooms/{room}/log", headers=bearer(tokens[seat])
                    )
                    assert ok(log)["hands"] == [] or state.hand_result is not None
                    self.check(log.text, version, seat)
            for seat, sock in enumerate(sockets):
                for frame in sock.frames:
                    at = frame["state"]["version"] if frame["type"] == "state" else version
                    self.check(json.dumps(frame), at, seat)
        log = ok(await self.http.get(f"/api/rooms/{room}/log", headers=bearer(tokens[0])))
        reports = verify_log(log)
        assert [r.ok for r in reports] == [True], [r.line() for r in reports]
        assert reports[0].commitment == commitment(bytes.fromhex(state.hand_seed))
        return room

    async def _probe(
        self, room: str, tokens: list[str], version: int, state: rules.GameState
    ) -> None:
        """Every seat sends moves naming cards it cannot see; read what the errors say."""
        for seat, token in enumerate(tokens):
            for probe in _probes(state, seat, self.rng):
                payload = {"move": rules.move_to_json(probe), "version": version}
                r = await self.http.post(
                    f"/api/rooms/{room}/moves", json=payload, headers=bearer(token)
                )
                assert r.status_code in (409, 422), r.text
                self.check(r.text, version, seat, sent=named_cards(json.dumps(payload)))


def _seat_view(view: dict[str, Any]) -> rules.SeatView:
    fields = rules.SeatView.model_fields
    return rules.SeatView.model_validate({k: v for k, v in view.items() if k in fields})


class contextlib_all:  # noqa: N801 - reads like contextlib's helpers
    """Enter several async context managers, exit them all."""

    def __init__(self, managers: list[Any]) -> None:
        self.managers = managers

    async def __aenter__(self) -> list[Any]:
        return [await m.__aenter__() for m in self.managers]

    async def __aexit__(self, *exc: Any) -> None:
        for m in reversed(self.managers):
            await m.__aexit__(*exc)


async def test_live_hands_never_show_hidden_cards(live_server: LiveServer) -> None:
    rng = random.Random(4242)
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        audit = LiveAudit(live_server, http, rng)
        for _ in range(SCALE):
            for variant, players in EVERY_TABLE:
                await audit.play(variant, players)
    assert audit.checked > 50 * len(EVERY_TABLE) * SCALE
    await asyncio.sleep(0)
