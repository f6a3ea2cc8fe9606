"""A lean HTTP/1.1 keep-alive client for load generation (one connection per instance).

A pooled `httpx.AsyncClient` spends more CPU per request than our server does
(../shared/TESTING.md), so the bench talks HTTP itself: write one request, read the status
line, the headers and a Content-Length body. No chunked bodies, no redirects, no TLS:
just enough for our own JSON endpoints on loopback.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit


class RawHTTP:
    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except (ConnectionError, OSError):
                pass
            self._writer = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        """Send one request and return (status, parsed JSON body or None)."""
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token is not None:
            head.append(f"Authorization: Bearer {token}")
        head.append(f"Content-Length: {len(data)}")
        raw = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        for attempt in (0, 1):
            if self._writer is None:
                await self._connect()
            assert self._reader is not None and self._writer is not None
            try:
                self._writer.write(raw)
                status_line = await self._reader.readline()
                if not status_line:
                    raise ConnectionResetError("server closed the connection")
                break
            except (ConnectionError, OSError):
                await self.close()
                if attempt:
                    raise
        reader = self._reader
        assert reader is not None  # the loop above either connected or raised
        status = int(status_line.split()[1])
        length = 0
        close = False
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value.strip())
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        payload = await reader.readexactly(length) if length else b""
        if close:
            await self.close()
        if not payload:
            return status, None
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, payload.decode("utf-8", "replace")  # e.g. a plain-text 500
