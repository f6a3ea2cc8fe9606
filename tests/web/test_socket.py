"""The browser's websocket: no URL carries the seat token (it goes in the first frame), and
a socket the server closes for falling behind (4409) reconnects and resyncs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.rooms import new_room

pytestmark = pytest.mark.browser


async def _until(predicate: Callable[[], bool]) -> None:
    """A bounded wait for something the page does by itself."""
    async with asyncio.timeout(30):
        while not predicate():
            await asyncio.sleep(0.05)


async def test_the_page_authenticates_in_the_first_frame_not_the_url(pages, http) -> None:
    r = await http.post("/api/rooms", json={"players": 2, "mode": "online", "name": "Anna"})
    assert r.status_code == 201, r.text
    created = r.json()
    page = await pages.page(path=None)
    sockets: list[Any] = []
    sent: list[str] = []

    def on_socket(ws: Any) -> None:
        sockets.append(ws)
        ws.on("framesent", lambda payload: sent.append(str(payload)))

    page.on("websocket", on_socket)
    await page.goto(f"/r/{created['room']}#seat={created['token']}")
    await expect(page.locator("#invite")).to_be_visible()
    # Authenticated: the server counts this seat's socket as present.
    await expect(page.locator(".me .dot")).to_have_attribute("data-presence", "on")
    # News that only the socket brings: a second player joins.
    joined = await http.post(f"/api/rooms/{created['room']}/join", json={"name": "Bob"})
    assert joined.status_code == 201, joined.text
    await expect(page.locator(".opponent .name")).to_have_text("Bob")
    assert sockets and all(created["token"] not in ws.url for ws in sockets)
    assert all("token" not in ws.url for ws in sockets)
    assert json.loads(sent[0]) == {"type": "auth", "token": created["token"]}


async def test_a_socket_closed_for_falling_behind_reconnects_and_resyncs(
    pages, http, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.api import outbox

    r = await http.post("/api/rooms", json={"players": 2, "mode": "online", "name": "Anna"})
    assert r.status_code == 201, r.text
    created = r.json()
    page = await pages.page(path=None)
    routes: list[Any] = []
    closes: list[int | None] = []

    def on_route(ws: Any) -> None:
        server = ws.connect_to_server()
        routes.append(server)

        async def closed(code: int | None, reason: str | None) -> None:
            closes.append(code)
            await ws.close(code=code, reason=reason)  # on to the page, as the server sent it

        server.on_close(closed)

    # The live server runs in this process: any frame its sockets must queue (an error, a
    # pong) is one too many, as if the page had stopped reading. (Frames go out at once
    # while the writer is idle, and queue only behind a client that stopped reading: here
    # they queue.)
    monkeypatch.setattr(outbox, "MAX_QUEUED_FRAMES", 0)
    monkeypatch.setattr(outbox.Outbox, "send_directly", lambda self, send_now: None)
    await page.route_web_socket("**/ws", on_route)
    await page.goto(f"/r/{created['room']}#seat={created['token']}")
    await expect(page.locator("#invite")).to_be_visible()
    # Authenticated: the server counts this seat's socket as present.
    await expect(page.locator(".me .dot")).to_have_attribute("data-presence", "on")
    # A frame the server must answer (an unknown type), sent past the page.
    routes[0].send(json.dumps({"type": "junk"}))
    await _until(lambda: len(closes) >= 1 and len(routes) >= 2)
    joined = await http.post(f"/api/rooms/{created['room']}/join", json={"name": "Bob"})
    assert joined.status_code == 201, joined.text
    # The new socket carries the news: the page never stayed on the closed one.
    await expect(page.locator(".opponent .name")).to_have_text("Bob")
    assert closes[0] == 4409 and len(routes) >= 2


async def test_with_its_socket_live_a_move_reaches_the_page_once(pages, http) -> None:
    # The page's socket brings every view: its move's answer carries none (204), so one view
    # per version reaches it, not two.
    anna = ["7H", "8H", "9H", "KS", "KD", "KC", "2C", "3C", "4C", "5D"]
    bob = ["TH", "AS", "3S", "5S", "7S", "9S", "JS", "2D", "4D", "6D"]
    created = await new_room(http, "online", [anna, bob], discard=["5C"], stock_top=["QD"])
    joined = await http.post(f"/api/rooms/{created['room']}/join", json={"name": "Bob"})
    assert joined.status_code == 201, joined.text
    page = await pages.page(path=None)
    answers: list[Any] = []
    states: list[int] = []

    def on_socket(ws: Any) -> None:
        def frame(payload: Any) -> None:
            msg = json.loads(str(payload))
            if msg.get("type") == "state":
                states.append(msg["state"]["version"])

        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    page.on("response", lambda res: answers.append(res) if res.url.endswith("/moves") else None)
    await page.goto(f"/r/{created['room']}#seat={created['token']}")
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator('#hand .card[data-card="QD"]')).to_be_visible()
    await _until(lambda: len(answers) == 1)
    assert answers[0].status == 204
    assert answers[0].headers["rummy-version"] == "1"
    assert states.count(1) == 1  # the socket brought it, once
    await page.locator('#hand .card[data-card="QD"]').click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#turn-line")).to_have_text("Bob is aan de beurt.")
    await _until(lambda: len(answers) == 2)
    assert answers[1].status == 204 and states.count(2) == 1
