"""`rummy verify` and web/verify.html on a log taken from a real server: a genuine log
passes, and every kind of tampering is caught with a precise message."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

import rules
from app.records.verify import verify_log
from tests.kit.browsers import CHROMIUM, CHROMIUM_ARGS, chromium_page
from tests.kit.clients import bearer
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

ROOT = Path(__file__).resolve().parents[2]
RUMMY = Path(sys.executable).parent / "rummy"
# A fixed seed whose hand the policy below finishes in a few dozen moves (any seed works,
# this one only keeps the test short).
SEED = 43


def _policy(view: rules.SeatView) -> rules.Move:
    """Biggest meld, else biggest lay-off, else draw from the stock, else the last discard."""
    legal = list(rules.legal_moves(view))
    melds = [m for m in legal if isinstance(m, rules.Meld)]
    if melds:
        return max(melds, key=lambda m: sum(len(cards) for cards in m.melds))
    layoffs = [m for m in legal if isinstance(m, rules.LayOff)]
    if layoffs:
        return max(layoffs, key=lambda m: len(m.cards))
    draws = [m for m in legal if isinstance(m, rules.Draw)]
    if draws:
        return next((m for m in draws if m.source == "stock"), draws[0])
    return legal[-1]


def _seat_view(view: dict[str, Any]) -> rules.SeatView:
    fields = rules.SeatView.model_fields
    return rules.SeatView.model_validate({k: v for k, v in view.items() if k in fields})


async def _play_to_the_end(http: httpx.AsyncClient, room: str, tokens: list[str]) -> set[str]:
    """Play the room's hand to its end with `_policy`; the commitments the seats were shown."""
    seen = set()
    for _ in range(1000):
        views = [ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(t))) for t in tokens]
        seen |= {v["commitment"] for v in views}
        view = views[views[0]["turn"]]
        if view["phase"] not in ("draw", "play"):
            break
        move = _policy(_seat_view(view))
        ok(
            await http.post(
                f"/api/rooms/{room}/moves",
                json={"move": rules.move_to_json(move), "version": view["version"]},
                headers=bearer(tokens[view["turn"]]),
            )
        )
    assert view["phase"] == "hand_over"
    return seen


@pytest.fixture(scope="module")
async def played(live_server: LiveServer) -> dict[str, Any]:
    """One classic hand played to its end over HTTP; its log and the commitment both seats
    were shown while it was played."""
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        room, tokens = await online_room(http, "classic", 2, seed=SEED)
        seen = await _play_to_the_end(http, room, tokens)
        log = ok(await http.get(f"/api/rooms/{room}/log", headers=bearer(tokens[1])))
    assert len(seen) == 1 and len(log["hands"]) == 1
    return {"log": log, "commitment": seen.pop(), "room": room, "token": tokens[1]}


