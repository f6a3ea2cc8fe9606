"""A `RuleSet` flattened into plain attributes and int tables for the hot path."""

from __future__ import annotations

from rules.cards import JOKER, N_CODES, RANKS, make_deck
from rules.runs import top_rank
from rules.variants import VARIANTS, RuleSet

EX_KEEP_TOP_ON_DRAW, EX_REBUILD_WHOLE, EX_KEEP_TOP_AFTER_TURN = 0, 1, 2
RUMMY_NONE, RUMMY_DOUBLE, RUMMY_PENALTY = 0, 1, 2
_EXHAUSTION = {
    "keep_top_on_draw": EX_KEEP_TOP_ON_DRAW,
    "rebuild_whole_pile": EX_REBUILD_WHOLE,
    "keep_top_after_turn": EX_KEEP_TOP_AFTER_TURN,
}
_RUMMY = {"none": RUMMY_NONE, "double": RUMMY_DOUBLE, "penalty": RUMMY_PENALTY}


def _values(table: dict[str, int] | None) -> tuple[int, ...]:
    """Points per engine card int (index 52 is the joker)."""
    if table is None:
        return (0,) * N_CODES
    per_rank = [table.get(r, 0) for r in RANKS]
    return tuple(per_rank[c % 13] for c in range(52)) + (table.get("JK", 0),)


class FastRules:
    """The switches of one variant as attributes the engine reads without pydantic."""

    __slots__ = (
        "ruleset", "name", "min_players", "max_players", "hand_size", "deck", "copies",
        "has_jokers", "ace_high", "top_rank", "distinct", "layoff_before_open", "opening_min",
        "opening_values",
        "must_discard_out", "rummy", "rummy_penalty", "rummy_allows_layoff",
        "rummy_skips_opening", "joker_swap", "free_jokers", "must_play_joker", "exhaustion",
        "second_stalemate", "one_card_stalemate", "turn_limit", "penalty", "card_values",
        "match_target", "penalty_limit", "penalty_limits", "tag",
    )  # fmt: skip

    def __init__(self, rs: RuleSet, tag: int = 0) -> None:
        self.ruleset = rs
        # A small int naming the variant in the meld tables' keys (`rules.meldsearch`).
        self.tag = tag
        self.name = rs.name
        self.min_players = rs.min_players
        self.max_players = rs.max_players
        self.hand_size = dict(rs.hand_size)
        self.deck = tuple(make_deck(rs.decks, rs.jokers))
        # How many of each card int the pack holds (two of each in rummy51, jokers at 52).
        self.copies = tuple(self.deck.count(c) for c in range(N_CODES))
        self.has_jokers = rs.jokers > 0
        self.ace_high = rs.ace_high
        # The highest rank a run may reach (`rules.runs`): the ace above the king, or the king.
        self.top_rank = top_rank(rs.ace_high)
        self.distinct = rs.set_suits_distinct
        self.layoff_before_open = rs.layoff_before_first_meld
        self.opening_min = rs.opening_minimum or 0
        self.opening_values = _values(rs.opening_values)
        self.must_discard_out = rs.going_out == "must_discard"
        self.rummy = _RUMMY[rs.going_rummy]
        self.rummy_penalty = rs.going_rummy_penalty
        self.rummy_allows_layoff = rs.going_rummy_allows_layoff
        self.rummy_skips_opening = rs.going_rummy_skips_opening
        self.joker_swap = rs.joker_swap
        self.free_jokers = rs.set_jokers_freed
        self.must_play_joker = rs.must_play_taken_joker
        self.exhaustion = _EXHAUSTION[rs.stock_exhaustion]
        self.second_stalemate = rs.second_exhaustion_stalemate
        self.one_card_stalemate = rs.one_card_stalemate
        self.turn_limit = rs.turn_limit or 0
        self.penalty = rs.scoring == "penalty"
        self.card_values = _values(rs.card_values)
        self.match_target = dict(rs.match_target or {})
        self.penalty_limit = rs.penalty_limit or 0
        self.penalty_limits = rs.penalty_limits

    def meld_value(self, stands: tuple[int, ...]) -> int:
        """Opening value of a meld: each position counts as the card it stands for."""
        v = self.opening_values
        return sum(v[c] for c in stands if c != JOKER)


FAST_RULES: dict[str, FastRules] = {
    name: FastRules(rs, tag) for tag, (name, rs) in enumerate(VARIANTS.items())
}
assert len(FAST_RULES) <= 4, "the meld tables' keys hold a variant in 2 bits"


def fast_rules(name: str) -> FastRules:
    """The flattened rule set of a variant.

    Raises:
        KeyError: unknown variant.
    """
    if name not in FAST_RULES:
        from rules.variants import get_variant

        get_variant(name)  # raises with the list of known variants
    return FAST_RULES[name]
