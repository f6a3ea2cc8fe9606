"""The three variants as data: a frozen `RuleSet` per variant in the `VARIANTS` registry.

The engine branches on these switches, never on a variant's name. `GET /api/variants`
publishes `RuleSet.model_dump()` as is, so every field is named for people.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from typing_extensions import TypeAliasType

from rules.moves import SENT_WHOLE, Frozen

# The variants' names (`VARIANTS`' keys), one enum in JSON Schema: a typo fails in the client.
VariantName = TypeAliasType("VariantName", Literal["classic", "basic", "rummy51"])

_NUMBERS = {str(n): n for n in range(2, 10)} | {"T": 10}
POINTS_ACE_1 = {"A": 1} | _NUMBERS | {"J": 10, "Q": 10, "K": 10}
PENALTY_ACE_11 = {"A": 11} | _NUMBERS | {"J": 10, "Q": 10, "K": 10, "JK": 25}
OPENING_VALUES = {"A": 10} | _NUMBERS | {"J": 10, "Q": 10, "K": 10}


class RuleSet(Frozen):
    """Every rule switch of one variant (RULES.md). A *(house)* rule is ours, not the seed's."""

    model_config = SENT_WHOLE

    name: VariantName
    title: str
    min_players: int
    max_players: int
    hand_size: dict[int, int] = Field(description="cards dealt to each player, by player count")
    decks: int = Field(description="52-card decks in the pack")
    jokers: int
    ace_low: bool = True
    ace_high: bool = Field(description="Q-K-A is a run; never wraps (K-A-2)")
    set_suits_distinct: bool = Field(description="a set's cards all have different suits")
    layoff_before_first_meld: bool = Field(
        description="a player may lay off before their own first meld"
    )
    opening_minimum: int | None = Field(
        description="points a player's first meld move must total (jokers count as the card "
        "they stand for); none when there is no opening rule"
    )
    opening_values: dict[str, int] | None = Field(description="card values for the opening")
    going_out: Literal["meld_or_discard", "must_discard"] = Field(
        description="must_discard: melding or laying off the last card is illegal"
    )
    going_rummy: Literal["none", "double", "penalty"] = Field(
        description="double: the winner's points double; penalty: every other player gets "
        "going_rummy_penalty extra points"
    )
    going_rummy_penalty: int = 0
    going_rummy_allows_layoff: bool = Field(
        description="whether laying off during the going-rummy turn still counts as rummy"
    )
    going_rummy_skips_opening: bool = Field(
        description="melding all cards but one in one meld move needs no opening minimum"
    )
    joker_swap: bool = Field(description="an opened player may swap a run's joker for its card")
    set_jokers_freed: bool = Field(
        description="laying off both missing suits onto a 3-card set with a joker frees it"
    )
    must_play_taken_joker: bool = Field(
        description="a joker taken from the table must be played again in the same turn"
    )
    stock_exhaustion: Literal["keep_top_on_draw", "rebuild_whole_pile", "keep_top_after_turn"] = (
        Field(
            description="keep_top_on_draw: when a player draws from an empty stock, the "
            "discard pile except its top becomes the stock; rebuild_whole_pile: at the end of "
            "the turn that emptied the stock the whole discard pile becomes the stock; "
            "keep_top_after_turn: at the end of that turn all but the last discard become "
            "the stock"
        )
    )
    second_exhaustion_stalemate: bool = Field(
        description="the hand ends in a stalemate at the end of the turn that empties the "
        "stock a second time"
    )
    nothing_to_draw: Literal["draw"] = Field(
        default="draw", description="(house) nothing left to draw at all: the hand is a draw"
    )
    one_card_stalemate: bool = Field(
        description="stalemate when every player holds one card and no card off the table "
        "can be laid off"
    )
    turn_limit: int | None = Field(
        description="completed turns after which the hand is a draw with no points"
    )
    scoring: Literal["winner_takes_all", "penalty"]
    card_values: dict[str, int] = Field(description="points of a card left in hand")
    match_target: dict[int, int] | None = Field(
        description="winner_takes_all: first at or above this total, by player count"
    )
    penalty_limit: int | None = Field(
        description="penalty: the match ends after a hand in which someone reaches this; "
        "the lowest total wins and ties share the win"
    )
    penalty_limits: tuple[int, ...] = Field(
        default=(), description="penalty: the limits a room may choose instead (house)"
    )
    house_rules: tuple[str, ...] = ()

    def points_of(self, code: str) -> int:
        """What the card `code` costs left in hand at the end of a hand (`card_values`)."""
        return self.card_values.get("JK" if code == "JK" else code[0], 0)

    @property
    def deck_size(self) -> int:
        """Cards in the pack: every card of a hand is one of these."""
        return 52 * self.decks + self.jokers


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
