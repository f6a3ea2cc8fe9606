"""Plain words for a suggested move, in English and Dutch (the hint's `reason`).

`explain(view, move)` says what the move does and why, from the seat's view only: the melds
of the hand's cheapest split, the partial melds it keeps, and which of the cards they wait for
the seat has not seen yet ("still live"). Nothing here knows another hand or the stock.

>>> card_words(playout.code_to_int("9H"))
{'en': '9 of hearts', 'nl': 'harten 9'}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bots.greedy import splitter_for
from bots.strategy import joker_stands, move_cards
from rules import playout
from rules.playout import JOKER
from rules.runs import neighbour, run_neighbours

if TYPE_CHECKING:
    from rules import Move, SeatView

Words = dict[str, str]

_RANKS = {
    "en": {1: "ace", 11: "jack", 12: "queen", 13: "king"},
    "nl": {1: "aas", 11: "boer", 12: "vrouw", 13: "heer"},
}
_SUITS = {
    "en": ("clubs", "diamonds", "hearts", "spades"),
    "nl": ("klaveren", "ruiten", "harten", "schoppen"),
}


def card_words(card: int) -> Words:
    """A card's name in both languages."""
    if card == JOKER:
        return {"en": "joker", "nl": "joker"}
    r, s = playout.rank_of(card), playout.suit_of(card)
    en = f"{_RANKS['en'].get(r, str(r))} of {_SUITS['en'][s]}"
    nl = f"{_SUITS['nl'][s]} {_RANKS['nl'].get(r, str(r))}"
    return {"en": en, "nl": nl}


def _list(cards: list[int], lang: str) -> str:
    names = [card_words(c)[lang] for c in cards]
    if len(names) <= 1:
        return "".join(names)
    joiner = " and " if lang == "en" else " en "
    return ", ".join(names[:-1]) + joiner + names[-1]


def _unseen(view: SeatView) -> list[int]:
    """Copies of each card the seat cannot see (not in hand, on the table or on top)."""
    live = list(playout.fast_rules(view.variant).copies)
    seen = list(playout.ints(view.hand)) + [c for m in view.melds for c in playout.ints(m.cards)]
    if view.discard_top is not None:
        seen.append(playout.code_to_int(view.discard_top))
    for c in seen:
        live[c] = max(0, live[c] - 1)
    return live


def _waits(pair: tuple[int, int], ace_high: bool) -> list[int]:
    """The cards that would make a meld of two kept cards."""
    a, b = sorted(pair)
    if playout.rank_of(a) == playout.rank_of(b):
        return [
            playout.make(s, playout.rank_of(a))
            for s in range(4)
            if s not in (playout.suit_of(a), playout.suit_of(b))
        ]
    out = []
    # A pair one rank apart waits at both ends; two apart, in the middle (the pairs are read
    # without the high ace, `_kept_pair`).
    next_to = neighbour(a, 1, False) == b
    for card, d in ((a, -1), (b, 1)) if next_to else ((a, 1),):
        n = neighbour(card, d, ace_high)
        if n is not None:
            out.append(n)
    return out


def _kept_pair(hand: list[int], view: SeatView) -> tuple[tuple[int, int], list[int]] | None:
    """A partial meld the hand keeps (two cards of a set or a near run) and its live cards."""
    v = playout.fast_rules(view.variant)
    left = [c for c in splitter_for(view.variant).leftovers(hand) if c != JOKER]
    live = _unseen(view)
    best: tuple[int, tuple[int, int], list[int]] | None = None
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            same_rank = playout.rank_of(a) == playout.rank_of(b) and a != b
            near = b in run_neighbours(a, False)
            if not (same_rank or near):
                continue
            waits = [c for c in _waits((a, b), v.ace_high) if live[c]]
            if waits and (best is None or len(waits) > best[0]):
                best = (len(waits), (min(a, b), max(a, b)), waits)
    return None if best is None else (best[1], best[2])


