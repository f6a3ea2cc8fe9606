"""The FastAPI app: `create_app()` wires settings, lifespan resources, the one error
handler, the routes and the static web app."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

import rules
from app import guards, logscrub, logsetup, metrics, static
from app.api import (
    asyncapi,
    challenges,
    chat,
    cors,
    docs,
    health,
    hints,
    moves,
    openapi,
    rematch,
    replays,
    rooms,
    seats,
    serverkey,
    watch,
    ws,
)
from app.api.catchup import catch_up_forever
from app.api.fanout import Fanout
from app.clock import Clock, utcnow
from app.config import Settings, get_settings
from app.db import create_engine
from app.errors import (
    AppError,
    InvalidRequest,
    MalformedMove,
    UnsupportedMediaType,
    error_payload,
    field_errors,
    retry_header,
)
from app.guards import handshake
from app.hub import Hub, LocalHub
from app.keycheck import check_key
from app.persist import create_store
from app.persist.sealing import StateCipher, cipher_for
from app.records.signing import signer_for
from app.rooms.healing import heal_forever
from app.rooms.service import RoomService
from app.social.registry import attach as attach_friends
from app.testclock import offset_clock
from app.turns.drivers import Turns
from app.views import ErrorBody
from rummy_wire.choices import ErrorCode

log = logging.getLogger("rummy")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
_STATUS_CODES: dict[int, ErrorCode] = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
}


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> FastAPI:
    """A new app. Tests pass their own settings and clock; `app.state.service.clock` may also be
    replaced while it runs."""
    settings = settings or get_settings()
    if clock is None and settings.clock_offset_file:
        clock = offset_clock(settings.clock_offset_file)
    logscrub.install()  # process-wide: also covers servers that do not start via `rummy serve`

    app = FastAPI(
        title="rummy",
        version="1",
        summary="Online Rummy: rooms, moves, votes, a websocket per seat, and the hand log.",
        lifespan=_lifespan(settings, clock or utcnow),
        generate_unique_id_function=openapi.operation_id,
        # /docs and /redoc from installed files (app/api/docs.py), not FastAPI's CDN pages.
        docs_url=None,
        redoc_url=None,
        responses={422: {"model": ErrorBody, "description": "Invalid request or illegal move"}},
    )
    _add_error_handlers(app)
    app.include_router(rooms.router)
    app.include_router(moves.router)
    app.include_router(hints.router)
    app.include_router(watch.router)
    app.include_router(replays.router)
    app.include_router(seats.router)
    app.include_router(ws.router)
    app.include_router(chat.router)
    app.include_router(rematch.router)
    app.include_router(challenges.router)
    app.include_router(serverkey.router)
    app.include_router(health.router)
    app.include_router(asyncapi.router)
    app.include_router(docs.router)
    openapi.summarize(app)
    static.install(app, Path(settings.web_dir) if settings.web_dir else WEB_DIR)

    guards.install(app, settings)
    handshake.install(app, settings)  # a storm's refusal costs nothing else
    metrics.install(app, settings)  # HTTP answers by status, when RUMMY_METRICS_ADDRESS is set
    logsetup.install(app, settings)  # the room of a request's log lines, with RUMMY_LOG_FORMAT=json
    # Outermost: a guard's refusal (429, 413) is readable by an allowed page too.
    cors.install(app, settings.cors_origins)
    return app


def _lifespan(
    settings: Settings, clock: Clock
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """What the app runs on, built at start-up and closed at shutdown: the database engine
    and store, the hub, the room service, the turn drivers on its port, and the tasks that
    purge, heal and fire turn timers."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_engine(settings.database_url, settings.db_pool_timeout_seconds)
        app.state.engine = engine  # tests hold its pool
        await check_key(engine, settings)  # before anything serves: never a 200 unreadable
        app.state.signer = signer_for(settings)  # signs match records (app/records/signing.py)
        hub = create_hub(settings.redis_url, cipher_for(settings))
        await hub.start()
        store = create_store(engine, settings)
        await store.seal_cleartext_rows()
        service = RoomService(store, hub, settings, clock)
        turns = Turns(service, settings)
        service.turn_steps = turns.computer  # the move path's step after each commit
        # What this process serves from its cache follows the other processes' moves.
        hub.keep_current(service.snapshots.rooms, service.snapshots.forget)
        app.state.service = service
        app.state.turns = turns
        attach_friends(service)  # chat, rematch, challenges (app/social/)
        app.state.fanout = Fanout(service)
        stop_metrics = metrics.start(settings, app.state.fanout, service)
        _tune_gc()
        purger = asyncio.create_task(_purge_forever(service, settings.purge_interval_seconds))
        healer = asyncio.create_task(heal_forever(service, settings.heal_interval_seconds))
        timer = asyncio.create_task(turns.timer.run(settings.timer_interval_seconds))
        catchup = asyncio.create_task(
            catch_up_forever(app.state.fanout, service, settings.heal_interval_seconds)
        )
        try:
            yield
        finally:
            for task in (purger, healer, timer, catchup):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            turns.close()
            stop_metrics()
            await hub.stop()
            await store.close()
            await engine.dispose()

    return lifespan


