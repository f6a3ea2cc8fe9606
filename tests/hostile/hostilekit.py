"""Helpers of the hostile-input tests: rooms with every seat taken, websocket clients that
keep every frame, and the card-leak detector of the hidden-information audit."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.rummytest import CHROMIUM, CHROMIUM_ARGS, Socket

# A card code standing alone: room ids and tokens are URL-safe words ([A-Za-z0-9_-]) that
# may hold two letters like "QC" by chance, so those characters do not end a word either.
CARD = re.compile(r"(?<![A-Za-z0-9_-])(?:[A2-9TJQK][CDHS]|JK)(?![A-Za-z0-9_-])")
QUOTED_CARD = re.compile(r'"([A2-9TJQK][CDHS]|JK)"')


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def body(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.text)
    return response.json()


def error_code(response: httpx.Response) -> str:
    data = response.json()
    assert set(data) >= {"error"} and set(data["error"]) - {"details"} == {"code", "message"}, data
    return str(data["error"]["code"])


async def full_room(
    http: httpx.AsyncClient, variant: str = "classic", players: int = 2, **extra: Any
) -> tuple[str, list[str]]:
    """An online room with every seat taken; returns its id and the tokens by seat."""
    created = body(
        await http.post("/api/rooms", json={"variant": variant, "players": players, **extra}),
        201,
    )
    tokens = [created["token"]]
    for i in range(1, players):
        joined = body(
            await http.post(f"/api/rooms/{created['room']}/join", json={"name": f"P{i}"}), 201
        )
        assert joined["seat"] == i
        tokens.append(joined["token"])
    return created["room"], tokens


def cards_in(text: str) -> Counter[str]:
    """Every card code written anywhere in a JSON text (keys, values, messages)."""
    return Counter(CARD.findall(text))


def public_cards(state: Any) -> set[str]:
    """Cards every seat sees in `state`: the discard pile and the table (a card taken from
    the discard pile stays known: `drawn_from_discard`, `last_move`)."""
    seen = set(state.discard)
    for meld in state.melds:
        seen.update(meld.cards)
        seen.update(meld.stands_for)
    if state.drawn_from_discard:
        seen.add(state.drawn_from_discard)
    if state.last_move is not None:  # a discard reshuffled straight into the stock
        seen.update(cards_in(json.dumps(state.last_move.move)))
    return seen


def hidden_from(state: Any, seat: int, public: Iterable[str] = ()) -> set[str]:
    """Cards `seat` must not learn of: those in another hand or in the stock, unless the
    seat holds a copy or has seen the card in the open this hand (`public`)."""
    secret: set[str] = set(state.stock)
    for other, hand in enumerate(state.hands):
        if other != seat:
            secret.update(hand)
    return secret - set(state.hands[seat]) - public_cards(state) - set(public)


def leaks(
    text: str, state: Any, seat: int, sent: Iterable[str] = (), public: Iterable[str] = ()
) -> set[str]:
    """Cards named in `text` that `seat` cannot know of in `state`, leaving out the cards the
    seat itself named in its request (an error may repeat them)."""
    return (set(cards_in(text)) & hidden_from(state, seat, public)) - set(sent)


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


class Seat(Socket):
    """A websocket client of one seat that also tells how the socket closed."""

    async def closed(self) -> int | None:
        """Wait for the server to close the socket; its close code (None: no close frame)."""
        try:
            async with asyncio.timeout(30):
                while True:
                    self.frames.append(json.loads(await self.ws.recv()))
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None


@contextlib.asynccontextmanager
async def seat_socket(base: str, room: str, token: str, **options: Any) -> AsyncIterator[Seat]:
    url = "ws" + base[len("http") :] + f"/api/rooms/{room}/ws?token={token}"
    async with connect(url, max_size=None, **options) as ws:
        yield Seat(ws)


# --- the web verifier in node, and pages in Chromium -----------------------------------------

NODE = shutil.which("node")
VERIFY_JS = (Path(__file__).resolve().parents[2] / "web/js/verify.js").as_uri()
# What a node check script starts with: `input`, the JSON it was given on stdin.
NODE_INPUT = """const input = JSON.parse(await new Promise((ok) => {
  let text = "";
  process.stdin.on("data", (d) => (text += d));
  process.stdin.on("end", () => ok(text));
}));
"""


def run_node(tmp: Path, script: str, payload: Any) -> Any:
    """Run `script` (an ES module that reads `input` and prints JSON) in node; its output."""
    assert NODE is not None
    path = tmp / "check.mjs"
    path.write_text(script)
    done = subprocess.run(
        [NODE, str(path)], input=json.dumps(payload), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@contextlib.asynccontextmanager
async def chromium_page() -> AsyncIterator[tuple[Any, list[str]]]:
    """A page in Debian's Chromium, and the page errors it threw (the test asserts none)."""
    from playwright.async_api import async_playwright

    errors: list[str] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            yield page, errors
        finally:
            await browser.close()