def _keeps(hand: list[int], view: SeatView) -> Words:
    kept = _kept_pair(hand, view)
    if kept is None:
        return {"en": "", "nl": ""}
    (a, b), waits = kept
    kind_en = "a set" if playout.rank_of(a) == playout.rank_of(b) else "a run"
    kind_nl = "een set" if kind_en == "a set" else "een rij"
    w_en = " and ".join(card_words(c)["en"] for c in waits[:2])
    w_nl = " en ".join(card_words(c)["nl"] for c in waits[:2])
    live_en = "is" if len(waits[:2]) == 1 else "are"
    live_nl = "is" if len(waits[:2]) == 1 else "zijn"
    return {
        "en": f"; keeps {_list([a, b], 'en')} for {kind_en}: the {w_en} {live_en} still live",
        "nl": f"; houdt {_list([a, b], 'nl')} voor {kind_nl}: {w_nl} {live_nl} nog in het spel",
    }


def explain(view: SeatView, move: Move) -> Words:
    """Why `move` is a good move for the seat of `view`, in English (`en`) and Dutch (`nl`)."""
    hand = list(playout.ints(view.hand))
    if move.type == "draw":
        top = view.discard_top
        if move.source == "discard" and top is not None:
            c = playout.code_to_int(top)
            name = card_words(c)
            if c in joker_stands(view):
                return {
                    "en": f"take the {name['en']} from the discard pile: it wins you the joker "
                    "it stands for in a run on the table, once you have opened",
                    "nl": f"pak {name['nl']} van de aflegstapel: daarmee ruil je de joker die "
                    "ervoor in een reeks op tafel ligt, zodra je geopend hebt",
                }
            return {
                "en": f"take the {name['en']} from the discard pile: it fits your melds",
                "nl": f"pak {name['nl']} van de aflegstapel: die past bij je combinaties",
            }
        if top is None:
            return {"en": "draw from the stock", "nl": "trek van de trekstapel"}
        name = card_words(playout.code_to_int(top))
        return {
            "en": f"draw from the stock: the {name['en']} on the pile helps you less",
            "nl": f"trek van de trekstapel: {name['nl']} op de aflegstapel helpt je minder",
        }
    cards = list(playout.ints(move_cards(move)))
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    keeps = _keeps(rest, view)
    if move.type == "meld":
        return {
            "en": f"lay down {_list(cards, 'en')}: fewer points left in your hand{keeps['en']}",
            "nl": f"leg {_list(cards, 'nl')} uit: minder punten in je hand{keeps['nl']}",
        }
    if move.type == "layoff":
        return {
            "en": f"lay off {_list(cards, 'en')} on the table{keeps['en']}",
            "nl": f"leg {_list(cards, 'nl')} aan op tafel{keeps['nl']}",
        }
    if move.type == "swap":
        return {
            "en": f"swap the {_list(cards, 'en')} for the joker and play it on",
            "nl": f"ruil {_list(cards, 'nl')} voor de joker en speel die door",
        }
    name = card_words(cards[0]) if cards else {"en": "a card", "nl": "een kaart"}
    if cards and cards[0] in splitter_for(view.variant).leftovers(hand):
        why = {"en": "it fits none of your melds", "nl": "die past in geen van je combinaties"}
    else:
        why = {"en": "it helps your hand the least", "nl": "die helpt je hand het minst"}
    held = _held(hand, view)
    return {
        "en": f"discard the {name['en']}: {why['en']}{keeps['en']}{held['en']}",
        "nl": f"leg {name['nl']} af: {why['nl']}{keeps['nl']}{held['nl']}",
    }


def _held(hand: list[int], view: SeatView) -> Words:
    """Why melds the seat could lay now stay in its hand (the expert holds them)."""
    v = playout.fast_rules(view.variant)
    if v.opening_min and view.opened and not view.opened[view.seat]:
        melds = splitter_for(view.variant).best(hand)[1]
        could = sum(cm.value for cm in melds) >= v.opening_min
    else:
        could = bool(view.legal and view.legal.melds)
    if not could:
        return {"en": "", "nl": ""}
    return {
        "en": "; your melds stay in your hand until you can go out: on the table the others "
        "could lay off on them",
        "nl": "; je combinaties blijven in je hand tot je kunt uitgaan: op tafel kunnen de "
        "anderen erop aanleggen",
    }
