"""Nothing covers the game: with a turn clock, a stand-in banner, "while you were away" and
an error toast all showing, no seat's name or card count, no pile, the melds or the hand
lies under any of them, at 360, 375, 768 and 1366 px with 2, 3 and 4 players (bounding
boxes). Screenshots of the table at 360 and 1366 px with the clock and the stand-in banner
go to test-artifacts/screenshots/ (and /work/shots/ when that folder exists)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import expect
from websockets.asyncio.client import connect

from tests.kit.browsers import screenshot
from tests.kit.deals import ANNA, BOB, fixed_deal
from tests.kit.servers import LiveServer, start_server

pytestmark = pytest.mark.browser

SHOTS = Path("/work/shots")

# What floats (banners, clock, away summary, toast) and what must stay in sight.
COVERS = "#banners .banner, #turn-clock, #missed, #toast:not([hidden])"
GAME = ".opponent .name, .opponent .count, .piles, #melds, #hand, .me .name, .me .count"

OVERLAPS = """([covers, game]) => {
  const boxes = (sel) => [...document.querySelectorAll(sel)]
    .map((el) => ({ el: el.id || el.className, b: el.getBoundingClientRect() }))
    .filter((x) => x.b.width > 0 && x.b.height > 0);
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const found = [];
  const cs = boxes(covers);
  for (const c of cs) {
    for (const g of boxes(game)) if (hit(c.b, g.b)) found.push(`${c.el} over ${g.el}`);
  }
  return { found, covers: cs.length };
}"""


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose seats may get a stand-in as soon as their owner leaves."""
    path = tmp_path_factory.mktemp("banners") / "rummy.db"
    server = start_server(f"sqlite+aiosqlite:///{path}", away_seconds=0)
    yield server
    server.stop()


async def timed_room_with_a_stand_in(http: Any, live_server: str, players: int) -> dict[str, Any]:
    """Anna (seat 0), Bob (seat 1, who left; the computer plays for him) and bots, 10 min a turn."""
    body: dict[str, Any] = {
        "variant": "rummy51" if players > 2 else "classic",
        "players": players,
        "name": "Anna",
        "turn_seconds": 600,
        "bots": {str(i): "easy" for i in range(2, players)},
    }
    created = (await http.post("/api/rooms", json=body)).json()
    room, token = created["room"], created["token"]
    bob = (await http.post(f"/api/rooms/{room}/join", json={"name": "Bob"})).json()
    url = live_server.replace("http", "ws", 1) + f"/api/rooms/{room}/ws?token={bob['token']}"
    async with connect(url) as ws:
        await ws.recv()
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(50):  # the hub learns of the closed socket a moment later
        r = await http.post(f"/api/rooms/{room}/stand-in", json={"seat": 1}, headers=auth)
        if r.status_code == 200:
            break
    assert r.status_code == 200, r.text
    return created


async def show_everything(page: Any) -> None:
    """The clock and the stand-in banner are real; the toast and the away summary are put in
    the store as an error and a return would put them."""
    await expect(page.locator(".banner.stand-in")).to_be_visible()
    await expect(page.locator("#turn-clock")).to_be_visible()
    await page.evaluate(
        """async () => {
          const { store } = await import("/web/js/store.js");
          const moves = [{ version: 1, seat: 1, move: { type: "draw", source: "stock" } }];
          store.table.missed = { hand: store.view.hand_number, moves, standIns: [], timed: 0 };
          store.showToast("Die kaart past daar niet.", "", "invalid_move");
        }"""
    )
    await expect(page.locator("#toast")).to_be_visible()
    await expect(page.locator("#missed")).to_be_visible()


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_no_banner_clock_toast_or_list_covers_the_game(
    pages, http, live_server, players
) -> None:
    game = await timed_room_with_a_stand_in(http, live_server, players)
    for width in (360, 375, 768, 1366):
        page = await pages.page(
            path=f"/r/{game['room']}#seat={game['token']}",
            viewport={"width": width, "height": 800},
        )
        await expect(page.locator("#hand .card")).to_have_count(10 if players == 2 else 13)
        await show_everything(page)
        result = await page.evaluate(OVERLAPS, [COVERS, GAME])
        assert result["covers"] >= 4, result
        assert not result["found"], (width, players, result)
        if players == 2 and width in (360, 1366):
            await page.evaluate(
                """async () => {
                  const { store } = await import("/web/js/store.js");
                  store.table.missed = null; store.toast = null; store.emit();
                }"""
            )
            await expect(page.locator("#toast")).to_be_hidden()
            shot = await screenshot(page, f"table-{width}")
            if SHOTS.is_dir():
                shutil.copy(shot, SHOTS / f"table-{width}.png")
        await page.close()


