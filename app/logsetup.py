"""Log set-up: uvicorn's text lines by default, or with `RUMMY_LOG_FORMAT=json` every line of
every logger of the process (ours, uvicorn's, a library's, a warning, an uncaught error) one
JSON object, for Loki, journald or any collector:

    {"time": "2026-12-08T10:00:00.123+00:00", "level": "INFO", "logger": "rummy.service",
     "message": "room created: online basic 2 players", "room": "k3J9..."}

`room` is there where there is one: the request's or socket's room (set here for every
`/api/rooms/<id>/...` path, and inherited by the tasks it starts), a log call's
`extra={"room": ...}`, or a room URL the message itself quotes (uvicorn's handshake lines).
`exc` holds a traceback. Every record is scrubbed of tokens before any handler sees it
(app/logscrub.py), so these lines are too.
"""

from __future__ import annotations

import contextvars
import json
import logging
import logging.config
import re
import sys
import threading
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

# The room of the request or socket being served (None outside one).
current_room: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "rummy_room", default=None
)
_ROOM_IN_TEXT = re.compile(r"/api/rooms/([A-Za-z0-9_-]+)")
_ROOM_PREFIX = "/api/rooms/"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ms), level, logger, message, room, exc."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": message,
        }
        room = getattr(record, "room", None) or current_room.get()
        if room is None:
            found = _ROOM_IN_TEXT.search(message)
            room = found.group(1) if found else None
        if room is not None:
            line["room"] = room
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exc"] = record.exc_text
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, ensure_ascii=False, default=str)


def dict_config(log_format: str, level: int | str) -> dict[str, Any] | None:
    """The `logging.config.dictConfig` of the process, which uvicorn's `log_config` also
    takes (its workers apply it in each process): None for text, uvicorn's own lines.

    Every logger writes through the root's one handler; uvicorn's loggers lose theirs and
    propagate to it."""
    if log_format != "json":
        return None
    uvicorn = {"handlers": [], "propagate": True}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            "uvicorn": {**uvicorn, "level": level},
            "uvicorn.error": uvicorn,
            "uvicorn.access": uvicorn,
        },
    }  # fmt: skip


def configure(log_format: str, level: int | str) -> dict[str, Any] | None:
    """Set up this process's logging; returns the dict config to hand uvicorn (None: its
    default). JSON also takes warnings and uncaught errors into the log."""
    config = dict_config(log_format, level)
    if config is None:
        logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
        return None
    logging.config.dictConfig(config)
    logging.captureWarnings(True)
    sys.excepthook = _log_uncaught
    threading.excepthook = _log_thread_uncaught
    return config


def configure_child() -> None:
    """In a worker process of the server's (bot workers): the server's format, from the
    environment it inherited."""
    import os

    if os.environ.get("RUMMY_LOG_FORMAT", "").lower() == "json":
        configure("json", logging.INFO)


def _log_uncaught(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    logging.getLogger("rummy").critical("uncaught error", exc_info=(kind, exc, tb))


def _log_thread_uncaught(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is not None:
        logging.getLogger("rummy").error(
            "uncaught error in thread %s",
            args.thread.name if args.thread else "?",
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        )


class RoomContext:
    """Pure-ASGI middleware: `current_room` for the log lines of a room's requests and
    sockets (and of the tasks they start)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "lifespan" or not path.startswith(_ROOM_PREFIX):
            await self.app(scope, receive, send)
            return
        token = current_room.set(path[len(_ROOM_PREFIX) :].split("/", 1)[0] or None)
        try:
            await self.app(scope, receive, send)
        finally:
            current_room.reset(token)


def install(app: Any, settings: Any) -> None:
    """Name the room in JSON log lines (RUMMY_LOG_FORMAT=json); nothing for text."""
    if settings.log_format == "json":
        app.add_middleware(RoomContext)
