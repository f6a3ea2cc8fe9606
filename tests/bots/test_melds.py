"""The bots' own hand arithmetic: cheapest splits and lay-off targets."""

from __future__ import annotations

from bots.cards import code, parse, parse_all, variant
from bots.melds import Splitter, candidate_melds, layoff_cards


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
    assert layoff_cards(parse_all(["5H", "6H", "7H"]), "run", v) == set(parse_all(["4H", "8H"]))
    assert layoff_cards(parse_all(["QH", "KH", "AH"]), "run", v) == {parse("JH")}
    assert layoff_cards(parse_all(["7C", "7D", "7H"]), "set", v) == {parse("7S")}
    c = variant("classic")
    assert layoff_cards(parse_all(["JH", "QH", "KH"]), "run", c) == {parse("TH")}