def _verify(tmp_path: Path, log: Any, *args: str) -> subprocess.CompletedProcess[str]:
    """`rummy verify` run in this process (app.cli.main, as the console script does)."""
    from app.cli import main

    path = tmp_path / "log.json"
    path.write_text(log if isinstance(log, str) else json.dumps(log))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["verify", str(path), *args])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_the_rummy_command_verifies_a_log(played: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(played["log"]))
    seen = f"0={played['commitment']}"
    done = subprocess.run(
        [str(RUMMY), "verify", str(path), "--commitment", seen],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "hand 0: OK" in done.stdout, done.stdout + done.stderr
    path.write_text(json.dumps(_tampered(played["log"], _swap_stock)))
    done = subprocess.run(
        [str(RUMMY), "verify", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1 and "hand 0: FAIL" in done.stdout


def test_a_genuine_log_verifies(played: dict[str, Any], tmp_path: Path) -> None:
    seen = played["commitment"]
    done = _verify(tmp_path, played["log"], "--commitment", f"0={seen}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0].startswith(f"hand 0: OK  commitment {seen}")
    assert done.stdout.splitlines()[-1] == "all hands verified"


def _tampered(log: dict[str, Any], change: Any) -> dict[str, Any]:
    copied = copy.deepcopy(log)
    change(copied["hands"][0])
    return copied


def _swap_hand_cards(hand: dict[str, Any]) -> None:
    hands = hand["start"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def _swap_stock(hand: dict[str, Any]) -> None:
    stock = hand["start"]["stock"]
    stock[4], stock[9] = stock[9], stock[4]


def _other_seed(hand: dict[str, Any]) -> None:
    hand["start"]["hand_seed"] = "%064x" % (int(hand["start"]["hand_seed"], 16) ^ 1)


def _change_a_discard(hand: dict[str, Any]) -> None:
    for entry in hand["moves"]:
        if entry["move"]["type"] == "discard":
            held = set(hand["start"]["hands"][entry["seat"]]) - {entry["move"]["card"]}
            entry["move"]["card"] = sorted(held)[0]
            return


def _drop_a_move(hand: dict[str, Any]) -> None:
    del hand["moves"][3]


def _raise_points(hand: dict[str, Any]) -> None:
    hand["result"]["points"][hand["result"]["winner"]] += 10


def _hide_seed(hand: dict[str, Any]) -> None:
    hand["start"]["hand_seed"] = "0" * 64


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_swap_hand_cards, "seat 0's hand in the log"),
        (_swap_stock, "the stock in the log differs from the one the seed deals from card 5"),
        (_other_seed, "commitment mismatch"),
        (_change_a_discard, "is illegal"),
        (_drop_a_move, "are not each used exactly once"),
        (_raise_points, "but replaying its moves gives"),
        (_hide_seed, "commitment mismatch"),
    ],
)
def test_a_tampered_log_fails(
    played: dict[str, Any], tmp_path: Path, change: Any, expected: str
) -> None:
    log = _tampered(played["log"], change)
    done = _verify(tmp_path, log, "--commitment", f"0={played['commitment']}")
    assert done.returncode == 1, done.stdout
    first = done.stdout.splitlines()[0]
    assert first.startswith("hand 0: FAIL") and expected in first, first
    assert done.stdout.splitlines()[-1] == "VERIFICATION FAILED"


def test_a_rigged_but_consistent_log_fails_against_the_commitment_seen(
    played: dict[str, Any], tmp_path: Path
) -> None:
    """A server that re-dealt the hand from another seed and rewrote the log to match it
    passes every check but one: the commitment the player saw during the hand."""
    log = copy.deepcopy(played["log"])
    start = rules.GameState.model_validate(log["hands"][0]["start"])
    other = rules.new_game("classic", 2, seed=b"rigged".ljust(32, b"!"))
    log["hands"][0]["start"] = start.model_copy(
        update={
            "hand_seed": other.hand_seed,
            "hands": other.hands,
            "stock": other.stock,
            "discard": other.discard,
        }
    ).model_dump(mode="json")
    log["hands"][0]["moves"] = []
    log["hands"][0]["end_version"] = log["hands"][0]["start_version"] + len(
        log["hands"][0]["votes"]
    )
    log["hands"][0]["result"] = None
    assert verify_log(log)[0].ok  # consistent in itself ...
    done = _verify(tmp_path, log, "--commitment", f"0={played['commitment']}")
    assert done.returncode == 1 and "commitment mismatch" in done.stdout  # ... but not fair


def test_not_a_log_is_an_error(tmp_path: Path) -> None:
    for text in ("not json", "[]", '{"room": "x"}'):
        done = _verify(tmp_path, text)
        assert done.returncode == 2 and "rummy verify:" in done.stderr


def test_a_commitment_for_a_hand_not_in_the_log_fails(
    played: dict[str, Any], tmp_path: Path
) -> None:
    done = _verify(tmp_path, played["log"], "--commitment", f"5={played['commitment']}")
    assert done.returncode == 1 and "hand 5: FAIL" in done.stdout


def test_verify_survives_any_log(played: dict[str, Any]) -> None:
    """The verifier reads untrusted input too: thousands of mutated logs (values replaced by
    other types, keys removed) are each reported, never a crash; a change to the deal, the
    seed or a move never passes."""
    rng = random.Random(77)
    values: list[Any] = [None, 0, -1, 7, 10**20, "x", "", [], {}, True, 1.5, "JK", ["AS"], [[]]]
    genuine = played["log"]

    def paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        found = [path]
        if isinstance(node, dict):
            for key, value in node.items():
                found += paths(value, (*path, key))
        elif isinstance(node, list):
            for index, value in enumerate(node[:6]):
                found += paths(value, (*path, index))
        return found

    every = paths(genuine)[1:]
    guarded = ("hand_seed", "hands", "stock", "discard", "move")
    for _ in range(1500):
        log = copy.deepcopy(genuine)
        path = rng.choice(every)
        parent = log
        for key in path[:-1]:
            parent = parent[key]
        before = parent[path[-1]]
        if isinstance(parent, dict) and rng.random() < 0.2:
            del parent[path[-1]]
        else:
            parent[path[-1]] = rng.choice(values)
        try:
            reports = verify_log(log)
        except ValueError:
            assert path[0] == "hands" and len(path) == 1
            continue
        lines = [r.line() for r in reports]
        assert all(line.startswith("hand ") for line in lines)
        changed = parent.get(path[-1], object()) if isinstance(parent, dict) else parent[path[-1]]
        if any(k in path[2:] for k in guarded) and changed != before:
            assert not all(r.ok for r in reports), (path, lines)


# --- the web page ---------------------------------------------------------------------------

NODE = shutil.which("node")
PAGE_CHECK = """
import { verifyLog } from "%s";
const input = JSON.parse(await new Promise((ok) => {
  let text = "";
  process.stdin.on("data", (d) => (text += d));
  process.stdin.on("end", () => ok(text));
}));
const out = [];
for (const log of input.logs) {
  const reports = await verifyLog(log, input.rulesets, { 0: [input.seen] });
  out.push(reports.map((r) => ({ ok: r.ok, commitment: r.commitment, problems: r.problems })));
}
console.log(JSON.stringify(out));
"""


def test_the_page_is_served(live_server: LiveServer) -> None:
    page = httpx.get(live_server + "/web/verify.html")
    # The page names its script by a content-hashed URL (app/static.py).
    assert page.status_code == 200 and re.search(
        r'src="/web/js/verify\.[0-9a-f]{12}\.js"', page.text
    )
    script = httpx.get(live_server + "/web/js/verify.js")
    assert script.status_code == 200 and "export async function verifyLog" in script.text


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_page_checks_commitments_and_deals_like_the_cli(
    played: dict[str, Any], live_server: LiveServer, tmp_path: Path
) -> None:
    """web/js/verify.js, run by node: the genuine log passes; a swapped card, a reordered
    stock and another seed are caught, exactly where rummy verify catches them."""
    assert NODE is not None
    logs = [played["log"]] + [
        _tampered(played["log"], change) for change in (_swap_hand_cards, _swap_stock, _other_seed)
    ]
    rulesets = {v["name"]: v for v in ok(httpx.get(live_server + "/api/variants"))}
    script = tmp_path / "check.mjs"
    script.write_text(PAGE_CHECK % (ROOT / "web/js/verify.js").as_uri())
    done = subprocess.run(
        [NODE, str(script)],
        input=json.dumps({"logs": logs, "rulesets": rulesets, "seen": played["commitment"]}),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    genuine, swapped, reordered, reseeded = json.loads(done.stdout)
    assert genuine == [{"ok": True, "commitment": played["commitment"], "problems": []}]
    assert "seat 0's hand in the log" in swapped[0]["problems"][0]
    assert "from card 5" in reordered[0]["problems"][0]
    assert "commitment mismatch" in reseeded[0]["problems"][0]
    assert not any(r[0]["ok"] for r in (swapped, reordered, reseeded))


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's Chromium is not installed")
async def test_the_page_verifies_in_a_browser(
    played: dict[str, Any], live_server: LiveServer
) -> None:
    async with chromium_page() as (page, errors):
        # The seat link's room and token: the page fetches the log itself.
        await page.goto(
            f"{live_server}/web/verify.html#room={played['room']}&seat={played['token']}"
        )
        results = page.locator("#results li")
        await results.last.filter(has_text="every hand verified").wait_for(timeout=30_000)
        assert await results.first.text_content() == (
            f"hand 0: OK — commitment {played['commitment']}"
        )
        # A tampered log pasted in, with the commitment noted during the hand.
        await page.fill("#log", json.dumps(_tampered(played["log"], _other_seed)))
        await page.fill("#seen", f"0={played['commitment']}")
        await page.click("button[type=submit]")
        await results.last.filter(has_text="VERIFICATION FAILED").wait_for(timeout=30_000)
        first = await results.first.text_content()
        assert first is not None
        assert first.startswith("hand 0: FAIL") and "commitment mismatch" in first
    assert errors == []


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's Chromium is not installed")
async def test_the_page_notes_the_commitment_during_play(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    """Opened during a hand, the page shows and keeps the hand's commitment; after the hand
    it checks the log against it, so a log re-dealt from another seed fails even when the
    player noted nothing by hand."""
    from playwright.async_api import async_playwright

    room, tokens = await online_room(http, "classic", 2, seed=SEED)
    shown = ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0])))
    url = f"{live_server}/web/verify.html#room={room}&seat={tokens[0]}"
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page()
            await page.goto(url)
            results = page.locator("#results li")
            playing = results.filter(has_text="is being played")
            await playing.wait_for(timeout=30_000)
            noted = await playing.text_content()
            assert noted is not None
            assert shown["commitment"] in noted
            assert await results.first.text_content() == "the log holds no finished hand yet"
            await _play_to_the_end(http, room, tokens)
            await page.goto("about:blank")
            await page.goto(url)
            await results.last.filter(has_text="every hand verified").wait_for(timeout=30_000)
            assert await results.first.text_content() == (
                f"hand 0: OK — commitment {shown['commitment']}"
            )
            log = ok(await http.get(f"/api/rooms/{room}/log", headers=bearer(tokens[0])))
            await page.fill("#log", json.dumps(_tampered(log, _other_seed)))
            await page.click("button[type=submit]")
            await results.last.filter(has_text="VERIFICATION FAILED").wait_for(timeout=30_000)
            first = await results.first.text_content()
            assert first is not None
            assert "commitment mismatch" in first and shown["commitment"] in first
        finally:
            await browser.close()
