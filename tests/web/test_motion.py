"""Moves you can watch: a computer's turn of several moves reaches the socket in a few
milliseconds and is shown step by step at a readable pace, the card travelling; reduced
motion keeps the steps but no card travels; the switch shows every move at once."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.browsers import PHONE, SCREENSHOTS, screenshot
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

HUMAN = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "QH"]
# The bot holds two melds: after its draw it lays them down and discards, three moves.
BOT = ["KS", "KH", "KC", "5S", "6S", "7S", "2D", "8D", "JD", "TC"]

# What the page hears and shows, with the page's own clock: every state frame the socket
# receives, every announcement (the screen reader's live region) and every card in flight.
RECORDER = """
window.__frames = []; window.__said = []; window.__flights = 0;
const Real = window.WebSocket;
window.WebSocket = class extends Real {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") window.__frames.push({ at: performance.now(),
        version: msg.state.version, last: msg.state.last_move });
    });
  }
};
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver(() => {
    const text = document.getElementById("announce").textContent;
    if (text) window.__said.push({ at: performance.now(), text });
  }).observe(document.getElementById("announce"),
    { childList: true, characterData: true, subtree: true });
  new MutationObserver((records) => {
    for (const r of records) {
      window.__flights += [...r.addedNodes].filter((n) => n.classList?.contains("flight")).length;
    }
  }).observe(document.getElementById("flights"), { childList: true });
});
"""

STEPS = """() => performance.getEntriesByName("rummy:step")
  .map((m) => ({ at: m.startTime, ...m.detail }))"""


async def bot_game(http) -> dict[str, Any]:
    return await computer_room(http, [HUMAN, BOT], discard=["5C"], stock_top=["8C", "6C", "3S"])


async def open_game(pages, http, **options) -> tuple[Any, dict[str, Any]]:
    game = await bot_game(http)
    ctx = await pages.context(**options)
    await ctx.add_init_script(RECORDER)
    page = await pages.page(ctx, path=f"/r/{game['room']}#seat={game['token']}")
    await expect(page.locator("#hand .card")).to_have_count(10)
    return page, game


async def play_a_turn(page) -> None:
    """Draw from the stock and discard the drawn card, then wait for the bot's turn."""
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await page.locator('#hand .card[data-card="8C"]').click()
    await page.get_by_role("button", name="Afleggen").click()


SETTLED = """() => { const last = window.__frames.at(-1);
  const step = performance.getEntriesByName("rummy:step").at(-1);
  return Boolean(last && step && step.detail.version === last.version); }"""


async def bot_moves(page) -> list[dict[str, Any]]:
    frames = await page.evaluate("window.__frames")
    return [f for f in frames if f["last"] and f["last"]["seat"] == 1]


async def test_a_computers_turn_is_shown_one_move_at_a_time(pages, http) -> None:
    page, _ = await open_game(pages, http, viewport=PHONE)
    await play_a_turn(page)
    # Caught while the bot's cards travel: a move in flight.
    await expect(page.locator("#flights .flight").first).to_be_attached()
    await screenshot(page, "move-in-flight-375", settled=False)
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")
    await page.wait_for_function(SETTLED)

    moves = await bot_moves(page)
    kinds = [f["last"]["move"]["type"] for f in moves]
    assert kinds[0] == "draw" and kinds[-1] == "discard" and "meld" in kinds, kinds
    steps = await page.evaluate(STEPS)
    shown = [s for s in steps if s["seat"] == 1]
    # One step per move, in the order played.
    assert [s["version"] for s in shown] == [f["version"] for f in moves]
    gaps = [b["at"] - a["at"] for a, b in zip(shown, shown[1:], strict=False)]
    assert all(g >= 300 for g in gaps), gaps
    # What the screen reader hears: one sentence per move of the bot, as far apart.
    said = [s for s in await page.evaluate("window.__said") if not s["text"].startswith("Anna")]
    assert len(said) >= len(moves), said
    heard = [b["at"] - a["at"] for a, b in zip(said, said[1:], strict=False)]
    assert all(g >= 300 for g in heard), (heard, said)
    # The socket brought the moves faster than they were shown: the pace is the page's.
    arrived = moves[-1]["at"] - moves[0]["at"]
    assert shown[-1]["at"] - shown[0]["at"] > arrived, (arrived, shown)
    assert await page.evaluate("window.__flights") >= len(moves)


async def test_reduced_motion_keeps_the_steps_but_no_card_travels(pages, http) -> None:
    page, _ = await open_game(pages, http, reduced_motion="reduce")
    await play_a_turn(page)
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")
    await page.wait_for_function(SETTLED)
    moves = await bot_moves(page)
    shown = [s for s in await page.evaluate(STEPS) if s["seat"] == 1]
    assert len(shown) == len(moves) >= 3
    assert await page.evaluate("window.__flights") == 0


async def test_the_switch_shows_every_move_at_once(pages, http) -> None:
    page, _ = await open_game(pages, http, viewport=PHONE)
    switch = page.locator("#motion")
    await expect(switch).to_have_attribute("aria-pressed", "false")
    await switch.click()
    await expect(switch).to_have_attribute("aria-pressed", "true")
    await play_a_turn(page)
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")
    assert len(await bot_moves(page)) >= 3
    assert await page.evaluate(STEPS) == []
    assert await page.evaluate("window.__flights") == 0
    # The choice is kept.
    await page.reload()
    await expect(page.locator("#motion")).to_have_attribute("aria-pressed", "true")


FRAME_CLOCK = """
window.__raf = [];
requestAnimationFrame(function tick(t) {
  window.__raf.push([t, document.querySelectorAll("#flights > .flight").length]);
  requestAnimationFrame(tick);
});
"""


async def test_frame_rate_of_the_steps_on_a_phone_with_a_13_card_hand(pages, http) -> None:
    """Not a timed assertion: prints the frame rate while cards travel (requestAnimationFrame
    intervals) at 375 px with a 13-card hand, and keeps it in test-artifacts/fps.txt."""
    game = await computer_room(http, variant="rummy51")
    ctx = await pages.context(viewport=PHONE)
    await ctx.add_init_script(RECORDER)
    await ctx.add_init_script(FRAME_CLOCK)
    page = await pages.page(ctx, path=f"/r/{game['room']}#seat={game['token']}")
    await expect(page.locator("#hand .card")).to_have_count(13)
    mine = page.locator(".table.my-turn")
    await expect(mine).to_have_count(1)
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(14)
    await page.locator("#hand .card.new").click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#hand .card")).to_have_count(13)
    await expect(mine).to_have_count(1)
    await page.wait_for_function(SETTLED)
    raf = await page.evaluate("window.__raf")
    gaps = [b[0] - a[0] for a, b in zip(raf, raf[1:], strict=False) if a[1] and b[1]]
    assert gaps, "no frame was drawn while a card travelled"
    mean = sum(gaps) / len(gaps)
    worst = sorted(gaps)[int(len(gaps) * 0.95)]
    line = (
        f"animation steps at 375 px, 13-card hand: {1000 / mean:.1f} frames/s over "
        f"{len(gaps)} frames in flight; 95th percentile frame {worst:.1f} ms "
        f"({1000 / worst:.0f} frames/s)"
    )
    print(line)
    out = SCREENSHOTS.parent / "fps.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(line + "\n")
