"""The forger who edits a match record (docs/api.md v1.3 "Signed match records"). On a869841
`rummy verify` checked each hand against the one before, never the whole match, and nothing
said which server issued a record: 100 points added to seat 1's starting and final scores
in every hand (which changes the winner), all scores shifted, the first hand dropped, every
hand numbered 7, `limit` 999 on classic and swapped names each printed "all hands verified"
and exited 0. Now each fails with its reason: the chain and the options without a key, and
any change at all (and a record re-signed with another key) against the server's key. The
web verifier (web/js/verify.js, run by node) agrees on every one of the same files."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import rules
from tests.kit.browsers import CHROMIUM, NODE, NODE_INPUT, VERIFY_JS, chromium_page, run_node
from tests.kit.clients import bearer
from tests.kit.responses import ok
from tests.kit.servers import LiveServer

Record = dict[str, Any]


def _move(view: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 plays as the greedy bot would (bots/greedy.py), from its own view."""
    from bots.greedy import GreedyStrategy

    fields = rules.SeatView.model_fields
    seat_view = rules.SeatView.model_validate({k: v for k, v in view.items() if k in fields})
    legal = list(rules.legal_moves(seat_view))
    return rules.move_to_json(GreedyStrategy().choose(seat_view, legal, Random(0)))


async def _play(http: httpx.AsyncClient, variant: str, seed: int, until: str) -> Record:
    """Seat 0 against the greedy bot (the server plays it inside each answer) until the
    phase `until`; the room's signed record then."""
    made = {"variant": variant, "name": "Anna", "seed": seed, "mode": "computer"}
    created = ok(await http.post("/api/rooms", json={**made, "bots": {"1": "greedy"}}), 201)
    room, token = created["room"], created["token"]
    view = ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(token)))
    for _ in range(3000):
        if view["phase"] == until:
            return dict(ok(await http.get(f"/api/rooms/{room}/record", headers=bearer(token))))
        if view["phase"] == "hand_over":
            answer = await http.post(
                f"/api/rooms/{room}/votes", json={"vote": "next_hand"}, headers=bearer(token)
            )
        else:
            sent = {"move": _move(view), "version": view["version"]}
            answer = await http.post(f"/api/rooms/{room}/moves", json=sent, headers=bearer(token))
        view = ok(answer)
    raise AssertionError(f"no {until} in 3000 moves")


@pytest.fixture(scope="module")
async def signed(live_server: LiveServer) -> dict[str, Any]:
    """Signed records of real play: a rummy51 match to its end (seed 48 ends it in two
    hands), a classic match after its first hand; and the server's key."""
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as http:
        records = {
            "rummy51": await _play(http, "rummy51", 48, "match_over"),
            "classic": await _play(http, "classic", 6, "hand_over"),
        }
        key = ok(await http.get("/api/server-key"))
        rulesets = {v["name"]: v for v in ok(await http.get("/api/variants"))}
    finished = records["rummy51"]
    assert len(finished["hands"]) == 2 and finished["match_winner"], finished["scores"]
    assert records["classic"]["match_winner"] is None
    return {"records": records, "key": key, "rulesets": rulesets}


# --- the forgeries ------------------------------------------------------------------------


def _seat_1_plus_100(r: Record) -> None:
    for hand in r["hands"]:
        hand["start_scores"][1] += 100
    r["scores"][1] += 100
    r["match_winner"] = [1]


def _all_scores_shifted(r: Record) -> None:
    for hand in r["hands"]:
        hand["start_scores"] = [s + 7 for s in hand["start_scores"]]
    r["scores"] = [s + 7 for s in r["scores"]]


def _first_hand_dropped(r: Record) -> None:
    del r["hands"][0]


def _every_hand_numbered_7(r: Record) -> None:
    for hand in r["hands"]:
        hand["number"] = 7


def _limit_999(r: Record) -> None:
    r["options"]["limit"] = 999


def _names_swapped(r: Record) -> None:
    r["players"].reverse()


def _winner_erased(r: Record) -> None:
    r["match_winner"] = None


def _signature_removed(r: Record) -> None:
    del r["signature"]


def _resigned_with_another_key(r: Record) -> None:
    from app.records.signing import RecordSigner

    r.update(RecordSigner(Ed25519PrivateKey.generate()).sign(r))


