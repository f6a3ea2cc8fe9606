"""The reducer, the pydantic API over the fast engine: new games, moves, votes, replays.

Every function runs the one implementation of the rules on a copy of the state's engine
`Game` (kept with the state, `rules.boundary.state.game_of`) and returns a new state that carries
the copy: the input and its `Game` are never changed, so a refused move changes nothing.

Readings of RULES.md where it is silent (the variant's `RuleSet.house_rules` lists the
house rules proper):

* Equal codes are interchangeable: holding two 7H after taking one from the discard pile,
  a 7H may be discarded. A play may not leave the hand holding only the drawn discard.
* A meld whose naturals all share a rank is a set (``5H JK JK`` is three fives); a run
  holds at most 13 cards, so it never uses the ace both low and high. A run may be sent in
  any order (docs/api.md v1.1): read as sent when that is a run, else arranged (`rules.melds`).
* Lay-off cards go on in the order given, ascending, at one end; a descending list is read
  reversed; without `end` the high end is tried first; failing that, arranged, they may
  extend both ends at once, and a joker left over goes to `end` (high by default): `end`
  settles the jokers' side only, never a natural card's (docs/api.md v1.2).
* A 3-card set with jokers frees as many jokers as the naturals laid off push it past four
  cards (two missing suits onto ``5H 5S JK`` free the joker; onto ``5H JK JK`` free one).
* A joker swap or set lay-off that would leave the taken joker nowhere to go, or nothing to
  discard after playing it, is refused (`must_play_joker`).
* going rummy (rummy51): a first meld move below 51 is allowed only when it leaves exactly
  one card; the hand is rummy when the winner had not melded or laid off in an earlier turn
  and (rummy51) laid nothing off in the winning turn.
* Fixed deals may deal any hand sizes, but always exactly the variant's pack; a deal that
  leaves nothing to draw is a draw at once.
* A new match (vote) starts at hand 1 with the last seat dealing, like the first match.
* Scores in `HandResult.points` are this hand's points (winner_takes_all) or penalties.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rules.boundary.moves import deal_to_fast, to_fast_move
from rules.boundary.state import game_from_state, game_of, state_of
from rules.cards import CODES, cards_name
from rules.engine.fields import FixedDeal
from rules.engine.game import Game
from rules.engine.switches import FastRules, fast_rules
from rules.errors import InvalidDeal, InvalidSetup
from rules.moves import Move
from rules.state import Deal, GameState


def _check_deal(r: FastRules, players: int, deal: Deal) -> FixedDeal:
    if len(deal.hands) != players:
        raise InvalidDeal(f"the deal has {len(deal.hands)} hands for {players} players")
    if any(not h for h in deal.hands):
        raise InvalidDeal("every hand of a deal needs at least one card")
    fixed = deal_to_fast(deal)
    dealt = Counter(c for h in fixed[0] for c in h)
    dealt.update(fixed[1])
    dealt.update(fixed[2])
    if dealt != Counter(r.deck):
        missing = Counter(r.deck) - dealt
        extra = dealt - Counter(r.deck)
        parts = []
        if missing:
            parts.append("missing " + cards_name(sorted(missing.elements())))
        if extra:
            parts.append("too many " + cards_name(sorted(extra.elements())))
        raise InvalidDeal(f"the deal is not exactly the {r.name} pack: " + "; ".join(parts))
    return fixed


def _check_limit(r: FastRules, limit: int | None) -> int | None:
    """The match-ending penalty limit of a new game (RULES.md: rummy51 match length)."""
    if limit is None:
        return None
    if not r.penalty_limits:
        raise InvalidSetup(f"{r.name} has no penalty limit: only rummy51 takes a limit")
    if limit not in r.penalty_limits:
        allowed = ", ".join(map(str, r.penalty_limits))
        raise InvalidSetup(f"the {r.name} limit is one of {allowed}, not {limit}")
    return limit


def new_fast_game(
    variant: str,
    players: int,
    seed: bytes,
    deal: Deal | None = None,
    limit: int | None = None,
) -> Game:
    """A new match in engine form, its first hand dealt (see `new_game`).

    Raises:
        KeyError: unknown variant.
        InvalidSetup: a player count outside the variant's range, or a limit it does not take.
        InvalidDeal: a fixed deal that is not exactly the variant's pack.
    """
    r = fast_rules(variant)
    if not isinstance(players, int) or not r.min_players <= players <= r.max_players:
        raise InvalidSetup(
            f"{variant} is for {r.min_players} to {r.max_players} players, not {players}"
        )
    chosen = _check_limit(r, limit)
    fixed = _check_deal(r, players, deal) if deal is not None else None
    g = Game(r, players, bytes(seed), limit=chosen)
    g.deal(fixed)
    return g


def new_game(
    variant: str,
    players: int,
    *,
    seed: bytes,
    deal: Deal | None = None,
    limit: int | None = None,
) -> GameState:
    """A new match: the first hand dealt from `seed`, or exactly as `deal` says.

    Reshuffles during the hand and later hands still derive from `seed` (rules.shuffle).
    `limit` (rummy51 only: 101, 201 or 301; default 101) is the penalty total that ends the
    match.

    Raises:
        KeyError: unknown variant.
        InvalidSetup: a player count outside the variant's range, or a limit the variant
            does not take.
        InvalidDeal: a fixed deal that is not exactly the variant's pack.
    """
    return state_of(new_fast_game(variant, players, seed, deal, limit))


def apply(state: GameState, seat: int, move: Move) -> GameState:
    """The state after `seat` plays `move`; `state` itself is never changed.

    Checks in order: hand over? -> your turn? -> move allowed in this phase? -> legal?

    Raises:
        WrongPhase: the hand or match is over.
        NotYourTurn: another seat is to act.
        MustDrawFirst / AlreadyDrawn: the move does not fit the turn's phase.
        IllegalMove: any other subclass with its stable code (invalid_meld, ...).
    """
    g = game_of(state).copy()
    g.apply(seat, to_fast_move(move))
    return state_of(g, state)


def vote(state: GameState, seat: int, kind: str, voters: frozenset[int]) -> GameState:
    """Record a vote; once every seat in `voters` voted the same kind, act on it.

    "next_hand" (only when the hand is over) deals the next hand, keeping the scores and
    moving the dealer one seat left. "new_match" (any time) restarts the match at zero, its
    first hand dealt by the last seat; the hands of every match derive from the seed.

    Raises:
        InvalidVote: unknown kind, a seat out of range or not among `voters`.
        WrongPhase: "next_hand" while the hand is still played or the match is over.
    """
    g = game_of(state).copy()
    g.vote(seat, kind, voters)
    return state_of(g, state)


def start_of_hand(g: Game) -> Game:
    """The engine game of `g`'s current hand as it was dealt."""
    s = g.copy()
    if g.hand_result is not None:
        s.scores = [a - b for a, b in zip(g.scores, g.hand_result.points, strict=True)]
    s.deal(g.fixed_deal)
    return s


