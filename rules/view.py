"""What one seat may see: the `state` object of docs/api.md (the wire's `SeatView`, minus the
room's own fields), and `seat_view`, the one place where a `GameState` becomes it
(`spectator_view`: what every seat sees alike, for someone watching).

The app adds `room`, `version` and `seats` (names, presence, bots) around this. Before the
hand ends a view shows only that seat's hand, the counts of the others, the table, the top
discard and the commitment to the hand's shuffle; never another hand, the stock's order or a
seed. After the hand `hand_result.hands` reveals every hand. `legal` (docs/api.md v1.1) is built
by `rules.engine.generate.generate`, the code behind `legal_moves`, from what the view shows
(`seen_by`); the engine moves behind it stay with the view (`rules.boundary.carried`), so
`legal_moves(view)` lists them without generating them again. A view carries nothing else.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from rules.boundary.carried import trusted
from rules.boundary.state import game_of
from rules.cards import CODES, codes, make
from rules.engine.fields import DISCARD, DRAW, LAYOFF, MELD, PLAY_PHASE, SRC_STOCK, SWAP, FastMove
from rules.engine.game import Game
from rules.engine.generate import generate, seen_by
from rules.errors import InvalidMove
from rules.joker_places import joker_places
from rules.melds import END_ANY, END_HIGH, END_LOW, TMeld
from rules.meldsearch import single_melds
from rules.shuffle import commitment
from rules.state import GameState, TableMeld
from rummy_wire.views import (
    Legal,
    LegalLayoff,
    LegalSwap,
    Opening,
    OpeningMeld,
    SeatView,
    SpectatorView,
)

MAX_LEGAL_MELDS = 64
MeldView = TableMeld  # a view shows the table's melds as they are

__all__ = [
    "MAX_LEGAL_MELDS",
    "Legal",
    "LegalLayoff",
    "LegalSwap",
    "MeldView",
    "Opening",
    "OpeningMeld",
    "SeatView",
    "SpectatorView",
    "private_fields",
    "seat_view",
    "spectator_view",
]


def seat_view(state: GameState, seat: int) -> SeatView:
    """What `seat` sees of `state` (docs/api.md's `state`, without the room's own fields).

    `commitment` is `rules.shuffle.commitment(hand_seed)`: SHA-256 hex of
    ``b"shake256-fisher-yates-v1" + b":" + hand_seed`` (the raw 32 seed bytes).

    Raises:
        InvalidMove: `seat` is not a seat of this game.
    """
    _check_seat(state, seat)
    # The state's fields are valid already, and so are the view's copies of them.
    fields = _view_fields(state, seat)
    acting = _to_act(state, seat)
    if acting is None:
        return trusted(SeatView, fields, fields_set=_UNLESS_TO_ACT)
    fields["must_play"], fields["legal"], moves = acting
    # The moves `legal` came from ride along for `legal_moves(view)`: derived, like `legal`,
    # from what the view shows (`seen_by`).
    return trusted(SeatView, fields, fast=moves)


def private_fields(state: GameState, seat: int) -> dict[str, Any]:
    """The fields of `seat`'s view that only that seat sees, as JSON data: `seat`, `hand`,
    `must_play` and `legal`. Every other field is the spectator view's, so a view's JSON is
    `spectator_view(state).model_dump(mode="json") | private_fields(state, seat)` (in that
    order of keys: `seat_view(state, seat)` dumped): a room's views share the rest.

    Raises:
        InvalidMove: `seat` is not a seat of this game.
    """
    _check_seat(state, seat)
    fields: dict[str, Any] = {"seat": seat, "hand": list(state.hands[seat])}
    acting = _to_act(state, seat)
    if acting is None:
        fields["must_play"], fields["legal"] = [], None
    else:
        fields["must_play"] = list(acting[0])
        fields["legal"] = acting[1].model_dump(mode="json")
    return fields


def _check_seat(state: GameState, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise InvalidMove(f"there is no seat {seat} in a {state.players}-player game")


def _to_act(
    state: GameState, seat: int
) -> tuple[tuple[str, ...], Legal, tuple[FastMove, ...]] | None:
    """The jokers `seat` must play, its `legal` and the moves behind it, when it is to act."""
    if state.turn != seat or state.phase not in ("draw", "play"):
        return None
    must_play = ("JK",) * state.jokers_taken
    g = seen_by(game_of(state), seat)
    moves = tuple(generate(g, seat))
    return must_play, _legal(g, seat, moves, must_play), moves


# The fields a seat view not of the seat to act is built with (`legal` stays its default).
_UNLESS_TO_ACT = frozenset(SeatView.model_fields) - {"legal"}


def _view_fields(state: GameState, seat: int | None) -> dict[str, Any]:
    """Every field of a view of `state` by `seat` (None: a spectator), `legal` null."""
    return {
        "variant": state.variant,
        "players": state.players,
        "seat": seat,
        "phase": state.phase,
        "turn": state.turn,
        "dealer": state.dealer,
        "hand": () if seat is None else state.hands[seat],
        "hand_counts": tuple(map(len, state.hands)),
        "stock_count": len(state.stock),
        "discard_top": state.discard[-1] if state.discard else None,
        "discard_count": len(state.discard),
        "melds": state.melds,
        "scores": state.scores,
        "hand_number": state.hand_number,
        "turns_completed": state.turns_completed,
        "opened": state.opened,
        "drawn_from_discard": state.drawn_from_discard,
        "last_move": state.last_move,
        "hand_result": state.hand_result,
        "match_winner": state.match_winner,
        "votes": state.votes,
        "must_play": (),
        "has_played": state.has_played,
        "stock_exhaustions": state.stock_exhaustions,
        "limit": state.limit,
        "commitment": _commitment(state.hand_seed),
        "legal": None,
    }


@functools.lru_cache(maxsize=1024)
def _commitment(hand_seed: str) -> str:
    # One SHA-256 per hand instead of one per view.
    return commitment(bytes.fromhex(hand_seed))


def spectator_view(state: GameState) -> SpectatorView:
    """What someone watching the table sees (docs/api.md v1.1 spectators): only what every seat
    sees alike. No hand (`seat` None, `hand` empty), hand sizes but no cards, no `legal`,
    and no jokers-to-play (the acting seat's own reminder)."""
    return trusted(SpectatorView, _view_fields(state, None))


def _legal(g: Game, seat: int, moves: Iterable[FastMove], must_play: tuple[str, ...]) -> Legal:
    """The `legal` object of `seat`, to act in `g`, whose legal moves are `moves`."""
    draw: list[str] = []
    discard: list[int] = []
    layoffs: list[LegalLayoff] = []
    swaps: list[LegalSwap] = []
    melds: list[tuple[str, ...]] = []
    singles: list[tuple[tuple[int, ...], int]] = []
    runs = {m.id: m for m in g.melds if m.is_run}
    for move in moves:
        kind = move[0]
        if kind == DRAW:
            draw.append("stock" if move[1] == SRC_STOCK else "discard")
        elif kind == DISCARD:
            discard.append(move[1])
        elif kind == MELD:
            if len(move[1]) == 1 and len(melds) < MAX_LEGAL_MELDS:
                melds.append(codes(move[1][0]))
                singles.append((move[1][0], 0))
        elif kind == LAYOFF:
            if len(move[2]) == 1:
                layoffs.append(trusted(LegalLayoff, _legal_layoff(move, runs, g.r.top_rank)))
        elif kind == SWAP:
            swaps.append(trusted(LegalSwap, {"card": CODES[move[2]], "meld": f"m{move[1]}"}))
    _add_joker_places(melds, joker_places(g, seat, singles, playable=True))
    r = g.r
    opening = None
    if r.opening_min:
        opened = g.opened[seat]
        held = single_melds(g.hands[seat], r) if g.phase == PLAY_PHASE and not opened else []
        held = held + joker_places(g, seat, held, playable=False)
        parts = tuple(
            trusted(OpeningMeld, {"cards": codes(c), "value": v}) for c, v in held[:MAX_LEGAL_MELDS]
        )
        opening = trusted(Opening, {"needed": r.opening_min, "opened": opened, "melds": parts})
    return trusted(
        Legal,
        {
            "draw": tuple(draw),
            "discard": codes(sorted(discard)),
            "layoffs": tuple(layoffs),
            "swaps": tuple(swaps),
            "melds": tuple(melds),
            "must_play": must_play,
            "opening": opening,
        },
    )


def _add_joker_places(
    melds: list[tuple[str, ...]], found: list[tuple[tuple[int, ...], int]]
) -> None:
    """`legal.melds` plus the runs with a joker in a held card's place (rules.joker_places)."""
    listed = {tuple(sorted(m)) for m in melds}
    for cards, _ in found:
        meld = codes(cards)
        if len(melds) < MAX_LEGAL_MELDS and tuple(sorted(meld)) not in listed:
            melds.append(meld)


def _legal_layoff(move: FastMove, runs: dict[int, TMeld], top: int) -> dict[str, Any]:
    """A single-card lay-off with the run's end it reaches named (null for a set). An ace
    is one card code for ranks 1 and 14: it goes above a king only where `top` is 14."""
    meld_no, (card,), end = move[1], move[2], move[3]
    run = runs.get(meld_no)
    side: str | None = None
    if run is not None:
        if end == END_ANY:
            high = run.high < top and card == make(run.key, run.high + 1)
            end = END_HIGH if high else END_LOW
        side = "high" if end == END_HIGH else "low"
    return {"card": CODES[card], "meld": f"m{meld_no}", "end": side}
