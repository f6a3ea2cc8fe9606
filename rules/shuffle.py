"""Seeds and shuffles: a keyed hash stream (SHAKE-256), never `random`, `secrets` or `time`.

Layout (all integers big-endian, all labels ASCII):

* hand seed = ``SHAKE256(b"rummy/hand/v1" || match_seed || u32(match_number) ||
  u32(hand_number)).digest(32)``; the match seed is the `seed` given to `new_game`.
  Revealing one hand's seed reveals nothing about another's.
* a shuffle of ``n`` cards for stream ``label`` (``b"deal"`` for the deal, ``b"reshuffle"``
  + ``u32(k)`` for the k-th reshuffle of the hand, from 1) reads
  ``SHAKE256(b"rummy/shuffle/v1" || hand_seed || label).digest(8 * n)`` as ``n`` u64 words
  ``w[0..n)`` and runs Fisher-Yates: for ``i`` from ``n-1`` down to 1 swap ``cards[i]`` with
  ``cards[w[n-1-i] % (i+1)]``. The input order is the sorted pack (engine ints ascending).
* commitment = ``SHA256(SHUFFLE_METHOD.encode() || b":" || hand_seed).hexdigest()``,
  published in the seat view during the hand; the log reveals the hand seed afterwards.
"""

from __future__ import annotations

import hashlib

SHUFFLE_METHOD = "shake256-fisher-yates-v1"


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def hand_seed(match_seed: bytes, match_number: int, hand_number: int) -> bytes:
    """The seed of one hand, derived from the match seed and two counters."""
    data = b"rummy/hand/v1" + match_seed + _u32(match_number) + _u32(hand_number)
    return hashlib.shake_256(data).digest(32)


def shuffle(cards: list[int], seed: bytes, label: bytes) -> list[int]:
    """A new list: `cards` (sorted first) shuffled by the stream of `seed` and `label`."""
    out = sorted(cards)
    n = len(out)
    if n < 2:
        return out
    stream = hashlib.shake_256(b"rummy/shuffle/v1" + seed + label).digest(8 * n)
    words = [int.from_bytes(stream[k : k + 8], "big") for k in range(0, 8 * n, 8)]
    for i in range(n - 1, 0, -1):
        j = words[n - 1 - i] % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def reshuffle_label(k: int) -> bytes:
    """The stream label of the k-th reshuffle of a hand (k from 1)."""
    return b"reshuffle" + _u32(k)


def commitment(seed: bytes) -> str:
    """SHA-256 hex of the shuffle method name and the hand seed (layout in the module doc)."""
    return hashlib.sha256(SHUFFLE_METHOD.encode("ascii") + b":" + seed).hexdigest()