def hand_start(state: GameState) -> GameState:
    """The current hand as it was dealt: same deal, hand seed, dealer, hand number and the
    scores before it. `replay(hand_start(s), moves_of_this_hand) == s` apart from votes.

    The result still holds `seed`, the match seed every later hand derives from: blank it
    before publishing a finished hand's start. Replaying needs only `hand_seed` (reshuffles
    derive from it), so a start with a blanked `seed` replays to the same hand.
    """
    return state_of(start_of_hand(game_of(state)))


def replay(start: GameState, moves: Iterable[tuple[int, Move]]) -> GameState:
    """Apply `(seat, move)` pairs in order from `start`.

    Raises:
        IllegalMove: a move of the list is illegal (the log does not fit the start).
    """
    g = game_from_state(start)
    for seat, move in moves:
        g.apply(seat, to_fast_move(move))
    return state_of(g)


def deck_of(variant: str) -> tuple[str, ...]:
    """Every card code of a variant's pack (two copies each in rummy51, plus jokers)."""
    return tuple(CODES[c] for c in fast_rules(variant).deck)


__all__ = [
    "InvalidSetup",
    "apply",
    "deck_of",
    "hand_start",
    "new_fast_game",
    "new_game",
    "replay",
    "start_of_hand",
    "vote",
]
