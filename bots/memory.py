"""What a seat can remember about a hand from the views it was shown, and nothing more.

`HandMemory.observe(view)` reads `last_move`, the discard top and the pile size of each view
and keeps, per seat: the cards it took from the discard pile (and still holds, as far as the
table shows), the top discards it declined, and the cards it threw away. It also tracks the
discard pile's content while every change was seen.

Callers that see every state (the websocket client, the tournament) call `observe` on each
view; a caller that only asks for moves (the server's computer seats) still gives the expert
one view per own turn, from which `observe` infers the previous player's draw by the change in
the pile size. Memories live in a `MemoryBook`: a bounded LRU keyed by the hand's identity
(variant, players, seat and the hand's shuffle `commitment`), so one strategy object can serve
any number of rooms without mixing them up.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from rules import playout
from rules.playout import int_to_code as code_of

if TYPE_CHECKING:
    from rules import SeatView


def hand_key(view: SeatView) -> tuple[object, ...]:
    """Identity of the hand being played, as the seat sees it."""
    if view.commitment:
        return (view.variant, view.players, view.seat, view.commitment)
    return (view.variant, view.players, view.seat, view.hand_number, view.dealer, view.scores)


class HandMemory:
    def __init__(self, players: int) -> None:
        self.players = players
        self.picked: list[list[int]] = [[] for _ in range(players)]
        self.declined: list[set[int]] = [set() for _ in range(players)]
        self.discarded: list[list[int]] = [[] for _ in range(players)]
        # Discard pile bottom..top while every change was seen; None once we lost track.
        self.pile: list[int] | None = None
        self._last: tuple[object, ...] | None = None
        self._top: int | None = None
        self._count = 0
        self._turns = -1
        self._stock = -1
        self._saw_draw_of_turn = False
        # (seat, turns_completed after it, card or "draw") of our own move already folded in.
        self._own: tuple[int, int, str] | None = None

    def observe(self, view: SeatView) -> None:
        """Fold one view in; repeated views are ignored."""
        lm = view.last_move
        sig = (
            view.turns_completed,
            view.discard_count,
            view.discard_top,
            view.stock_count,
            tuple(view.hand_counts),
            None if lm is None else (lm.seat, tuple(sorted(map(str, lm.move.items())))),
        )
        if sig == self._last:
            return
        first = self._last is None
        self._last = sig
        top = None if view.discard_top is None else playout.code_to_int(view.discard_top)
        if first:
            self.pile = [top] if (top is not None and view.discard_count == 1) else None
            self._remember(view, top)
            return
        if view.stock_count > self._stock and self._stock >= 0:
            # The pile was shuffled into a new stock: only what is visible now is known.
            self.pile = [top] if (top is not None and view.discard_count == 1) else None
        elif lm is not None:
            self._apply_last_move(view, lm.seat, lm.move, top)
        self._remember(view, top)

    def _remember(self, view: SeatView, top: int | None) -> None:
        self._top = top
        self._count = view.discard_count
        self._stock = view.stock_count
        if view.turns_completed != self._turns:
            self._saw_draw_of_turn = False
        self._turns = view.turns_completed

    def _apply_last_move(
        self, view: SeatView, seat: int, move: dict[str, Any], top: int | None
    ) -> None:
        if not 0 <= seat < self.players:
            return
        kind = move.get("type")
        if kind == "draw":
            self._saw_draw_of_turn = True
            if move.get("source") == "discard":
                if self._own == (seat, view.turns_completed, "draw"):
                    return
                taken = playout.code_to_int(str(move["card"])) if move.get("card") else self._top
                if taken is not None:
                    self.picked[seat].append(taken)
                if self.pile:
                    self.pile.pop()
            elif self._top is not None:
                self.declined[seat].add(self._top)
            return
        if kind == "discard":
            card = playout.code_to_int(str(move.get("card")))
            if self._own == (seat, view.turns_completed, code_of(card)):
                return
            if view.turns_completed == self._turns + 1 and not self._saw_draw_of_turn:
                # We missed this turn's draw: the pile size tells which source it was.
                if view.discard_count == self._count and self._top is not None:
                    self.picked[seat].append(self._top)
                    if self.pile:
                        self.pile.pop()
                elif view.discard_count == self._count + 1 and self._top is not None:
                    self.declined[seat].add(self._top)
            elif view.turns_completed != self._turns + 1:
                self.pile = None  # several turns went by unseen
            self.discarded[seat].append(card)
            self._forget(seat, [card])
            if self.pile is not None:
                self.pile.append(card)
                if len(self.pile) != view.discard_count:
                    self.pile = None
            return
        if kind == "meld":
            played = [c for meld in move.get("melds", ()) for c in meld]
            self._forget(seat, list(playout.ints(played)))
        elif kind == "layoff":
            self._forget(seat, list(playout.ints(move.get("cards", ()))))
        elif kind == "swap":
            self._forget(seat, [playout.code_to_int(str(move.get("card")))])

    def note_own(self, view: SeatView, move: dict[str, Any]) -> None:
        """Fold in our own draw from the pile or discard before the server echoes it.

        Callers that see only their own turns need this to keep the pile tracked.
        """
        kind = move.get("type")
        if kind == "discard":
            card = playout.code_to_int(str(move["card"]))
            self.discarded[view.seat].append(card)
            if self.pile is not None:
                self.pile.append(card)
            self._top = card
            self._count += 1
            self._turns = view.turns_completed + 1
            self._saw_draw_of_turn = False
            self._own = (view.seat, self._turns, code_of(card))
        elif kind == "draw" and move.get("source") == "discard":
            if self.pile:
                self.pile.pop()
            self._top = self.pile[-1] if self.pile else None
            self._count -= 1
            self._saw_draw_of_turn = True
            self._own = (view.seat, view.turns_completed, "draw")

    def _forget(self, seat: int, played: list[int]) -> None:
        held = self.picked[seat]
        for c in played:
            if c in held:
                held.remove(c)

    def pile_cards(self) -> list[int]:
        """The discard pile's cards we know of (all of them while tracked, else none)."""
        return list(self.pile) if self.pile is not None else []


class MemoryBook:
    """A bounded LRU of `HandMemory` per hand identity (see `hand_key`)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._book: OrderedDict[tuple[object, ...], HandMemory] = OrderedDict()

    def get(self, view: SeatView) -> HandMemory:
        key = hand_key(view)
        mem = self._book.get(key)
        if mem is None:
            mem = self._book[key] = HandMemory(view.players)
            while len(self._book) > self.size:
                self._book.popitem(last=False)
        else:
            self._book.move_to_end(key)
        return mem

    def observe(self, view: SeatView) -> HandMemory:
        mem = self.get(view)
        mem.observe(view)
        return mem
