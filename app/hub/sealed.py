"""Frames sealed on their way through Redis: chat (and the rematch's frame) cross between
server processes as room events, and Redis is no place for their text. Game states never
travel there (an event only says a room changed), but a chat frame carried its text in the
clear, for `redis-cli MONITOR`, a replica or a captured link to read.

A frame event is sealed under the server key (app/persist/sealing.py, AES-GCM-SIV), bound
to its room, before it is published, and opened by the process that hears it; presence
and version events, which hold nothing secret, pass as they are. A sealed frame copied to
another room's channel does not open there.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from app.persist.sealing import SealError, StateCipher

log = logging.getLogger("rummy.redis_hub")

SEALED = "sealed"


def _context(room: str) -> str:
    return f"hub.frame:{room}"


def seal_event(cipher: StateCipher | None, room: str, event: dict[str, Any]) -> dict[str, Any]:
    """`event` as it may cross Redis: a frame sealed, anything else as it is."""
    if cipher is None or event.get("kind") != "frame":
        return event
    text = json.dumps(event, separators=(",", ":"))
    return {"kind": SEALED, "box": cipher.seal(_context(room), text)}


def open_event(
    cipher: StateCipher | None, room: str, event: dict[str, Any]
) -> dict[str, Any] | None:
    """The event a message from Redis carries; None for a sealed one that does not open
    here (another key, another room: dropped, logged without its content)."""
    if event.get("kind") != SEALED:
        return event
    box = event.get("box")
    if cipher is None or not isinstance(box, str):
        return None
    try:
        opened: dict[str, Any] = json.loads(cipher.open(_context(room), box))
    except (SealError, ValueError):
        log.warning("a sealed frame for a room here does not open with this key: dropped")
        return None
    return opened
