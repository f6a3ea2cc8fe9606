"""The bots' own hand arithmetic: cheapest splits and lay-off targets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rules
from bots.melds import Splitter, candidate_melds, layoff_cards
from rules.playout import code_to_int as parse
from rules.playout import fast_rules as variant
from rules.playout import int_to_code as code
from rules.playout import ints


def parse_all(codes: list[str]) -> list[int]:
    return list(ints(codes))


def meld(kind: str, cards: str) -> rules.TableMeld:
    """A table meld of naturals (stands for itself)."""
    codes = tuple(cards.split())
    return rules.TableMeld(id="m1", kind=kind, cards=codes, stands_for=codes)  # type: ignore[arg-type]


def split(variant_name: str, hand: str) -> tuple[int, list[list[str]]]:
    cost, melds = Splitter(variant(variant_name)).best(parse_all(hand.split()))
    return cost, sorted([code(c) for c in m.layout] for m in melds)


def test_card_codes_round_trip() -> None:
    for c in list(range(52)) + [52]:
        assert parse(code(c)) == c
    assert code(parse("TD")) == "TD" and parse("JK") == 52


def test_classic_split_prefers_the_cheapest_deadwood() -> None:
    cost, melds = split("classic", "AH 2H 3H 4H 7C 7D 7S KC KD QS")
    assert melds == [["7C", "7D", "7S"], ["AH", "2H", "3H", "4H"]]
    assert cost == 30


def test_classic_ace_is_low_only() -> None:
    cost, melds = split("classic", "QH KH AH")
    assert melds == [] and cost == 21


def test_rummy51_uses_jokers_and_the_high_ace() -> None:
    cost, melds = split("rummy51", "QH KH AH 7C 7D JK 9S")
    assert ["QH", "KH", "AH"] in melds
    assert any("JK" in m and "7C" in m for m in melds)
    assert cost == 9


def test_rummy51_sets_need_distinct_suits() -> None:
    cost, melds = split("rummy51", "7C 7C 7D")
    assert melds == [] and cost == 21


def test_candidate_runs_fill_gaps_with_jokers() -> None:
    combos = candidate_melds(parse_all("5H 7H JK".split()), variant("rummy51"))
    assert any(c.layout == tuple(parse_all(["5H", "JK", "7H"])) for c in combos)


def test_layoff_targets() -> None:
    v = variant("rummy51")
    assert layoff_cards(meld("run", "5H 6H 7H"), v) == set(parse_all(["4H", "8H"]))
    assert layoff_cards(meld("run", "QH KH AH"), v) == {parse("JH")}
    assert layoff_cards(meld("set", "7C 7D 7H"), v) == {parse("7S")}
    assert layoff_cards(meld("run", "JH QH KH"), v) == {parse("TH"), parse("AH")}
    c = variant("classic")
    assert layoff_cards(meld("run", "JH QH KH"), c) == {parse("TH")}


# Sixty turns of an expert and two greedy bots with the collector off, then what a collection
# finds: nothing, when every split and search frees itself as it ends.
_PLAY_AND_COLLECT = """
import gc, sys
from random import Random
import rules
from bots.tournament import play_turn, tuned_strategy
variant = sys.argv[1]
bots = [tuned_strategy(name, {}) for name in ("expert", "greedy", "greedy")]
rng = Random(5)
state = rules.new_game(variant, 3, seed=b"cycles")
gc.collect()
gc.disable()
for _ in range(60):
    if state.phase not in ("draw", "play"):
        break
    state, _ = play_turn(state, state.turn, bots, rng)
print(gc.collect())
"""


@pytest.mark.parametrize("variant", ["basic", "rummy51"])
def test_bots_leave_no_reference_cycles_behind(variant: str) -> None:
    """A cycle per split or search made the cyclic collector pause the bots' process every
    few hundred moves. In a process of its own: threads that earlier tests of this worker
    left running (servers, pools) make garbage of their own meanwhile."""
    played = subprocess.run(
        [sys.executable, "-c", _PLAY_AND_COLLECT, variant],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
    )
    assert played.stdout.split()[-1] == "0"
