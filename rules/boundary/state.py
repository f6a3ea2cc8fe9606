"""The boundary for whole states: a `GameState` (the pydantic model, stored and sent) <->
the engine's `Game`.

Inside the rules a state goes out with `state_of`: built from the engine's own values as they
are (`rules.boundary.carried.trusted`), sharing what the move left unchanged with the state
before, and carrying its `Game` so the next move converts nothing. `state_from_game`, for a
`Game` from outside the rules, validates the whole state in one `GameState.model_validate`
call. Moves and melds cross in `rules.boundary.moves`.
"""

from __future__ import annotations

from typing import Any

from rules.boundary.carried import form_of, trusted
from rules.boundary.moves import deal_to_fast, last_move_from_json, meld_from_model, move_json
from rules.cards import CODES, code_to_int, codes, ints
from rules.engine.fields import PHASE_INTS, PHASE_NAMES, FixedDeal, Result
from rules.engine.game import Game
from rules.engine.switches import fast_rules
from rules.melds import TMeld
from rules.state import Deal, GameState, HandResult, LastMove, TableMeld, Votes


def game_from_state(state: GameState) -> Game:
    """A fresh engine `Game` holding `state` (shares nothing mutable with it).

    Raises:
        KeyError: unknown variant.
    """
    return game_of(state).copy()


def game_of(state: GameState) -> Game:
    """The engine form `state` carries, built and kept on first use: read it, never change
    it (`copy()` it first).

    Raises:
        KeyError: unknown variant.
    """
    form = form_of(state)
    if form is None:
        return _build_game(state)
    g: Game | None = form.value
    if g is None:
        g = form.value = _build_game(state)
    return g


def _build_game(state: GameState) -> Game:
    hr = state.hand_result
    return Game(
        fast_rules(state.variant),
        state.players,
        bytes.fromhex(state.seed),
        limit=state.limit,
        match_number=state.match_number,
        hand_number=state.hand_number,
        hand_seed=bytes.fromhex(state.hand_seed),
        fixed_deal=deal_to_fast(state.fixed_deal) if state.fixed_deal is not None else None,
        reshuffles=state.reshuffles,
        stock_exhaustions=state.stock_exhaustions,
        hands=[list(ints(h)) for h in state.hands],
        stock=list(ints(state.stock)),
        discard=list(ints(state.discard)),
        melds=[meld_from_model(m) for m in state.melds],
        next_meld_id=state.next_meld_id,
        phase=PHASE_INTS[state.phase] if state.phase != "waiting" else 1,
        turn=state.turn,
        dealer=state.dealer,
        scores=list(state.scores),
        turns_completed=state.turns_completed,
        opened=list(state.opened),
        has_played=list(state.has_played),
        drawn_from_discard=code_to_int(state.drawn_from_discard)
        if state.drawn_from_discard
        else -1,
        jokers_taken=state.jokers_taken,
        laid_off_this_turn=state.laid_off_this_turn,
        played_this_turn=state.played_this_turn,
        hand_result=None
        if hr is None
        else Result(hr.reason, hr.winner, hr.points, tuple(ints(h) for h in hr.hands), hr.rummy),
        match_winner=state.match_winner,
        votes_next=state.votes.next_hand,
        votes_new=state.votes.new_match,
        last_move=last_move_from_json(state.last_move),
    )


def state_from_game(g: Game) -> GameState:
    """The frozen pydantic form of an engine `Game` from outside the rules (a bot's, a
    test's), validated as if decoded; `g` stays the caller's to change."""
    return GameState.model_validate(state_of(g.copy()).model_dump())


def state_of(g: Game, before: GameState | None = None) -> GameState:
    """The state of a `Game` the rules made, carrying `g`, which nobody may change after.

    Trusted: the engine only holds valid values, so nothing is validated again (tests/rules
    compare with full validation). `before`, the state `g` was copied from, lends what the
    move left as it was: within a hand the match's fields, the table melds, the piles.
    """
    base = game_of(before) if before is not None else None
    if before is None or base is None or not _same_hand(g, base):
        fields = _hand_fields(g)
        fields.update(_move_fields(g, None, None))
        return trusted(GameState, {name: fields[name] for name in _STATE_FIELDS}, fast=g)
    fields = before.__dict__.copy()
    fields.update(_move_fields(g, base, before))
    return trusted(GameState, fields, fast=g)


_STATE_FIELDS = tuple(GameState.model_fields)


def _same_hand(g: Game, base: Game) -> bool:
    # Only a deal changes these (a vote's), and it changes one of them.
    return g.match_number == base.match_number and g.hand_number == base.hand_number


