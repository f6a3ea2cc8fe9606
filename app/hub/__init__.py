"""Room events, presence and locks: the `Hub` protocol and its in-process and Redis
implementations (the composition root, app/main.py, picks one)."""

from app.hub.local import LocalHub
from app.hub.protocol import Event, Hub, Listener, Presence, away_of

__all__ = ["Event", "Hub", "Listener", "LocalHub", "Presence", "away_of"]
