"""The replay, as a chess site's is the bar: a list of the hand's moves to jump to with the
current one marked, the keys (← →, Home, End, space), autoplay at a chosen pace, the hand's
result at its end, one "Start of the hand", and on a phone the whole screen (no strip of the
page above it). The same panel for a room's hands and for a record file's, whose hands are
buttons with the one shown marked."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.browsers import screenshot
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

HUMAN = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "QH"]
BOT = ["2S", "5S", "8S", "JS", "3D", "6D", "KD", "4C", "7C", "TC"]  # no meld in one draw
MELDS = [["AH", "2H", "3H", "4H"], ["9C", "9D", "9S"], ["QC", "QD", "QH"]]


async def finished_hand(http: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Anna throws a card away, the computer plays its turn, Anna goes out: the room and the
    server's steps of the hand."""
    game = await computer_room(http, [HUMAN, BOT], discard=["5C"], stock_top=["8C", "6C", "6S"])
    auth = {"Authorization": f"Bearer {game['token']}"}
    url = f"/api/rooms/{game['room']}"

    async def play(*moves: dict[str, Any]) -> None:
        for move in moves:
            version = (await http.get(f"{url}/state", headers=auth)).json()["version"]
            r = await http.post(
                f"{url}/moves", headers=auth, json={"move": move, "version": version}
            )
            assert r.status_code == 200, r.text

    stock = {"type": "draw", "source": "stock"}
    await play(stock, {"type": "discard", "card": "8C"})
    await play(stock)
    last = [c for c in (await http.get(f"{url}/state", headers=auth)).json()["hand"]]
    left = [c for c in last if c not in {c for m in MELDS for c in m}]
    await play({"type": "meld", "melds": MELDS}, {"type": "discard", "card": left[0]})
    steps = (await http.get(f"{url}/replay", headers=auth)).json()["steps"]
    return game, steps


@pytest.mark.parametrize("width", [375, 1366])
async def test_the_replay_is_a_move_list_with_keys_autoplay_and_the_result(
    pages, http, width: int
) -> None:
    game, steps = await finished_hand(http)
    last = len(steps) - 1
    assert last >= 6 and {s["move"]["seat"] for s in steps[1:]} == {0, 1}
    ctx = await pages.context(viewport={"width": width, "height": 740})
    await ctx.clock.install()
    page = await pages.page(ctx=ctx, path=f"/r/{game['room']}#seat={game['token']}")
    await expect(page.locator("#hand-result")).to_have_text("Anna gaat uit!")
    await page.get_by_role("button", name="Herhaling").click()
    replay = page.locator("#replay")
    step = replay.locator(".replay-step")
    await expect(step).to_have_text("Begin van de hand")
    # Said once, not twice (the step's title and its text).
    await expect(replay.get_by_text("Begin van de hand", exact=True)).to_have_count(1)
    if width < 640:
        # The whole screen: no strip of the page above the dialog.
        body = await replay.locator(".modal-body").bounding_box()
        assert body == {"x": 0, "y": 0, "width": width, "height": 740}, body

    # The move list: every move once, by turn; a click goes there, and it is marked.
    moves = replay.get_by_role("navigation", name="Zetten van de hand").get_by_role("button")
    await expect(moves).to_have_count(last)
    await expect(replay.locator('[aria-current="step"]')).to_have_count(0)
    await moves.nth(2).click()
    await expect(step).to_have_text(f"Zet 3 van {last}")
    await expect(moves.nth(2)).to_have_attribute("aria-current", "step")
    await expect(replay.locator('[aria-current="step"]')).to_have_count(1)
    await screenshot(page, f"replay-{width}", settled=False)

    # The keys, wherever the focus is in the dialog.
    await page.keyboard.press("ArrowRight")
    await expect(step).to_have_text(f"Zet 4 van {last}")
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowLeft")
    await expect(step).to_have_text(f"Zet 2 van {last}")
    await page.keyboard.press("End")
    await expect(step).to_have_text(f"Zet {last} van {last}")
    # The hand's result at its end.
    result = replay.locator("#replay-result")
    await expect(result).to_contain_text("Anna gaat uit!")
    await expect(result).to_contain_text("Anna: ")
    await page.keyboard.press("Home")
    await expect(step).to_have_text("Begin van de hand")
    await expect(result).to_have_count(0)

    # Autoplay, twice as fast: a step every half second, stopping at the hand's end.
    await replay.locator("#replay-speed").select_option(label="2×")
    await replay.get_by_role("button", name="Afspelen").click()
    await page.clock.run_for(500)
    await expect(step).to_have_text(f"Zet 1 van {last}")
    await page.clock.run_for(1000)
    await expect(step).to_have_text(f"Zet 3 van {last}")
    await page.clock.run_for(500 * last)
    await expect(step).to_have_text(f"Zet {last} van {last}")
    await expect(replay.get_by_role("button", name="Afspelen")).to_have_attribute(
        "aria-pressed", "false"
    )
    await page.keyboard.press("Escape")
    await expect(replay).to_have_count(0)


async def test_a_record_files_hands_are_buttons_with_the_one_shown_marked(pages, http) -> None:
    game, _ = await finished_hand(http)
    auth = {"Authorization": f"Bearer {game['token']}"}
    record = (await http.get(f"/api/rooms/{game['room']}/record", headers=auth)).json()
    # Two hands in the file (the second a copy of the first, numbered on: the page sends the
    # server one hand at a time, so it replays either).
    record["hands"].append({**record["hands"][0], "number": 1})
    page = await pages.page(path="/#replay", viewport={"width": 1366, "height": 900})
    await page.wait_for_load_state("networkidle")
    payload: Any = {"name": "match.json", "mimeType": "application/json"}
    payload["buffer"] = json.dumps(record).encode()
    await page.locator("#replay-file").set_input_files(payload)
    replay = page.locator("#replay")
    hands = replay.get_by_role("group", name="Handen van de partij").get_by_role("button")
    await expect(hands).to_have_text(["Hand 1", "Hand 2"])
    await expect(hands.first).to_have_attribute("aria-pressed", "true")
    # Marked for the eye too, not only for a screen reader.
    colours = await hands.evaluate_all("els => els.map((e) => getComputedStyle(e).backgroundColor)")
    assert colours[0] != colours[1], colours
    await expect(replay.locator("h2")).to_have_text("Herhaling · hand 1")
    await hands.nth(1).click()
    await expect(replay.locator("h2")).to_have_text("Herhaling · hand 2")
    await expect(hands.nth(1)).to_have_attribute("aria-pressed", "true")
    await expect(hands.first).to_have_attribute("aria-pressed", "false")
    await page.keyboard.press("End")
    await expect(replay.locator("#replay-result")).to_contain_text("Anna gaat uit!")
