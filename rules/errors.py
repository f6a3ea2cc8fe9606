"""The errors the rules raise. Each `code` is public API (docs/api.md): never rename one."""

from __future__ import annotations

from typing import ClassVar


class IllegalMove(ValueError):
    """A move, vote or deal the rules reject. Nothing was changed.

    `code` is the stable snake_case name clients match on; `message` names the card or meld
    in plain words and never reveals a card the seat cannot see.
    """

    code: ClassVar[str] = "invalid_move"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class InvalidMove(IllegalMove):
    code = "invalid_move"


class NotYourTurn(IllegalMove):
    code = "not_your_turn"


class WrongPhase(IllegalMove):
    """The move does not fit the phase: a move after the hand ended, a vote during play."""

    code = "wrong_phase"


class MustDrawFirst(IllegalMove):
    code = "must_draw_first"


class AlreadyDrawn(IllegalMove):
    code = "already_drawn"


class NothingToDraw(IllegalMove):
    code = "nothing_to_draw"


class CardNotInHand(IllegalMove):
    code = "card_not_in_hand"


class InvalidMeld(IllegalMove):
    code = "invalid_meld"


class MeldNotFound(IllegalMove):
    code = "meld_not_found"


class InvalidLayoff(IllegalMove):
    code = "invalid_layoff"


class InvalidSwap(IllegalMove):
    code = "invalid_swap"


class NotOpened(IllegalMove):
    """rummy51: laying off or taking a joker before the 51-point opening."""

    code = "not_opened"


class OpeningBelow51(IllegalMove):
    code = "opening_below_51"


class CannotDiscardDrawnCard(IllegalMove):
    code = "cannot_discard_drawn_card"


class MustDiscardToGoOut(IllegalMove):
    """rummy51: the last card must be discarded, never melded or laid off."""

    code = "must_discard_to_go_out"


class MustPlayJoker(IllegalMove):
    """rummy51: a joker taken from the table this turn must be melded or laid off again."""

    code = "must_play_joker"


class InvalidDeal(IllegalMove):
    code = "invalid_deal"


class InvalidVote(IllegalMove):
    code = "invalid_vote"


class InvalidSetup(IllegalMove):
    """A game that cannot be set up: a player count the variant does not allow."""

    code = "invalid_setup"
