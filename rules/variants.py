"""The three variants as data: a frozen `RuleSet` (the wire's model, rummy_wire.variants)
per variant in the `VARIANTS` registry.

The engine branches on these switches, never on a variant's name. `GET /api/variants`
publishes `RuleSet.model_dump()` as is, so every field is named for people.
"""

from __future__ import annotations

from rummy_wire.variants import RuleSet, VariantName

__all__ = ["VARIANTS", "RuleSet", "VariantName", "get_variant"]

_NUMBERS = {str(n): n for n in range(2, 10)} | {"T": 10}
POINTS_ACE_1 = {"A": 1} | _NUMBERS | {"J": 10, "Q": 10, "K": 10}
PENALTY_ACE_11 = {"A": 11} | _NUMBERS | {"J": 10, "Q": 10, "K": 10, "JK": 25}
OPENING_VALUES = {"A": 10} | _NUMBERS | {"J": 10, "Q": 10, "K": 10}


CLASSIC = RuleSet(
    name="classic",
    title="Rummy online with a friend",
    min_players=2,
    max_players=2,
    hand_size={2: 10},
    decks=1,
    jokers=0,
    ace_high=False,
    set_suits_distinct=True,
    layoff_before_first_meld=True,
    opening_minimum=None,
    opening_values=None,
    going_out="meld_or_discard",
    going_rummy="none",
    going_rummy_allows_layoff=True,
    going_rummy_skips_opening=False,
    joker_swap=False,
    set_jokers_freed=False,
    must_play_taken_joker=False,
    stock_exhaustion="keep_top_on_draw",
    second_exhaustion_stalemate=False,
    one_card_stalemate=False,
    turn_limit=200,
    scoring="winner_takes_all",
    card_values=POINTS_ACE_1,
    match_target={2: 100},
    penalty_limit=None,
    house_rules=("nothing left to draw at all: the hand is a draw",),
)

BASIC = RuleSet(
    name="basic",
    title="Basic Rummy",
    min_players=2,
    max_players=4,
    hand_size={2: 10, 3: 7, 4: 7},
    decks=1,
    jokers=0,
    ace_high=False,
    set_suits_distinct=True,
    layoff_before_first_meld=True,
    opening_minimum=None,
    opening_values=None,
    going_out="meld_or_discard",
    going_rummy="double",
    going_rummy_allows_layoff=True,
    going_rummy_skips_opening=False,
    joker_swap=False,
    set_jokers_freed=False,
    must_play_taken_joker=False,
    stock_exhaustion="rebuild_whole_pile",
    second_exhaustion_stalemate=True,
    one_card_stalemate=True,
    turn_limit=400,
    scoring="winner_takes_all",
    card_values=POINTS_ACE_1,
    match_target={2: 100, 3: 150, 4: 200},
    penalty_limit=None,
    house_rules=(
        "after 400 completed turns the hand is a draw (players who keep taking the discard "
        "never empty the stock)",
    ),
)

RUMMY51 = RuleSet(
    name="rummy51",
    title="Rummy with jokers and a 51-point opening",
    min_players=2,
    max_players=4,
    hand_size={2: 13, 3: 13, 4: 13},
    decks=2,
    jokers=2,
    ace_high=True,
    set_suits_distinct=True,
    layoff_before_first_meld=False,
    opening_minimum=51,
    opening_values=OPENING_VALUES,
    going_out="must_discard",
    going_rummy="penalty",
    going_rummy_penalty=25,
    going_rummy_allows_layoff=False,
    going_rummy_skips_opening=True,
    joker_swap=True,
    set_jokers_freed=True,
    must_play_taken_joker=True,
    stock_exhaustion="keep_top_after_turn",
    second_exhaustion_stalemate=False,
    one_card_stalemate=False,
    turn_limit=400,
    scoring="penalty",
    card_values=PENALTY_ACE_11,
    match_target=None,
    penalty_limit=101,
    penalty_limits=(101, 201, 301),
    house_rules=(
        "2 to 4 players",
        "a taken joker must be played again in the same turn",
        "the match ends after a hand in which someone reaches 101 penalty points (or the "
        "room's limit: 201 or 301); the lowest total wins, ties share",
        "after 400 completed turns the hand is a draw with no penalties",
    ),
)

VARIANTS: dict[str, RuleSet] = {r.name: r for r in (CLASSIC, BASIC, RUMMY51)}


def get_variant(name: str) -> RuleSet:
    """The rule set called `name`.

    Raises:
        KeyError: no variant has that name (the message lists the known ones).
    """
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"unknown variant {name!r}; known variants: {known}") from None