def _hand_fields(g: Game) -> dict[str, Any]:
    """The fields of a state that stay as dealt for the whole hand."""
    return {
        "variant": g.r.name,
        "players": g.players,
        "seed": g.seed.hex(),
        "match_number": g.match_number,
        "hand_number": g.hand_number,
        "hand_seed": g.hand_seed.hex(),
        "fixed_deal": _deal_model(g.fixed_deal),
        "limit": g.limit or None,
        "dealer": g.dealer,
    }


def _move_fields(g: Game, base: Game | None, before: GameState | None) -> dict[str, Any]:
    """The fields a move or a vote may change; `before` (with `base`, its game) of the same
    hand lends its table melds, piles and votes where `g` still has them."""
    res = g.hand_result
    lm = g.last_move
    if base is None or before is None:
        hands = tuple(map(codes, g.hands))
        melds = _meld_models(g.melds, [], ())
        stock = codes(g.stock)
        discard = codes(g.discard)
        votes = _votes_model(g.votes_next, g.votes_new)
    else:
        # A move changes one seat's hand: the others keep their codes.
        hands = tuple(
            old if h == b else codes(h)
            for h, b, old in zip(g.hands, base.hands, before.hands, strict=True)
        )
        melds = _meld_models(g.melds, base.melds, before.melds)
        stock, discard = _piles(g, base, before)
        same_votes = g.votes_next == base.votes_next and g.votes_new == base.votes_new
        votes = before.votes if same_votes else _votes_model(g.votes_next, g.votes_new)
    return {
        "reshuffles": g.reshuffles,
        "stock_exhaustions": g.stock_exhaustions,
        "hands": hands,
        "stock": stock,
        "discard": discard,
        "melds": melds,
        "next_meld_id": g.next_meld_id,
        "phase": PHASE_NAMES[g.phase],
        "turn": g.turn,
        "scores": tuple(g.scores),
        "turns_completed": g.turns_completed,
        "opened": tuple(g.opened),
        "has_played": tuple(g.has_played),
        "drawn_from_discard": CODES[g.drawn_from_discard] if g.drawn_from_discard >= 0 else None,
        "jokers_taken": g.jokers_taken,
        "laid_off_this_turn": g.laid_off_this_turn,
        "played_this_turn": g.played_this_turn,
        "hand_result": None
        if res is None
        else trusted(
            HandResult,
            {
                "reason": res.reason,
                "winner": res.winner,
                "points": tuple(res.points),
                "hands": tuple(map(codes, res.hands)),
                "rummy": res.rummy,
            },
        ),
        "match_winner": g.match_winner,
        "votes": votes,
        "last_move": None
        if lm is None
        else trusted(LastMove, {"seat": lm[0], "move": move_json(lm[1])}),
    }


def _piles(g: Game, base: Game, before: GameState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The stock (top first) and discard codes of `g`, one move after `base` in a hand.

    Without a reshuffle a move takes the stock's top card or puts on or takes the discard
    pile's top card, so the codes of `before` serve, one card shorter or longer; a reshuffle
    (counted) makes new piles.
    """
    stock, discard = g.stock, g.discard
    if g.reshuffles != base.reshuffles:
        return codes(stock), codes(discard)
    old_stock, old_discard = before.stock, before.discard
    n = len(stock) - len(old_stock)
    if n == 0:
        new_stock = old_stock
    elif n == -1:
        new_stock = old_stock[1:]
    else:
        new_stock = codes(stock)
    n = len(discard) - len(old_discard)
    if n == 0:
        new_discard = old_discard
    elif n == -1:
        new_discard = old_discard[:-1]
    elif n == 1:
        new_discard = (*old_discard, CODES[discard[-1]])
    else:
        new_discard = codes(discard)
    return new_stock, new_discard


def _deal_model(fixed: FixedDeal | None) -> Deal | None:
    if fixed is None:
        return None
    return trusted(
        Deal,
        {
            "hands": tuple(map(codes, fixed[0])),
            "discard": codes(fixed[1]),
            "stock": codes(fixed[2]),
        },
    )


def _votes_model(next_hand: tuple[int, ...], new_match: tuple[int, ...]) -> Votes:
    return trusted(Votes, {"next_hand": tuple(next_hand), "new_match": tuple(new_match)})


def _meld_models(
    melds: list[TMeld], base: list[TMeld], models: tuple[TableMeld, ...]
) -> tuple[TableMeld, ...]:
    """The table melds' models; a meld still the same object as in `base` keeps its model.

    A copied `Game` shares its TMelds (immutable), and a move replaces at most one meld and
    appends new ones, so the position lines the two lists up.
    """
    out = []
    n = len(base)
    for i, m in enumerate(melds):
        if i < n and m is base[i]:
            out.append(models[i])
            continue
        out.append(
            trusted(
                TableMeld,
                {
                    "id": f"m{m.id}",
                    "cards": codes(m.cards),
                    "kind": "run" if m.is_run else "set",
                    "stands_for": codes(m.stands),
                },
            )
        )
    return tuple(out)
