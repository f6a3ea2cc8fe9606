"""Fingerprints of everything the rules decide, to show that a faster engine decides nothing
differently: run it on two checkouts and compare the digests.

Per variant and player count, three SHA-256 digests:

* `engine`: seeded random hands of the fast engine (`rules.playout`). At every position it
  hashes the whole list `generate` returns (every move, in order), the move chosen, and the
  referee's verdict (the error's class and message, or "ok") on a few moves drawn at random
  from the hand, the table and the pack, most of them illegal; at the end the hand's result.
* `api`: seeded random hands through the pydantic API: every seat view of the seat to act
  (its JSON, so `legal` with the joker places too), `rules.legal_moves` and the next state.
* `bots`: the deals of `bench/duplicate.py` (the expert at the tournament's sample count
  and greedy players, every seat in turn), hashing every state after every move.

    PYTHONPATH=/path/to/checkout .venv/bin/python bench/fingerprint.py [--hands 40] \
        [--api-hands 6] [--deals 4] [--only rummy51-4]

`PYTHONPATH` chooses whose `rules` and `bots` are fingerprinted (by default this venv's).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(1, str(Path(__file__).resolve().parent))

import rules  # noqa: E402
from rules import playout  # noqa: E402

CONFIGS = ("classic-2", "basic-2", "basic-3", "basic-4", "rummy51-2", "rummy51-3", "rummy51-4")
FIELD = {"classic": "expert,greedy", "basic": "expert,greedy,greedy,greedy"}


def _verdict(g: playout.Game, seat: int, move: tuple[Any, ...]) -> str:
    try:
        g.copy().apply(seat, move)
    except rules.IllegalMove as e:
        return f"{type(e).__name__}:{e}"
    return "ok"


def _probes(g: playout.Game, seat: int, rng: random.Random) -> list[tuple[Any, ...]]:
    """Moves drawn at random from the hand, the table and the pack (mostly illegal)."""
    hand = g.hands[seat]
    pack = list(range(playout.N_CODES))
    out: list[tuple[Any, ...]] = [
        (playout.DISCARD, rng.choice(pack)),
        (playout.DRAW, rng.randrange(2)),
    ]
    if len(hand) >= 3:
        out.append((playout.MELD, (tuple(rng.sample(hand, 3)),)))
        if len(hand) >= 7:
            out.append((playout.MELD, (tuple(rng.sample(hand, 3)), tuple(rng.sample(hand, 4)))))
    if g.melds and hand:
        m = rng.choice(g.melds)
        k = rng.randint(1, min(3, len(hand)))
        out.append((playout.LAYOFF, m.id, tuple(rng.sample(hand, k)), rng.randrange(3)))
        out.append((playout.SWAP, m.id, rng.choice(hand)))
    return out


def engine_digest(variant: str, players: int, hands: int) -> str:
    h = hashlib.sha256()
    for n in range(hands):
        rng = random.Random(f"fingerprint-{variant}-{players}-{n}")
        g = playout.new_fast_game(variant, players, seed=n.to_bytes(8, "big"))
        while not playout.is_over(g):
            seat = g.turn
            moves = playout.generate(g, seat)
            h.update(repr(moves).encode())
            for probe in _probes(g, seat, rng):
                h.update(_verdict(g, seat, probe).encode())
            move = rng.choice(moves)
            h.update(repr(move).encode())
            g.apply(seat, move)
        h.update(repr((g.hand_result, g.scores, g.phase)).encode())
    return h.hexdigest()


def api_digest(variant: str, players: int, hands: int) -> str:
    h = hashlib.sha256()
    for n in range(hands):
        rng = random.Random(f"fingerprint-api-{variant}-{players}-{n}")
        state = rules.new_game(variant, players, seed=(1000 + n).to_bytes(8, "big"))
        while state.phase in ("draw", "play"):
            view = rules.seat_view(state, state.turn)
            h.update(view.model_dump_json().encode())
            legal = list(rules.legal_moves(view))
            h.update(json.dumps([rules.move_to_json(m) for m in legal]).encode())
            state = rules.apply(state, state.turn, rng.choice(legal))
        h.update(state.model_dump_json().encode())
    return h.hexdigest()


def bots_digest(variant: str, players: int, deals: int) -> str:
    from duplicate import play_hand  # bench/duplicate.py

    field = FIELD.get(variant, "expert,greedy,greedy,greedy").split(",")[:players]
    h = hashlib.sha256()

    def watch(before: rules.GameState, seat: int, after: rules.GameState) -> None:
        h.update(after.model_dump_json().encode())

    for deal in range(deals):
        for hero in range(players):
            out = play_hand(variant, field, 7, deal, hero, {}, watch)
            h.update(repr(out).encode())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=40, help="fast-engine hands a config")
    parser.add_argument("--api-hands", type=int, default=6, help="API hands a config")
    parser.add_argument("--deals", type=int, default=4, help="bot deals a config (0: none)")
    parser.add_argument("--only", action="append", choices=CONFIGS, help="a config (repeat)")
    args = parser.parse_args(argv)
    print(f"rules from {Path(rules.__file__).parent}", file=sys.stderr)
    out: dict[str, dict[str, str]] = {}
    for config in args.only or CONFIGS:
        variant, players = config.rsplit("-", 1)
        n = int(players)
        out[config] = {
            "engine": engine_digest(variant, n, args.hands),
            "api": api_digest(variant, n, args.api_hands),
            "bots": bots_digest(variant, n, args.deals) if args.deals else "",
        }
        print(config, json.dumps(out[config]), file=sys.stderr, flush=True)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
