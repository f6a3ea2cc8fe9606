"""A seat's address: the server, the room and the seat's token (docs/api.md, "Identity")."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass
class Seat:
    server: str  # http(s)://host:port
    room: str
    token: str
    seat: int | None = None


def parse_seat_url(url: str) -> tuple[str, str, str]:
    """(server base, room, token) from `http://host/r/<room>#seat=<token>`.

    >>> parse_seat_url("http://h:8/r/abc#seat=tok")
    ('http://h:8', 'abc', 'tok')
    """
    parts = urlsplit(url)
    path = parts.path.rstrip("/").split("/")
    if len(path) < 2 or path[-2] != "r" or not parts.fragment.startswith("seat="):
        raise ValueError(f"not a seat URL (…/r/<room>#seat=<token>): {url}")
    return f"{parts.scheme}://{parts.netloc}", path[-1], parts.fragment[len("seat=") :]


def ws_url(server: str, room: str, *, watch: bool = False) -> str:
    """The room's websocket (no token in it: the client sends an auth frame).

    >>> ws_url("https://h", "abc")
    'wss://h/api/rooms/abc/ws'
    """
    base = server.rstrip("/")
    if base.startswith("https://"):
        base = "wss://" + base[len("https://") :]
    elif base.startswith("http://"):
        base = "ws://" + base[len("http://") :]
    return f"{base}/api/rooms/{room}/ws" + ("?watch=1" if watch else "")
