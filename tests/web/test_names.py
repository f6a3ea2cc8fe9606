"""One name per computer seat, the same on the table, in the saved record and in the replay;
a room made through the API with three bots of one strategy seats three names, not three
"Greedy bot"s (whose three seat regions of one name were axe's `landmark-unique`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.async_api import expect

from tests.kit.browsers import axe_script
from tests.kit.deals import BOT, HUMAN
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

WIDE = {"width": 1366, "height": 900}


async def table_names(page: Any) -> list[str]:
    await expect(page.locator(".opponent").first).to_be_visible()
    return [str(n) for n in await page.locator(".opponent .name").all_text_contents()]


async def test_three_bots_of_one_strategy_sit_under_three_names(pages, http) -> None:
    body = {
        "variant": "basic",
        "players": 4,
        "mode": "computer",
        "name": "Beth",
        "bots": {"1": "greedy", "2": "greedy", "3": "greedy"},
    }
    created = await http.post("/api/rooms", json=body)
    assert created.status_code == 201, created.text
    game = created.json()
    ctx = await pages.context(viewport=WIDE, bypass_csp=True)
    page = await pages.page(ctx=ctx, path=f"/r/{game['room']}#seat={game['token']}")
    shown = await table_names(page)
    assert len(set(shown)) == 3 and "Beth" not in shown, shown
    summary = (await http.get(f"/api/rooms/{game['room']}")).json()
    names = [s["name"] for s in summary["seats"]]
    assert names[0] == "Beth" and sorted(names[1:]) == sorted(shown), names
    # axe's rule of any impact: every seat's region has a name of its own.
    await page.add_script_tag(path=str(axe_script()))
    found = await page.evaluate(
        """async () => (await axe.run(document, { runOnly: ["landmark-unique", "region"] }))
          .violations.map((v) => v.id)"""
    )
    assert found == [], found


async def test_the_table_the_record_and_the_replay_name_the_bot_alike(pages, http) -> None:
    game = await computer_room(http, [HUMAN, BOT], discard=["8C"], stock_top=["9C"])
    page = await pages.page(path=f"/r/{game['room']}#seat={game['token']}", viewport=WIDE)
    [bot] = await table_names(page)
    # Anna goes out at once: draw, three melds, discard.
    melds = {"type": "meld", "melds": [HUMAN[:4], HUMAN[4:7], HUMAN[7:]]}
    auth = {"Authorization": f"Bearer {game['token']}"}
    state = (await http.get(f"/api/rooms/{game['room']}/state", headers=auth)).json()
    for move in ({"type": "draw", "source": "stock"}, melds, {"type": "discard", "card": "9C"}):
        r = await http.post(
            f"/api/rooms/{game['room']}/moves",
            headers=auth,
            json={"move": move, "version": state["version"]},
        )
        assert r.status_code == 200, r.text
        state = r.json()
    await expect(page.locator("#hand-end")).to_be_visible()

    await page.get_by_role("button", name="Herhaling").click()
    replay = page.locator("#replay")
    await expect(replay.locator('.replay-hand[data-seat="1"] strong')).to_have_text(bot)
    record = (await http.get(f"/api/rooms/{game['room']}/record", headers=auth)).json()

    # The saved record, opened on the replay page of a browser that never saw the room.
    reader = await pages.page(path="/#replay", viewport=WIDE)
    await reader.wait_for_load_state("networkidle")
    payload = {"name": "match.json", "mimeType": "application/json"}
    payload["buffer"] = json.dumps(record).encode()  # type: ignore[assignment]
    await reader.locator("#replay-file").set_input_files(payload)  # type: ignore[arg-type]
    shown = reader.locator('#replay .replay-hand[data-seat="1"] strong')
    await expect(shown).to_have_text(bot)
    assert record["players"] == ["Anna", bot]
