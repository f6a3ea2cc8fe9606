"""The rule sets (`GET /api/variants`): every switch of a variant, named for people, and the
variants' names."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from typing_extensions import TypeAliasType

from rummy_wire.base import SENT_WHOLE, Frozen

# The variants' names (`VARIANTS`' keys), one enum in JSON Schema: a typo fails in the client.
VariantName = TypeAliasType("VariantName", Literal["classic", "basic", "rummy51"])


class RuleSet(Frozen):
    """Every rule switch of one variant. A *(house)* rule is the server's, not the original
    rule text's."""

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
