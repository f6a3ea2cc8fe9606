"""The turn drivers of one process, built on the room service's port: the computer's turns
(the move path's step after each commit), stand-ins, the turn timer and advice."""

from __future__ import annotations

from app.config import Settings
from app.rooms.port import RoomPort
from app.turns import standin
from app.turns.advice import Advice
from app.turns.botpool import BotPool
from app.turns.computer import ComputerTurns
from app.turns.timers import TurnTimer


class Turns:
    def __init__(self, port: RoomPort, settings: Settings) -> None:
        self.port = port
        # Bot decisions run off the event loop, so one bot's thinking stalls no other room.
        self.pool = BotPool(settings.bot_processes, settings.bot_budget_ms)
        self.computer = ComputerTurns(port, self.pool)
        self.timer = TurnTimer(port, self.computer)
        self.advice = Advice(port, self.pool)

    async def stand_in(self, room_id: str, by: int, seat: int) -> None:
        """Let a bot play `seat` at the request of seat `by` (app/turns/standin.py)."""
        await standin.start(self.port, self.computer, room_id, by, seat)

    def close(self) -> None:
        """Stop the background reviews and the bot workers (the app's lifespan ends)."""
        self.advice.close()
        self.pool.close()
