"""The fast engine's API (`rules.engine`), for bots' playouts and the benchmark.

The pydantic API (`rules.apply`, `rules.legal_moves`, ...) wraps this one: both share every
rule. Here a game is a mutable `Game` of ints and lists and a move is a tuple, so a playout
costs no validation of models and no copies of the whole state per move.

Typical bot loop::

    from rules import playout
    base = playout.determinize_game(view, others, stock, discard, seed)  # guesses -> Game
    for _ in range(playouts):
        g = base.copy()
        while not playout.is_over(g):
            moves = playout.generate(g, g.turn)    # engine move tuples
            g.apply(g.turn, rng.choice(moves))     # in place; raises IllegalMove if illegal
        score(g.hand_result)                       # Result(reason, winner, points, hands, rummy)

Also: `new_fast_game(variant, players, seed, deal=None) -> Game`, `game_from_state(state)`
(a copy of the `Game` a state carries, yours to change), `state_from_game(game)` (validated),
`to_fast_move(api_move)`, `to_api_move(engine_move)`, `Game.vote(seat, kind, voters)`,
`start_of_hand(game)`.

Cards are ints: ``suit * 13 + rank - 1`` (suits C D H S, rank 1 = ace .. 13 = king) and
52 for the joker; `code_to_int`/`int_to_code` convert one, `ints`/`codes` many; `rank_of`,
`suit_of` and `make(suit, rank)` take them apart and back. A variant's switches and point
tables are `fast_rules(name)` (`FastRules`: ``card_values``, ``opening_values``, ``deck``,
...). `single_melds(hand, rules)` finds every single meld of a hand with its opening value;
`fitting_naturals(meld_from_model(view_meld), ace_high)` the cards a table meld takes; run
adjacency and the high ace are `rules.runs` (`neighbour`, `run_neighbours`, `run_start`).
Engine moves:

==============================================  =========================================
``(DRAW, SRC_STOCK)`` / ``(DRAW, SRC_DISCARD)``   draw
``(MELD, ((c, c, c), (c, c, c, c)))``            one or more melds, cards in reading order
``(LAYOFF, meld_id, (c, ...), END_*)``           meld ids are ints (API ``"m7"`` is 7);
                                                 END_ANY, END_LOW or END_HIGH
``(SWAP, meld_id, c)``                           rummy51: give c, take the joker for it
``(DISCARD, c)``                                 ends the turn (or the hand)
==============================================  =========================================

`Game` attributes worth reading: ``turn``, ``phase`` (DRAW_PHASE=1, PLAY_PHASE=2,
HAND_OVER=3, MATCH_OVER=4), ``hands`` (per seat), ``stock`` (top first), ``discard`` (top
last), ``melds`` (`TMeld`: id, is_run, cards, stands), ``scores``, ``opened``, ``drawn``
(-1 or the card taken from the discard pile), ``must_play``, ``result``, ``match_winner``.
"""

from __future__ import annotations

from rules.boundary.moves import meld_from_model, to_api_move, to_fast_move
from rules.boundary.state import game_from_state, state_from_game
from rules.cards import (
    JOKER,
    N_CODES,
    code_to_int,
    codes,
    int_to_code,
    ints,
    make,
    rank_of,
    suit_of,
)
from rules.determinize import determinize_game
from rules.engine.fields import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    HAND_OVER,
    LAYOFF,
    MATCH_OVER,
    MELD,
    PLAY_PHASE,
    SRC_DISCARD,
    SRC_STOCK,
    SWAP,
    FastMove,
    Result,
)
from rules.engine.game import Game
from rules.engine.generate import generate
from rules.engine.switches import FastRules, fast_rules
from rules.legal import game_from_view
from rules.melds import END_ANY, END_HIGH, END_LOW, TMeld, fitting_naturals
from rules.meldsearch import single_melds
from rules.reducer import new_fast_game, start_of_hand


def is_over(g: Game) -> bool:
    """Whether the hand of `g` has ended (hand_over or match_over)."""
    return g.phase >= HAND_OVER


__all__ = [
    "DISCARD",
    "DRAW",
    "DRAW_PHASE",
    "END_ANY",
    "END_HIGH",
    "END_LOW",
    "HAND_OVER",
    "JOKER",
    "LAYOFF",
    "MATCH_OVER",
    "MELD",
    "N_CODES",
    "PLAY_PHASE",
    "SRC_DISCARD",
    "SRC_STOCK",
    "SWAP",
    "FastMove",
    "FastRules",
    "Game",
    "Result",
    "TMeld",
    "code_to_int",
    "codes",
    "determinize_game",
    "fast_rules",
    "fitting_naturals",
    "game_from_state",
    "game_from_view",
    "generate",
    "int_to_code",
    "ints",
    "is_over",
    "make",
    "meld_from_model",
    "new_fast_game",
    "rank_of",
    "single_melds",
    "start_of_hand",
    "state_from_game",
    "suit_of",
    "to_api_move",
    "to_fast_move",
]