# (forgery, the line that names it without a key (None: only the signature can tell),
#  the line with the server's key)
FORGERIES: dict[str, tuple[Callable[[Record], None], str | None, str]] = {
    "seat 1 +100 in every hand": (
        _seat_1_plus_100,
        "hand 0: FAIL  the match starts at the scores [0, 100]",
        "signature: FAIL  the signature does not match",
    ),
    "all scores shifted": (
        _all_scores_shifted,
        "hand 0: FAIL  the match starts at the scores [7, 7]",
        "signature: FAIL  the signature does not match",
    ),
    "first hand dropped": (
        _first_hand_dropped,
        "hand 1: FAIL  the hand is numbered 1, but it is hand 0",
        "signature: FAIL  the signature does not match",
    ),
    "every hand numbered 7": (
        _every_hand_numbered_7,
        "hand 7: FAIL  the hand is numbered 7, but it is hand 0",
        "signature: FAIL  the signature does not match",
    ),
    "limit 999 on classic": (
        _limit_999,
        "match: FAIL  options.limit 999 does not fit classic: it takes none (null)",
        "signature: FAIL  the signature does not match",
    ),
    "winner erased": (
        _winner_erased,
        "match: FAIL  the record says the match is still in play, but its hands say won by",
        "signature: FAIL  the signature does not match",
    ),
    "names swapped": (_names_swapped, None, "signature: FAIL  the signature does not match"),
    "signature removed": (_signature_removed, None, "signature: FAIL  the record is not signed"),
    "re-signed with another key": (
        _resigned_with_another_key,
        None,
        "signature: FAIL  signed by another key",
    ),
}


def _forged(signed: dict[str, Any], name: str) -> Record:
    """The forgery `name` of the finished rummy51 match (of the classic one, for classic's)."""
    copied = copy.deepcopy(signed["records"]["classic" if "classic" in name else "rummy51"])
    FORGERIES[name][0](copied)
    return copied


def _verify(tmp_path: Path, record: Record, *args: str) -> tuple[int, list[str]]:
    """`rummy verify` in this process (app.cli.main, as the console script runs it)."""
    from app.cli import main

    path = tmp_path / "match.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["verify", str(path), *args])
    assert not err.getvalue(), err.getvalue()
    return code, out.getvalue().splitlines()


def test_the_genuine_record_verifies_with_and_without_the_key(
    signed: dict[str, Any], tmp_path: Path, live_server: LiveServer
) -> None:
    for record, end in zip(
        signed["records"].values(), ("won by seat 0", "still in play"), strict=True
    ):
        assert record["signature"]["key_id"] == signed["key"]["id"]
        code, lines = _verify(tmp_path, record)
        assert code == 0 and lines[-1] == "all hands verified", lines
        assert lines[-2].startswith("signature: not checked")
        assert any(line.startswith("match: OK") and line.endswith(end) for line in lines), lines
        for args in (["--key", signed["key"]["key"]], ["--server", str(live_server)]):
            code, lines = _verify(tmp_path, record, *args)
            assert code == 0, lines
            assert f"signature: OK  signed by key {signed['key']['id']}" in lines


@pytest.mark.parametrize("name", FORGERIES)
def test_every_forgery_fails_with_its_reason(
    signed: dict[str, Any], tmp_path: Path, name: str
) -> None:
    _, without, with_key = FORGERIES[name]
    forged = _forged(signed, name)
    code, lines = _verify(tmp_path, forged)
    if without is None:
        assert code == 0, lines  # consistent in itself: only its signature can tell
    else:
        assert code == 1 and lines[-1] == "VERIFICATION FAILED", lines
        assert any(line.startswith(without) for line in lines), lines
    code, lines = _verify(tmp_path, forged, "--key", signed["key"]["key"])
    assert code == 1 and lines[-1] == "VERIFICATION FAILED", lines
    assert any(line.startswith(with_key) for line in lines), lines


def test_every_process_of_a_database_signs_with_one_key(
    signed: dict[str, Any], live_server: LiveServer, make_server: Any
) -> None:
    other = make_server(database_url=live_server.database_url)
    assert ok(httpx.get(f"{other}/api/server-key")) == signed["key"]


