"""Browsers and node for the tests of web/: Debian's Chromium (its path and flags, a page
for a test of its own), page sizes, screenshots, common gestures on the table, axe-core's
script, and node to run web/js modules (the `browser` and `pages` fixtures are in
tests/web/conftest.py)."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}


async def screenshot(page: Any, name: str, settled: bool = True) -> Path:
    """A full-page PNG in SCREENSHOTS; `settled`: once no card is in flight (motion.js)."""
    if settled:
        from playwright.async_api import expect

        await expect(page.locator("#flights > *")).to_have_count(0)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


async def meld(page: Any, *groups: list[str]) -> None:
    """Lay down `groups` in one "Uitleggen": each but the last staged with "+ Groep"."""
    for i, group in enumerate(groups):
        for code in group:
            await page.locator(f'#hand .card[data-card="{code}"]').click()
        if i < len(groups) - 1:
            await page.get_by_role("button", name="+ Groep").click()
    await page.get_by_role("button", name="Uitleggen").click()


async def select(page: Any, cards: list[str]) -> None:
    """Select exactly `cards` in the hand (a free copy of each, none staged in a group),
    after unpressing whatever was selected."""
    from playwright.async_api import expect

    pressed = page.locator('#hand .card[aria-pressed="true"]')
    # One by one: "Selectie wissen" would drop the staged melds as well.
    for slot in await pressed.evaluate_all("els => els.map((e) => e.dataset.id)"):
        await page.locator(f'#hand .card[data-id="{slot}"]').click()
    await expect(pressed).to_have_count(0)
    for code in cards:
        free = f'#hand .card:not(.staged)[data-card="{code}"][aria-pressed="false"]'
        await page.locator(free).first.click()
    await expect(page.locator('#hand .card[aria-pressed="true"]')).to_have_count(len(cards))


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two bounding boxes share any area."""
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def axe_script() -> Path:
    """axe-core's axe.min.js, as the test extra's axe-playwright-python ships it: a test
    adds it to a page (opened with `bypass_csp`) and calls `axe.run`."""
    import axe_playwright_python  # type: ignore[import-untyped]

    return Path(axe_playwright_python.__file__).parent / "axe.min.js"


# Debian's Chromium for the browser tests; without the background-networking flags it
# keeps dialling out and is refused by this machine's closed network.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


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


# --- web/js modules in node ------------------------------------------------------------------

NODE = shutil.which("node")
VERIFY_JS = (ROOT / "web/js/verify.js").as_uri()
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
