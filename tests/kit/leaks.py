"""The card-leak detector of the hidden-information audits: the cards a text names, and
those of them a seat cannot know of."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

# A card code standing alone: room ids and tokens are URL-safe words ([A-Za-z0-9_-]) that
# may hold two letters like "QC" by chance, so those characters do not end a word either.
CARD = re.compile(r"(?<![A-Za-z0-9_-])(?:[A2-9TJQK][CDHS]|JK)(?![A-Za-z0-9_-])")
QUOTED_CARD = re.compile(r'"([A2-9TJQK][CDHS]|JK)"')


def cards_in(text: str) -> Counter[str]:
    """Every card code written anywhere in a JSON text (keys, values, messages)."""
    return Counter(CARD.findall(text))


def public_cards(state: Any) -> set[str]:
    """Cards every seat sees in `state`: the discard pile and the table (a card taken from
    the discard pile stays known: `drawn_from_discard`, `last_move`)."""
    seen = set(state.discard)
    for meld in state.melds:
        seen.update(meld.cards)
        seen.update(meld.stands_for)
    if state.drawn_from_discard:
        seen.add(state.drawn_from_discard)
    if state.last_move is not None:  # a discard reshuffled straight into the stock
        seen.update(cards_in(json.dumps(state.last_move.move)))
    return seen


def hidden_from(state: Any, seat: int, public: Iterable[str] = ()) -> set[str]:
    """Cards `seat` must not learn of: those in another hand or in the stock, unless the
    seat holds a copy or has seen the card in the open this hand (`public`)."""
    secret: set[str] = set(state.stock)
    for other, hand in enumerate(state.hands):
        if other != seat:
            secret.update(hand)
    return secret - set(state.hands[seat]) - public_cards(state) - set(public)


def leaks(
    text: str, state: Any, seat: int, sent: Iterable[str] = (), public: Iterable[str] = ()
) -> set[str]:
    """Cards named in `text` that `seat` cannot know of in `state`, leaving out the cards the
    seat itself named in its request (an error may repeat them)."""
    return (set(cards_in(text)) & hidden_from(state, seat, public)) - set(sent)


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True)
