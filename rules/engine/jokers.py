"""Whether the jokers a player must still play this turn can all reach the table (rummy51's
taken joker), with a card left to discard: the check behind `MustPlayJoker`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rules.cards import JOKER


def _joker_pairs(nat: Sequence[int], distinct: bool, ace_high: bool) -> Iterator[tuple[int, int]]:
    """Index pairs of natural cards that make a meld with one joker (or two)."""
    for i, a in enumerate(nat):
        for j in range(i + 1, len(nat)):
            b = nat[j]
            if a % 13 == b % 13 and (a != b or not distinct):
                yield i, j
            elif a // 13 == b // 13 and a != b:
                lo, hi = sorted((a % 13, b % 13))
                # Q-K-A with the ace high; never K-A-2, so 2 and K are not a pair.
                if hi - lo <= 2 or (ace_high and lo == 0 and hi >= 11):
                    yield i, j


def jokers_can_land(
    after: Sequence[int], must: int, slots: int, drawn: int, distinct: bool, ace_high: bool
) -> bool:
    """Whether `must` jokers of the hand `after` can all be played this turn and still
    leave a card to discard, with `slots` places for a joker on the table.

    Exact for a pack of at most two jokers (rummy51): a joker goes onto the table or into
    one new meld with one natural card and the other joker, or with two natural cards. A
    bigger meld only leaves fewer cards to discard, and a lay-off never makes a place for a
    joker, so no other play can help.
    """
    jokers = after.count(JOKER)
    nat = [c for c in after if c != JOKER]
    # A joker taken from the discard pile this turn may not be discarded either.
    drawn_joker = 1 if drawn == JOKER else 0

    def leaves_discard(left: list[int], spare: int) -> bool:
        return spare - drawn_joker >= 1 or any(c != drawn or left.count(c) > 1 for c in left)

    if slots >= must and leaves_discard(nat, jokers - must):
        return True
    for k in (1, 2):
        table = max(0, must - k)
        if k > jokers or table > slots:
            continue
        spare = jokers - k - table
        if k == 2:
            for i in range(len(nat)):
                if leaves_discard(nat[:i] + nat[i + 1 :], spare):
                    return True
        for i, j in _joker_pairs(nat, distinct, ace_high):
            if leaves_discard([c for x, c in enumerate(nat) if x not in (i, j)], spare):
                return True
    return False