async def test_the_away_summary_names_pickups_and_the_turns_played_for_you(
    pages, http, live_server
) -> None:
    """Bob leaves; Anna takes 5♣ from the discard pile and discards; the computer plays
    Bob's turn. Back at the table, Bob reads it in three lines above the table."""
    cards = fixed_deal("classic", [ANNA, BOB], discard=["5C"], stock_top=["QD", "8D", "2H", "3H"])
    body = {"variant": "classic", "players": 2, "name": "Anna", "deal": cards}
    created = (await http.post("/api/rooms", json=body)).json()
    room, anna = created["room"], {"Authorization": f"Bearer {created['token']}"}
    joined = (await http.post(f"/api/rooms/{room}/join", json={"name": "Bob"})).json()
    bob_ctx = await pages.context()
    bob = await pages.page(ctx=bob_ctx, path=f"/r/{room}#seat={joined['token']}")
    await expect(bob.locator("#hand .card")).to_have_count(10)
    await bob.close()

    async def move(move: dict[str, Any]) -> None:
        version = (await http.get(f"/api/rooms/{room}/state", headers=anna)).json()["version"]
        r = await http.post(
            f"/api/rooms/{room}/moves", json={"move": move, "version": version}, headers=anna
        )
        assert r.status_code == 200, r.text

    await move({"type": "draw", "source": "discard"})
    await move({"type": "discard", "card": "KS"})
    for _ in range(50):  # the hub learns of Bob's closed socket a moment later
        r = await http.post(f"/api/rooms/{room}/stand-in", json={"seat": 1}, headers=anna)
        if r.status_code == 200:
            break
    assert r.status_code == 200, r.text

    bob = await pages.page(ctx=bob_ctx, path=f"/r/{room}", viewport={"width": 360, "height": 800})
    missed = bob.locator("#missed")
    await expect(missed.locator(".missed-title")).to_have_text("Terwijl je weg was")
    lines = missed.locator(".missed-line")
    await expect(lines.first).to_have_text("2 beurten gespeeld door Anna en de computer voor jou.")
    await expect(lines.nth(1)).to_have_text("Anna pakte 5♣ van de aflegstapel.")
    assert await lines.count() <= 4
    await expect(bob.locator("#hand .card").first).to_be_visible()
    # Both boxes read in one turn of the page's script: the table is redrawn as the
    # computer's moves come in, and two reads could fall on either side of a redraw.
    above = await bob.evaluate(
        """() => {
          const hand = document.querySelector("#hand"), summary = document.querySelector("#missed");
          if (!hand || !summary) return null;
          return summary.getBoundingClientRect().bottom <= hand.getBoundingClientRect().top;
        }"""
    )
    assert above is True
    await bob.get_by_role("button", name="Gezien").click()
    await expect(missed).to_have_count(0)


async def test_your_own_turns_from_another_device_are_yours_and_the_list_ends_with_the_hand(
    pages, http
) -> None:
    """Anna's phone last showed the deal; she played a turn from another device since, and
    Bob his. Back on the phone she reads that she played it, not the computer; once the
    hand is over the list goes (it had stayed from hand 1 to hand 9)."""
    cards = fixed_deal("classic", [ANNA, BOB], discard=["5H"], stock_top=["QD", "8D", "5C"])
    body = {"variant": "classic", "players": 2, "name": "Anna", "deal": cards}
    created = (await http.post("/api/rooms", json=body)).json()
    room = created["room"]
    joined = (await http.post(f"/api/rooms/{room}/join", json={"name": "Bob"})).json()
    phone = await pages.context(viewport={"width": 375, "height": 740})
    anna = await pages.page(ctx=phone, path=f"/r/{room}#seat={created['token']}")
    await expect(anna.locator("#hand .card")).to_have_count(10)
    await anna.close()

    async def play(token: str, *moves: dict[str, Any]) -> None:
        auth = {"Authorization": f"Bearer {token}"}
        for move in moves:
            version = (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()["version"]
            r = await http.post(
                f"/api/rooms/{room}/moves", json={"move": move, "version": version}, headers=auth
            )
            assert r.status_code == 200, r.text

    stock = {"type": "draw", "source": "stock"}
    await play(created["token"], stock, {"type": "discard", "card": "QD"})  # another device
    await play(joined["token"], stock, {"type": "discard", "card": "8D"})

    anna = await pages.page(ctx=phone, path=f"/r/{room}")
    lines = anna.locator("#missed .missed-line")
    await expect(lines.first).to_have_text(
        "2 beurten gespeeld door jou op een ander apparaat en Bob."
    )
    await expect(lines.last).to_have_text("Jij bent aan de beurt.")

    melds = [["7H", "8H", "9H"], ["KS", "KD", "KC"], ["2C", "3C", "4C", "5C"]]
    await play(created["token"], stock, {"type": "meld", "melds": melds})
    await play(created["token"], {"type": "discard", "card": "5D"})
    await expect(anna.locator("#hand-result")).to_have_text("Anna gaat uit!")
    await expect(anna.locator("#missed")).to_have_count(0)