def test_a_key_that_is_no_key_is_refused_in_one_line(
    signed: dict[str, Any], tmp_path: Path
) -> None:
    from app.cli import main

    path = tmp_path / "match.json"
    path.write_text(json.dumps(signed["records"]["classic"]))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["verify", str(path), "--key", "not-a-key"]) == 2
    assert len(err.getvalue().splitlines()) == 1 and "base64" in err.getvalue()


# --- the web verifier agrees --------------------------------------------------------------

NODE_CHECK = f"""
import {{ verifyRecord, checkSignature }} from "{VERIFY_JS}";
{NODE_INPUT}
const out = [];
for (const record of input.records) {{
  const {{ hands, match }} = await verifyRecord(record, input.rulesets);
  const failing = hands.filter((r) => !r.ok).map((r) => `hand ${{r.hand}}`);
  if (!match.ok) failing.push("match");
  const keyed = [...failing];
  const signed = await checkSignature(record, input.key);
  if (signed.status !== "ok") keyed.push(`signature ${{signed.status}}`);
  const problems = [...hands.flatMap((r) => r.problems), ...match.problems];
  out.push({{ failing, keyed, problems }});
}}
console.log(JSON.stringify(out));
"""
# A browser whose WebCrypto has no Ed25519 (as some still lack it).
NODE_NO_ED25519 = f"""
import {{ checkSignature }} from "{VERIFY_JS}";
crypto.subtle.importKey = async () => {{ throw new DOMException("Ed25519", "NotSupportedError"); }};
{NODE_INPUT}
console.log(JSON.stringify(await checkSignature(input.record, input.key)));
"""


def _failing(lines: list[str]) -> list[str]:
    parts = [line.split(": FAIL", 1)[0] for line in lines if ": FAIL" in line]
    return [p if p != "signature" else "signature fail" for p in parts]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_web_verifier_agrees_on_every_file(signed: dict[str, Any], tmp_path: Path) -> None:
    names = [*(f"genuine {v}" for v in signed["records"]), *FORGERIES]
    records = [*signed["records"].values(), *(_forged(signed, n) for n in FORGERIES)]
    payload = {"records": records, "rulesets": signed["rulesets"], "key": signed["key"]["key"]}
    verdicts = run_node(tmp_path, NODE_CHECK, payload)
    for name, record, web in zip(names, records, verdicts, strict=True):
        _, lines = _verify(tmp_path, record)
        _, keyed = _verify(tmp_path, record, "--key", signed["key"]["key"])
        assert web["failing"] == _failing(lines), (name, web, lines)
        assert web["keyed"] == _failing(keyed), (name, web, keyed)
        # The whole-match checks say the same words in both.
        cli = {
            p for line in lines if ": FAIL  " in line for p in line.split(": FAIL  ")[1].split("; ")
        }
        assert cli <= set(web["problems"]), (name, cli, web["problems"])


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_without_ed25519_the_web_verifier_says_it_did_not_check(
    signed: dict[str, Any], tmp_path: Path
) -> None:
    payload = {"record": _forged(signed, "names swapped"), "key": signed["key"]["key"]}
    said = run_node(tmp_path, NODE_NO_ED25519, payload)
    assert said["status"] == "unsupported" and "NOT checked" in said["text"], said


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's Chromium is not installed")
async def test_the_page_checks_a_record_and_its_signature(
    signed: dict[str, Any], live_server: LiveServer
) -> None:
    async with chromium_page() as (page, errors):
        await page.goto(f"{live_server}/web/verify.html")
        results = page.locator("#results li")
        for record, last, signature in (
            (signed["records"]["rummy51"], "every hand verified", "signature: OK"),
            (_forged(signed, "names swapped"), "VERIFICATION FAILED", "signature: FAIL"),
            (_forged(signed, "winner erased"), "VERIFICATION FAILED", "signature: FAIL"),
        ):
            await page.fill("#log", json.dumps(record))
            await page.click("button[type=submit]")
            await results.last.filter(has_text=last).wait_for(timeout=30_000)
            await results.filter(has_text=signature).wait_for(timeout=30_000)
        await results.filter(has_text="match: FAIL").wait_for(timeout=30_000)
    assert errors == []
