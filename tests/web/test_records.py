"""Replays and match records in the browser (docs/api.md v1.2 "Match records"): every step the
page shows is the one the server built (GET .../replay, POST /api/replays); "Save this match"
downloads the record, which `rummy verify` accepts and the replay page opens from the file
alone."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import expect

from app.cli import main as rummy
from tests.kit.browsers import meld, screenshot
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

HUMAN = ["AH", "2H", "3H", "4H", "5C", "5D", "5S", "6C", "6D", "6S"]
BOT = ["TC", "TD", "TH", "TS", "JC", "JD", "JH", "JS", "QC", "QD"]  # 100 points: one hand ends it

SHOWN = """() => {
  const cards = (el) => [...el.querySelectorAll('.card')].map((c) => c.dataset.card);
  const r = document.querySelector('#replay');
  return {
    step: r.querySelector('.replay-step').textContent,
    text: r.querySelector('.replay-text')?.textContent ?? '',
    hands: [...r.querySelectorAll('.replay-hand')].map(cards),
    melds: [...r.querySelectorAll('.replay-melds .meld-mini')].map(cards),
    discard: r.querySelector('.replay-discard .card')?.dataset.card ?? null,
  };
}"""


async def _play_the_match(pages: Any, http: Any) -> tuple[Any, dict[str, Any]]:
    """A classic match that Anna wins in one hand: draw, three melds, discard."""
    created = await computer_room(http, [HUMAN, BOT], discard=["8C"], stock_top=["9C"])
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await meld(page, HUMAN[:4], HUMAN[4:7], HUMAN[7:])
    await page.locator('#hand .card[data-card="9C"]').click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#match-winner")).to_have_text("Anna wint de partij!")
    return page, created


async def _step_through(page: Any, steps: list[dict[str, Any]], names: list[str]) -> None:
    """Every step of the open replay panel against the server's steps, in order."""
    last = len(steps) - 1
    for i, step in enumerate(steps):
        label = "Begin van de hand" if i == 0 else f"Zet {i} van {last}"
        await expect(page.locator("#replay .replay-step")).to_have_text(label)
        shown = await page.evaluate(SHOWN)
        assert shown["hands"] == step["hands"], i
        assert shown["melds"] == [m["cards"] for m in step["view"]["melds"]], i
        assert shown["discard"] == step["view"]["discard_top"], i
        if step["move"]:
            assert shown["text"].startswith(names[step["move"]["seat"]]), shown["text"]
        next_button = page.locator("#replay").get_by_role("button", name="Volgende")
        if i < last:
            await next_button.click()
        else:
            await expect(next_button).to_be_disabled()


async def test_the_tables_replay_draws_every_step_the_server_built(pages, http) -> None:
    page, created = await _play_the_match(pages, http)
    auth = {"Authorization": f"Bearer {created['token']}"}
    server = (await http.get(f"/api/rooms/{created['room']}/replay", headers=auth)).json()
    assert len(server["steps"]) == 4  # the deal, a draw, a meld, a discard
    await page.get_by_role("button", name="Herhaling").click()
    await _step_through(page, server["steps"], ["Anna", "Computer"])
    await page.locator("#replay").get_by_role("button", name="Sluiten").click()
    await expect(page.locator("#replay")).to_be_hidden()


async def test_a_hand_with_the_computers_turns_replays_step_by_step(pages, http) -> None:
    """The computer's turn too: its stock draw shows in its hand, its discard on the pile."""
    human = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "QH"]
    bot = ["2S", "5S", "8S", "JS", "3D", "6D", "KD", "4C", "7C", "TC"]  # no meld in one draw
    created = await computer_room(http, [human, bot], discard=["5C"], stock_top=["8C", "6C", "6S"])
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    bot_name = await page.locator('.opponent[data-seat="1"] .name').text_content()
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await page.locator('#hand .card[data-card="8C"]').click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#last-move")).to_contain_text("af.", timeout=30_000)
    await expect(page.locator("#turn-line")).to_have_text("Jij bent aan de beurt: trek een kaart.")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(11)
    await meld(page, human[:4], human[4:7], human[7:])
    await expect(page.locator("#hand .card")).to_have_count(1)
    await page.locator("#hand .card").click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator("#hand-result")).to_have_text("Anna gaat uit!")
    auth = {"Authorization": f"Bearer {created['token']}"}
    server = (await http.get(f"/api/rooms/{created['room']}/replay", headers=auth)).json()
    assert {s["move"]["seat"] for s in server["steps"][1:]} == {0, 1}  # both seats moved
    await page.get_by_role("button", name="Herhaling").click()
    await _step_through(page, server["steps"], ["Anna", bot_name or ""])


async def test_a_saved_match_verifies_and_replays_from_the_file_alone(
    pages, http, tmp_path: Path
) -> None:
    page, created = await _play_the_match(pages, http)
    async with page.expect_download() as waiting:
        await page.get_by_role("button", name="Bewaar deze partij").click()
    download = await waiting.value
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    assert saved.name.startswith("rummy-classic-") and saved.suffix == ".json"
    record = json.loads(saved.read_text())
    assert record["format"] == "rummy-record/1" and record["players"][0] == "Anna"
    assert len(record["hands"]) == 1 and record["scores"][0] == 100

    # `rummy verify` on the file: this test's fixed deal is not the one its seed deals, so
    # the verdict is FAIL for that reason alone; every move and the result check out.
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = rummy(["verify", str(saved)])
    assert code == 1 and "is not the one the seed deals" in out.getvalue()
    assert "illegal" not in out.getvalue() and "replaying its moves" not in out.getvalue()

    # The replay page, in a browser that never saw the room: it asks no room of the server.
    reader = await pages.page(path="/")
    asked: list[str] = []
    reader.on("request", lambda r: asked.append(r.url))
    await reader.get_by_role("link", name="Een bewaarde partij herbekijken").click()
    await expect(reader.locator("#replay-page h1")).to_have_text("Een bewaarde partij herbekijken")
    await reader.locator("#replay-file").set_input_files(str(saved))
    steps = (await http.post("/api/replays", json=record)).json()["steps"]
    await expect(reader.locator("#replay .replay-step")).to_have_text("Begin van de hand")
    await screenshot(reader, "replay-page-record")
    await _step_through(reader, steps, record["players"])
    assert not [url for url in asked if "/api/rooms/" in url], asked
    assert [url for url in asked if "/api/replays" in url]

    # Dropped on the page instead of chosen: the same replay, from its first step.
    await reader.locator("#replay").get_by_role("button", name="Sluiten").click()
    await expect(reader.locator("#replay")).to_have_count(0)
    dropped = await reader.evaluate_handle(
        """(text) => {
          const data = new DataTransfer();
          data.items.add(new File([text], "match.json", { type: "application/json" }));
          return data;
        }""",
        saved.read_text(),
    )
    await reader.dispatch_event("#replay-drop", "drop", {"dataTransfer": dropped})
    await _step_through(reader, steps, record["players"])


async def test_a_file_that_is_not_a_record_says_so(pages, tmp_path: Path) -> None:
    page = await pages.page(path="/#replay")
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": "world"}')
    # The page's handlers are bound once its modules and language have loaded; a person
    # takes longer than that to pick a file, a test must wait for it.
    await page.wait_for_load_state("networkidle")
    await page.locator("#replay-file").set_input_files(str(junk))
    await expect(page.locator("#replay-error")).to_have_text(
        "Dit bestand is geen bewaarde partij of logboek van een kamer."
    )
    await expect(page.locator("#replay")).to_have_count(0)
    await screenshot(page, "replay-page-not-a-record")
