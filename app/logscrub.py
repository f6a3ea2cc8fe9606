"""Seat tokens never reach a log line: every log record of the process is scrubbed when it
is made, whichever logger makes it (ours, uvicorn's, websockets', a library's) and whichever
handler later writes it.

A filter on our handlers would miss the handlers uvicorn's `dictConfig` installs, and
turning off the access log missed `uvicorn.error`, which prints every websocket handshake's
URL with its `?token=`. So `install()` wraps the process's log record factory: the message,
each string-like argument, the formatted traceback and the stack are scrubbed before any
handler sees the record.

A token is recognised by where it stands, not by its shape (a wrong token a client sends
may look like anything): a `token=` query value, a `Bearer` credential, a `#seat=` URL
fragment, and a `"token": "..."` JSON or Python-repr field (the websocket auth frame, the
join response). The value is replaced with `[redacted]`. A websocket data frame that
websockets logs at DEBUG shows its kind and size only: its text, cut short for the log,
could hold part of a token with nothing left around it to recognise it by.
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any

from websockets.frames import Frame, Opcode

REDACTED = "[redacted]"

# A value runs until a character that ends a URL component, a header or a quoted string.
_PATTERNS = (
    # ?token=..., &token=..., token%3D... (percent-encoded), b'token=...' in an ASGI scope
    re.compile(r"(?i)(token(?:=|%3D))[^&\s\"'#<>\\]+"),
    # Authorization: Bearer ..., (b'authorization', b'Bearer ...')
    re.compile(r"(?i)(bearer(?:\s|%20|\+)+)[^\s\"',;\\]+"),
    # a seat URL's fragment: /r/<room>#seat=...
    re.compile(r"(?i)((?:#|%23)seat(?:=|%3D))[^&\s\"'<>\\]+"),
    # {"token": "..."}, {'token': '...'}, and the same escaped inside a repr: {\"token\": \"...\"}
    re.compile(r"(?i)(\\?[\"']token\\?[\"']\s*:\s*\\?[\"'])[^\"'\\]+"),
)

# Records whose traceback says nothing a line would not: a client sending a text frame that
# is not UTF-8 made uvicorn log a full traceback per frame (it also closes the socket with
# 1007). One line each is enough.
_ONE_LINERS = frozenset({("uvicorn.error", "Invalid UTF-8 sequence received from client.")})

_DATA_OPCODES = frozenset({Opcode.TEXT, Opcode.BINARY, Opcode.CONT})

_installed: dict[str, Any] = {}


def scrub(text: str) -> str:
    """`text` with every token value replaced.

    >>> scrub('"WebSocket /api/rooms/r1/ws?token=s3cr3t&watch=0" [accepted]')
    '"WebSocket /api/rooms/r1/ws?token=[redacted]&watch=0" [accepted]'
    >>> scrub('{"type": "auth", "token": "s3cr3t"}')
    '{"type": "auth", "token": "[redacted]"}'
    """
    if not text:
        return text
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def _scrub_arg(arg: Any) -> Any:
    """A log argument with tokens removed; numbers and clean values stay as they are, so
    `%d` and formatters that read `record.args` (uvicorn's access log) keep working."""
    if arg is None or isinstance(arg, (bool, int, float)):
        return arg
    if isinstance(arg, Frame) and arg.opcode in _DATA_OPCODES:
        return f"{arg.opcode.name} [{len(arg.data)} bytes]"
    if isinstance(arg, tuple):
        return tuple(_scrub_arg(a) for a in arg)
    if isinstance(arg, (bytes, bytearray)):
        text = bytes(arg).decode("latin-1")
        clean = scrub(text)
        return arg if clean == text else clean.encode("latin-1")
    try:
        text = arg if isinstance(arg, str) else str(arg)
    except Exception:  # a broken __str__ must not lose the log line
        return arg
    clean = scrub(text)
    return arg if clean == text else clean


def scrub_record(record: logging.LogRecord) -> logging.LogRecord:
    """Remove tokens from `record` in place (and return it)."""
    if isinstance(record.msg, str):
        record.msg = scrub(record.msg)
    else:
        record.msg = _scrub_arg(record.msg)
    if isinstance(record.args, dict):
        record.args = {k: _scrub_arg(v) for k, v in record.args.items()}
    elif record.args:
        record.args = tuple(_scrub_arg(a) for a in record.args)
    if record.exc_info and (record.name, record.msg) in _ONE_LINERS:
        record.exc_info = None
    if record.exc_info and record.exc_info[0] is not None:
        # Formatters reuse exc_text when it is set: format the traceback once, scrubbed
        # (an exception's message may quote a URL or a frame).
        record.exc_text = scrub("".join(traceback.format_exception(*record.exc_info)).rstrip())
    elif record.exc_text:
        record.exc_text = scrub(record.exc_text)
    if record.stack_info:
        record.stack_info = scrub(record.stack_info)
    return record


def install() -> None:
    """Scrub every log record this process makes from now on (idempotent)."""
    if _installed:
        return
    make = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return scrub_record(make(*args, **kwargs))

    logging.setLogRecordFactory(factory)
    _installed["factory"] = factory
