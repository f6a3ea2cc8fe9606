"""Settings from the environment (prefix RUMMY_), read once per process."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RUMMY_", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./data/rummy.db"
    # The longest a request or socket waits for a pooled database connection before it is
    # answered 503 `unavailable` (SQLAlchemy's default, 30 s, left sockets with no state).
    db_pool_timeout_seconds: float = 5.0
    # Fixed seeds and deals make hands predictable: only for tests and puzzles.
    allow_fixed_deals: bool = False
    room_ttl_days: float = 7
    # Unset: one process, in-memory fan-out. Set: websocket events go through Redis pub/sub.
    redis_url: str | None = None
    # Group commits written in one hop (app/persist/). Off: statement by statement through
    # the engine, the slower path that any SQLAlchemy async driver can run.
    batch_writer: bool = True
    # How often the purge task looks for expired rooms.
    purge_interval_seconds: float = 3600
    # How often each process checks its cached rooms against the database (app/rooms/healing.py):
    # the longest a room stays behind when an event between processes was lost.
    heal_interval_seconds: float = 2.0
    # Seats that stay alive (app/turns/standin.py, app/turns/timers.py): how long a human
    # seat must have been away before another seat may ask for a stand-in, and how often
    # each process looks for turns whose timer ran out.
    away_seconds: float = 60.0
    timer_interval_seconds: float = 1.0
    # Tests of whole server processes only (app/testclock.py): a file whose number of seconds
    # is added to the server's clock.
    clock_offset_file: str | None = None
    # Hostile-input limits. Rates (app/guards/ratelimit.py) per client address, "<n>/<period>"
    # or "off", shared by every process on the same Redis; frames count every websocket
    # frame. The guards (app/guards/middleware.py): body cap and timeout, idle websocket timeout,
    # open websockets per address. The frame cap is uvicorn's ws_max_size.
    rate_limit_enabled: bool = True
    rate_create: str = "600/minute"
    rate_join: str = "1200/minute"
    rate_move: str = "6000/minute"
    rate_auth_fail: str = "600/minute"
    rate_frame: str = "12000/minute"
    max_body_bytes: int = 64 * 1024
    ws_max_frame_bytes: int = 64 * 1024
    ws_idle_seconds: float = 600.0
    body_timeout_seconds: float = 30.0
    ws_max_per_client: int = 256
    # Websockets opening at once per process (handshake to first frame, app/guards/handshake.py);
    # one more is refused with 503 and Retry-After instead of queueing (0: no cap). Not 128:
    # an ordinary set-up of 200 rooms (600 sockets from two clients) already had 130-160 of
    # its sockets refused, and their 1-2 s retries doubled its CPU per room (bench/load.py).
    # Above the per-address cap, so one address cannot hold every place.
    ws_max_opening: int = 512
    # Sockets that wait for their auth frame hold no opening place (app/guards/handshake.py):
    # at most this many per address wait at once (one more gets 429), each for at most
    # ws_auth_seconds before it is closed with 4401 (a browser sends its frame at once).
    ws_max_waiting_per_client: int = 32
    ws_auth_seconds: float = 5.0
    # Seals the stored game states (app/persist/sealing.py): 32 bytes, URL-safe base64.
    # Unset: a key file made on first start (beside the SQLite database, or secret_key_file).
    # Every process of one database needs the same key: set it for PostgreSQL.
    secret_key: SecretStr | None = None
    secret_key_file: str | None = None
    # Origins (comma-separated, `https://example.org`; `*` for any) whose pages may call the
    # API from a browser (CORS, app/api/cors.py). Empty: none, CORS is off.
    cors_origins: str = ""
    # Where the static web app lives (index.html, js/, css/).
    web_dir: str | None = None
    # Connection guards (app/guards/connections.py): a request head not complete in time is closed
    # with 408; HTTP connections open at once per client address (0: no cap).
    header_timeout_seconds: float = 10.0
    max_connections_per_client: int = 64
    # Computer seats (app/turns/botpool.py): worker processes that run bot decisions off the
    # event loop, each room pinned to one (0: threads), and the searching bots' time budget.
    bot_processes: int = 1
    bot_budget_ms: float = 150.0
    # Operations (docs/operations.md). Prometheus metrics on an address of their own
    # (`127.0.0.1:9464`; app/metrics.py), never on the game's port; unset, none. The ports
    # from its port on that the processes of `rummy serve --workers K` take (it sets K).
    metrics_address: str | None = None
    metrics_ports: int = 1
    # `json`: every log line of the process one JSON object (app/logsetup.py).
    log_format: Literal["text", "json"] = "text"


@lru_cache
def get_settings() -> Settings:
    return Settings()