def create_hub(redis_url: str | None, cipher: StateCipher | None = None) -> Hub:
    """The in-process hub, or with a Redis URL the one that spans processes (sealing the
    frames it carries with `cipher`: app/hub/sealed.py)."""
    if redis_url:
        from app.hub.redis import RedisHub  # imports redis only where it is used

        return RedisHub(redis_url, cipher)
    return LocalHub()


async def _purge_forever(service: RoomService, interval: float) -> None:
    while True:
        try:
            purged = await service.purge()
            if purged:
                log.info("purged %d expired rooms", purged)
        except Exception:  # the database may be briefly away; try again next round
            log.exception("purge failed")
        await asyncio.sleep(interval)


def _json(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(status_code=status, content=body, headers=headers)


def _tune_gc() -> None:
    """Under load the collector's pauses, not our code, set the move latency's tail.

    What exists once the app is up (modules, schemas, routes) lives as long as the process:
    frozen, full collections stop walking it. And a move allocates in bursts (a state, a
    view per socket) that reference counting frees at once, yet each burst crossed the
    default 700-object threshold and paid a young collection. With 20,000, a 200-room load
    ran 17 collections in 30 s instead of 1,400, and its p99 went from 30 to 15 ms; the
    cyclic garbage that may wait meanwhile is a few MB at most.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def app_error(_: Request, exc: AppError) -> JSONResponse:
        status, body = error_payload(exc)
        return _json(status, body, {**exc.headers, **(retry_header(exc, status) or {})})

    @app.exception_handler(rules.IllegalMove)
    async def rules_error(_: Request, exc: rules.IllegalMove) -> JSONResponse:
        return _json(*error_payload(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        if request.method in _BODY_METHODS and not _json_body(request):
            # FastAPI did not read it as JSON, so every field looks missing: say why.
            kind = request.headers.get("content-type") or "no content type"
            return await app_error(request, UnsupportedMediaType(f"{kind}: send application/json"))
        message, details = field_errors(exc.errors())
        moves = request.url.path.endswith("/moves")
        error = (MalformedMove if moves else InvalidRequest)(message, details=details)
        return await app_error(request, error)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        status = exc.status_code
        if status == 400:
            # FastAPI's 400 for a body it cannot parse at all (not UTF-8, say): the API
            # answers every malformed request with 422 (schemathesis found the 400).
            status = 422
        code = _STATUS_CODES.get(status, "bad_request")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        return JSONResponse(
            status_code=status,
            content={"error": {"code": code, "message": message}},
            headers=getattr(exc, "headers", None),
        )


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def _json_body(request: Request) -> bool:
    """Whether the request's body, if it has one, is JSON as FastAPI reads it: no body at
    all, or `application/json` or another `application/*+json` type."""
    kind = request.headers.get("content-type")
    if kind is None:
        return request.headers.get("content-length", "0") == "0" and (
            "transfer-encoding" not in request.headers
        )
    main, _, _ = kind.partition(";")
    main = main.strip().lower()
    return main == "application/json" or (
        main.startswith("application/") and main.endswith("+json")
    )
