"""A whole match in engine form: `Game`, the mutable match of ints and lists that applies
moves in place (the draw, melds, lay-offs, joker swaps and the discard of RULES.md).

See `rules.playout` for the documented fast API bots use. The pydantic API
(`rules.reducer`) applies to a copy of the `Game` a `GameState` carries (made from it on
first use) and makes the next state from it, so both forms share one implementation of
every rule. The fields are `rules.engine.fields.GameFields`; dealing, the end of a turn,
scoring and votes `rules.engine.hand.HandGame`.

Engine moves are tuples (see `rules.playout`):
``(DRAW, SRC_STOCK | SRC_DISCARD)``, ``(MELD, ((card, ...), ...))``,
``(LAYOFF, meld_id, (card, ...), END_ANY | END_LOW | END_HIGH)``, ``(SWAP, meld_id, card)``,
``(DISCARD, card)``. Cards are ints (`rules.cards`); meld ids are ints (``"m7"`` is 7).
After a discard draw, `last_move` holds ``(DRAW, SRC_DISCARD, card)``: the card was face up.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import JOKER, card_name, cards_name
from rules.engine.fields import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    HAND_OVER,
    LAYOFF,
    MELD,
    PLAY_PHASE,
    SRC_DISCARD,
    SWAP,
    FastMove,
)
from rules.engine.hand import HandGame
from rules.engine.jokers import jokers_can_land
from rules.engine.switches import EX_KEEP_TOP_ON_DRAW
from rules.errors import (
    AlreadyDrawn,
    CannotDiscardDrawnCard,
    CardNotInHand,
    IllegalMove,
    InvalidMove,
    InvalidSwap,
    MeldNotFound,
    MustDiscardToGoOut,
    MustDrawFirst,
    MustPlayJoker,
    NothingToDraw,
    NotOpened,
    NotYourTurn,
    OpeningBelow51,
    WrongPhase,
)
from rules.melds import TMeld, joker_slots, layoff_run, layoff_set, read_meld


def _remove(hand: list[int], cards: Sequence[int]) -> list[int]:
    """A new hand without `cards`.

    Raises:
        CardNotInHand: a card (or one more copy of it) is not in the hand.
    """
    out = list(hand)
    for c in cards:
        try:
            out.remove(c)
        except ValueError:
            raise CardNotInHand(f"{card_name(c)} is not in your hand") from None
    return out


class Game(HandGame):
    """A whole match in engine form. Mutable: `apply` changes it in place (or raises and
    changes nothing). Copy with `copy()` before a playout."""

    __slots__ = ()

    def copy(self) -> Game:
        """An independent copy (melds are immutable and shared)."""
        # Spelled out: every API move and every playout copies a Game, and a loop of
        # getattr/setattr over the slots costs five times as much.
        g = Game.__new__(Game)
        g.r = self.r
        g.players = self.players
        g.seed = self.seed
        g.limit = self.limit
        g.match_number = self.match_number
        g.hand_number = self.hand_number
        g.hand_seed = self.hand_seed
        g.fixed_deal = self.fixed_deal
        g.reshuffles = self.reshuffles
        g.stock_exhaustions = self.stock_exhaustions
        g.hands = [list(h) for h in self.hands]
        g.stock = list(self.stock)
        g.discard = list(self.discard)
        g.melds = list(self.melds)
        g.next_meld_id = self.next_meld_id
        g.phase = self.phase
        g.turn = self.turn
        g.dealer = self.dealer
        g.scores = list(self.scores)
        g.turns_completed = self.turns_completed
        g.opened = list(self.opened)
        g.has_played = list(self.has_played)
        g.drawn_from_discard = self.drawn_from_discard
        g.jokers_taken = self.jokers_taken
        g.laid_off_this_turn = self.laid_off_this_turn
        g.played_this_turn = self.played_this_turn
        g.hand_result = self.hand_result
        g.match_winner = self.match_winner
        g.votes_next = self.votes_next
        g.votes_new = self.votes_new
        g.last_move = self.last_move
        return g

    # ---- the reducer -------------------------------------------------------------------

    def apply(self, seat: int, move: FastMove) -> None:
        """Apply one engine move of `seat` in place.

        Checks in order: hand over? -> your turn? -> move allowed in this phase? -> legal?

        Raises:
            WrongPhase, NotYourTurn, MustDrawFirst, AlreadyDrawn and the other
            IllegalMove subclasses; the game is unchanged when it raises.
        """
        if self.phase >= HAND_OVER:
            raise WrongPhase("the hand is over: vote for the next hand or a new match")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        kind = move[0]
        if self.phase == DRAW_PHASE:
            if kind != DRAW:
                raise MustDrawFirst("draw a card from the stock or the discard pile first")
            self._draw(seat, move[1])
            if move[1] == SRC_DISCARD:
                move = (DRAW, SRC_DISCARD, self.drawn_from_discard)  # it was face up (v1.1)
        elif kind == DISCARD:
            self._discard(seat, move[1])
        elif kind == MELD:
            self._meld(seat, move[1])
        elif kind == LAYOFF:
            self._layoff(seat, move[1], move[2], move[3])
        elif kind == SWAP:
            self._swap(seat, move[1], move[2])
        elif kind == DRAW:
            raise AlreadyDrawn("you already drew a card this turn")
        else:
            raise InvalidMove(f"unknown move {move!r}")
        self.last_move = (seat, move)

    def _draw(self, seat: int, source: int) -> None:
        hand = self.hands[seat]
        if source == SRC_DISCARD:
            if not self.discard:
                raise NothingToDraw("the discard pile is empty")
            card = self.discard.pop()
            self.drawn_from_discard = card
        elif self.stock:
            card = self.stock.pop(0)
            if not self.stock:
                self.stock_exhaustions += 1
        elif self.r.exhaustion == EX_KEEP_TOP_ON_DRAW and self.discard:
            # RULES.md classic: the discard pile except its top card becomes the stock; if
            # the top card is all there is, the player takes it.
            top = self.discard.pop()
            if self.discard:
                self._reshuffle(self.discard)
                self.discard = [top]
                card = self.stock.pop(0)
                if not self.stock:
                    self.stock_exhaustions += 1
            else:
                card = top
                self.drawn_from_discard = card
        else:
            raise NothingToDraw("the stock is empty")
        hand.append(card)
        self.phase = PLAY_PHASE

    def _discard(self, seat: int, card: int) -> None:
        if self.jokers_taken:
            raise MustPlayJoker("play the joker you took from the table before discarding")
        hand = self.hands[seat]
        n = hand.count(card)
        if not n:
            raise CardNotInHand(f"{card_name(card)} is not in your hand")
        if card == self.drawn_from_discard and n == 1:
            raise CannotDiscardDrawnCard(
                f"{card_name(card)} was taken from the discard pile this turn"
            )
        hand.remove(card)
        self.discard.append(card)
        self.turns_completed += 1
        if not hand:
            self._go_out(seat)
        else:
            self._end_turn(seat)

    def _meld(self, seat: int, groups: Sequence[Sequence[int]]) -> None:
        r = self.r
        hand = self.hands[seat]
        if not groups:
            raise InvalidMove("a meld move needs at least one meld")
        flat = [c for g in groups for c in g]
        after = _remove(hand, flat)
        new = [read_meld(g, r.ace_high, r.distinct) for g in groups]
        if r.opening_min and not self.opened[seat]:
            total = sum(r.meld_value(m.stands) for m in new)
            rummy_try = r.rummy_skips_opening and len(after) == 1
            if total < r.opening_min and not rummy_try:
                raise OpeningBelow51(
                    f"a first meld must total at least {r.opening_min} points; "
                    f"{cards_name(flat)} total {total}"
                )
        must_after = max(0, self.jokers_taken - flat.count(JOKER))
        nid = self.next_meld_id
        new = [m.with_id(nid + i) for i, m in enumerate(new)]
        self._check_after(after, must_after, self.melds + new)
        self.hands[seat] = after
        self.melds.extend(new)
        self.next_meld_id = nid + len(new)
        self.opened[seat] = True
        self.jokers_taken = must_after
        self.played_this_turn = True
        if not after:
            self._go_out(seat)

    def _find(self, meld_id: int) -> int:
        for i, m in enumerate(self.melds):
            if m.id == meld_id:
                return i
        raise MeldNotFound(f"there is no meld m{meld_id} on the table")

    def _layoff(self, seat: int, meld_id: int, cards: Sequence[int], end: int) -> None:
        r = self.r
        if not r.layoff_before_open and not self.opened[seat]:
            raise NotOpened(f"you may lay off only after your first meld of {r.opening_min}")
        i = self._find(meld_id)
        if not cards:
            raise InvalidMove("a lay-off needs at least one card")
        after = _remove(self.hands[seat], cards)
        m = self.melds[i]
        freed = 0
        if m.is_run:
            new = layoff_run(m, cards, end, r.ace_high)
        else:
            new, freed = layoff_set(m, cards, r.distinct, r.free_jokers)
        if freed:
            after.extend([JOKER] * freed)
        must_after = max(0, self.jokers_taken - list(cards).count(JOKER))
        if r.must_play_joker:
            must_after += freed
        self._play_onto(seat, i, new, after, must_after)
        if not after:
            self._go_out(seat)

    def _swap(self, seat: int, meld_id: int, card: int) -> None:
        r = self.r
        if not r.joker_swap:
            raise InvalidSwap("this variant has no jokers to swap")
        if not self.opened[seat]:
            raise NotOpened(f"you may take a joker only after your first meld of {r.opening_min}")
        i = self._find(meld_id)
        hand = self.hands[seat]
        if card not in hand:
            raise CardNotInHand(f"{card_name(card)} is not in your hand")
        m = self.melds[i]
        if not m.is_run:
            raise InvalidSwap(f"m{meld_id} is a set: only a run's joker can be swapped")
        pos = -1
        for k, (c, s) in enumerate(zip(m.cards, m.stands, strict=True)):
            if c == JOKER and s == card:
                pos = k
                break
        if pos < 0:
            raise InvalidSwap(f"no joker in m{meld_id} stands for {card_name(card)}")
        after = list(hand)
        after.remove(card)
        after.append(JOKER)
        cards = m.cards[:pos] + (card,) + m.cards[pos + 1 :]
        new = TMeld(m.id, True, m.key, m.low, m.high, cards, m.stands)
        must_after = self.jokers_taken + (1 if r.must_play_joker else 0)
        self._play_onto(seat, i, new, after, must_after)

    def _play_onto(self, seat: int, i: int, new: TMeld, after: list[int], must_after: int) -> None:
        """Put `new` in place of table meld `i` and leave `after` in `seat`'s hand (a lay-off
        or a joker swap), once the hand it leaves strands nobody."""
        melds = list(self.melds)
        melds[i] = new
        self._check_after(after, must_after, melds)
        self.hands[seat] = after
        self.melds = melds
        self.jokers_taken = must_after
        self.laid_off_this_turn = True
        self.played_this_turn = True

    def after_problem(
        self, after: Sequence[int], must_after: int, melds: Sequence[TMeld]
    ) -> IllegalMove | None:
        """Why a meld, lay-off or swap leaving hand `after` would strand the player, or None.

        RULES.md: the drawn discard may not be the only card left to discard; rummy51: the
        last card must be discarded, and a joker taken this turn must still find a place.
        """
        n = len(after)
        drawn = self.drawn_from_discard
        if n == 0:
            if self.r.must_discard_out:
                return MustDiscardToGoOut("you must keep a card to discard when going out")
            return None
        if not must_after:
            if n >= 2 or after[0] != drawn:
                return None
            return CannotDiscardDrawnCard(
                f"{card_name(drawn)} was taken from the discard pile this turn and would be "
                "the only card left to discard"
            )
        slots = sum(joker_slots(m, self.r.ace_high) for m in melds)
        if not jokers_can_land(after, must_after, slots, drawn, self.r.distinct, self.r.ace_high):
            return MustPlayJoker(
                "the joker you would take could not be played this turn with a card left to discard"
            )
        return None

    def _check_after(self, after: Sequence[int], must_after: int, melds: Sequence[TMeld]) -> None:
        problem = self.after_problem(after, must_after, melds)
        if problem is not None:
            raise problem
