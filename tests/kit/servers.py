"""Real servers in the test's process: `start_server` serves the app with uvicorn in a
thread, on a socket bound to a free loopback port; `LiveServer` is its base URL with handles
to reach inside (`tests/kit/processes.py` runs `rummy serve` as a process instead)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any


class LiveServer(str):
    """The base URL of a running server, plus handles to reach inside it."""

    app: Any
    loop: asyncio.AbstractEventLoop
    database_url: str
    _server: Any
    _thread: threading.Thread

    @property
    def ws_url(self) -> str:
        return "ws" + self[len("http") :]

    def set_clock(self, clock: Callable[[], datetime]) -> None:
        """Make the server read time from `clock` (expiry tests)."""
        self.app.state.service.clock = clock

    async def call(self, make: Callable[[], Awaitable[Any]]) -> Any:
        """Run `make()` on the server's event loop (its engine lives there) and await it."""

        async def run() -> Any:
            return await make()

        future = asyncio.run_coroutine_threadsafe(run(), self.loop)
        return await asyncio.wrap_future(future)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=30)


def start_server(database_url: str, **settings: Any) -> LiveServer:
    """Migrate `database_url` to head and serve the app on a free loopback port."""
    import uvicorn

    from app import migrate
    from app.config import Settings
    from app.db import create_engine
    from app.guards.connections import server_config
    from app.main import create_app

    options: dict[str, Any] = {
        "database_url": database_url,
        "allow_fixed_deals": True,
        "rate_limit_enabled": False,
    }
    options.update(settings)
    app_settings = Settings(**options)
    app = create_app(app_settings)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    config = server_config(app, app_settings, ws="websockets-sansio", log_level="warning")
    server = uvicorn.Server(config)
    live = LiveServer(f"http://127.0.0.1:{port}")
    live.app, live.database_url, live._server = app, database_url, server
    failure: list[BaseException] = []

    async def main() -> None:
        live.loop = asyncio.get_running_loop()
        engine = create_engine(database_url)
        try:
            await migrate.upgrade(engine)
        finally:
            await engine.dispose()
        await server.serve(sockets=[sock])

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # reported to the test below
            failure.append(exc)
        finally:
            sock.close()

    live._thread = threading.Thread(target=target, name=f"rummy-{port}", daemon=True)
    live._thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if failure or not live._thread.is_alive():
            raise RuntimeError(f"server did not start: {failure!r}")
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start within 60 s")
        time.sleep(0.02)
    return live
