"""`rules.runs`, the one home of run adjacency and the ace's two ranks (bots ask it)."""

from __future__ import annotations

from rules.cards import JOKER, code_to_int, int_to_code, ints
from rules.runs import HIGH_ACE, neighbour, run_neighbours, run_start, top_rank


def _n(code: str, delta: int, ace_high: bool) -> str | None:
    card = neighbour(code_to_int(code), delta, ace_high)
    return None if card is None else int_to_code(card)


def test_the_ace_sits_above_the_king_only_where_runs_may_end_q_k_a() -> None:
    assert _n("KH", 1, True) == "AH" and _n("KH", 1, False) is None
    assert _n("QH", 2, True) == "AH" and _n("QH", 2, False) is None
    assert _n("AH", -1, True) == "KH" and _n("AH", -2, True) == "QH"
    assert _n("AH", -1, False) is None
    assert _n("AH", 1, True) == "2H" and _n("2H", -1, False) == "AH"
    assert top_rank(True) == HIGH_ACE and top_rank(False) == 13


def test_never_round_the_corner_k_a_2() -> None:
    assert _n("KH", 2, True) is None  # K-A-2 is no run
    assert _n("2H", -2, True) is None
    assert code_to_int("2H") not in run_neighbours(code_to_int("KH"), True)


def test_neighbours_are_within_two_ranks_of_one_suit() -> None:
    near = run_neighbours(code_to_int("5D"), False)
    assert near == frozenset(ints(("3D", "4D", "6D", "7D")))


def test_a_runs_first_rank_counts_jokers_before_it_and_reads_a_late_ace_high() -> None:
    assert run_start(ints(("5H", "6H", "7H"))) == 5
    assert run_start((JOKER, *ints(("6H", "7H")))) == 5
    assert run_start((JOKER, JOKER, code_to_int("AH"))) == 12  # Q K A
    assert run_start(ints(("AH", "2H", "3H"))) == 1
