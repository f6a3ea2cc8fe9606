"""The turn drivers: computer seats and the bot pool they think in, stand-ins, the turn
timer, and advice (hints, hand reviews). They act on rooms only through the room
service's port (app/rooms/port.py)."""
