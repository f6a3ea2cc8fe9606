"""A hand's deal derived again from its revealed seed, by the published method written out
here a second time from its specification rather than imported from rules/shuffle.py, so a
bug or a rigged shuffle in the engine cannot vouch for itself (`rummy verify`,
app/records/verify.py; web/js/verify.js does the same in the browser).

The commitment is SHA-256 of ``b"shake256-fisher-yates-v1:" + hand_seed``; the deal reads
SHAKE-256(``b"rummy/shuffle/v1" + seed + b"deal"``) as 8-byte big-endian words that drive a
Fisher-Yates shuffle of the sorted pack; each seat in turn takes `hand_size` cards, the next
card starts the discard pile and the rest is the stock, top first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

import rules
from rules.cards import CODES
from rules.shuffle import SHUFFLE_METHOD

HEX_DIGITS = frozenset("0123456789abcdef")


def commitment_of(hand_seed: bytes) -> str:
    """The published commitment to a hand's shuffle."""
    return hashlib.sha256(SHUFFLE_METHOD.encode("ascii") + b":" + hand_seed).hexdigest()


def sorted_pack(variant: str) -> list[str]:
    """The variant's pack in the engine's card order (rules/cards.py: clubs A-K, diamonds,
    hearts, spades, then the joker), duplicates side by side: the shuffle's input."""
    ruleset = rules.get_variant(variant)
    pack = [code for code in CODES[:52] for _ in range(ruleset.decks)]
    return pack + [CODES[52]] * ruleset.jokers


def shuffled(cards: Sequence[str], seed: bytes, label: bytes) -> list[str]:
    """Fisher-Yates over `cards` driven by SHAKE-256 of the seed and label."""
    out = list(cards)
    n = len(out)
    stream = hashlib.shake_256(b"rummy/shuffle/v1" + seed + label).digest(8 * n)
    for i in range(n - 1, 0, -1):
        k = n - 1 - i
        j = int.from_bytes(stream[8 * k : 8 * k + 8], "big") % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal_from_seed(variant: str, players: int, seed: bytes) -> dict[str, list[Any]]:
    """The deal a seed gives: `hands` by seat, `discard` (top last), `stock` (top first)."""
    order = shuffled(sorted_pack(variant), seed, b"deal")
    size = rules.get_variant(variant).hand_size[players]
    hands = [order[i * size : (i + 1) * size] for i in range(players)]
    rest = order[players * size :]
    return {"hands": hands, "discard": rest[:1], "stock": rest[1:]}


def _describe(cards: Iterable[str]) -> str:
    return " ".join(cards) or "nothing"


def compare_deal(start: rules.GameState, expected: dict[str, list[Any]]) -> list[str]:
    problems = []
    for seat, (have, want) in enumerate(zip(start.hands, expected["hands"], strict=True)):
        if list(have) != want:
            problems.append(
                f"seat {seat}'s hand in the log ({_describe(have)}) is not the one the seed "
                f"deals ({_describe(want)})"
            )
    if list(start.discard) != expected["discard"]:
        problems.append(
            f"the discard pile in the log ({_describe(start.discard)}) is not the one the "
            f"seed deals ({_describe(expected['discard'])})"
        )
    if list(start.stock) != expected["stock"]:
        first = next(
            (
                i
                for i, (a, b) in enumerate(zip(start.stock, expected["stock"], strict=False))
                if a != b
            ),
            min(len(start.stock), len(expected["stock"])),
        )
        problems.append(
            f"the stock in the log differs from the one the seed deals from card {first + 1} "
            f"(top first) on: {len(start.stock)} cards in the log, "
            f"{len(expected['stock'])} dealt"
        )
    return problems
