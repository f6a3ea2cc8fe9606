"""`rummy` command line: `serve` here; `verify` from app/records/verify.py, `backup` and `restore`
from app/backup.py; `bot` and `tournament` come from bots/cli.py."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any


def _serve(args: argparse.Namespace) -> int:
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from app import logscrub, logsetup
    from app.config import get_settings
    from app.guards.connections import server_config
    from app.keycheck import KeyMismatch
    from app.main import create_app

    settings = get_settings()
    logscrub.install()  # before the first log line: no record of this process shows a token
    level = 5 if args.log_level == "trace" else args.log_level.upper()  # uvicorn's TRACE is 5
    log_config = logsetup.configure(settings.log_format, level)  # RUMMY_LOG_FORMAT
    try:
        asyncio.run(_upgrade(settings))
    except KeyMismatch as exc:
        if log_config is not None:  # JSON: even this line
            logging.getLogger("rummy").error("rummy serve: %s", exc)
        else:
            print(f"rummy serve: {exc}", file=sys.stderr)  # one line, no traceback
        return 2
    options: dict[str, Any] = {"host": args.host, "port": args.port}
    options["log_level"] = args.log_level
    if log_config is not None:
        options["log_config"] = log_config
    if args.workers > 1:
        # Each worker serves its metrics on a port of its own, the first free of K.
        os.environ["RUMMY_METRICS_PORTS"] = str(args.workers)
        # Each worker is a process with its own app, engine and hub; they share the
        # listening socket. Rooms stay consistent through the database's version CAS, and
        # with RUMMY_REDIS_URL set every worker's websockets get every room's events.
        if not settings.redis_url:
            logging.getLogger("rummy").warning(
                "--workers without RUMMY_REDIS_URL: a move reaches only the websockets of "
                "the worker that accepted it"
            )
        config = server_config(
            "app.main:create_app", settings, factory=True, workers=args.workers, **options
        )
        Multiprocess(config, sockets=[config.bind_socket()]).run()
        return 0
    uvicorn.Server(server_config(create_app(settings), settings, **options)).run()
    return 0


async def _upgrade(settings: Any) -> None:
    """Bring the database to head (alembic), then check that the key opens its rooms."""
    from app import migrate
    from app.db import create_engine
    from app.keycheck import check_key

    engine = create_engine(settings.database_url)
    try:
        await migrate.upgrade(engine)
        await check_key(engine, settings)
    finally:
        await engine.dispose()


def _migrate(_: argparse.Namespace) -> int:
    """Bring the database to the release's schema without serving (an upgrade's first step,
    docs/operations.md)."""
    from app import logsetup
    from app.config import get_settings
    from app.keycheck import KeyMismatch

    settings = get_settings()
    logsetup.configure(settings.log_format, logging.INFO)
    try:
        asyncio.run(_upgrade(settings))
    except KeyMismatch as exc:
        print(f"rummy migrate: {exc}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rummy", description="An online Rummy table.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve", help="migrate the database to head and serve the API, websocket and web app"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes sharing the port (set RUMMY_REDIS_URL and a PostgreSQL "
        "RUMMY_DATABASE_URL so they share rooms)",
    )
    serve.add_argument(
        "--log-level", default="info", choices=["trace", "debug", "info", "warning", "error"]
    )
    serve.set_defaults(func=_serve)
    commands.add_parser(
        "migrate", help="bring the database to this release's schema without serving"
    ).set_defaults(func=_migrate)
    from app.records.verify import register as register_verify

    register_verify(commands)
    from app.backup import register as register_backup

    register_backup(commands)  # `backup` and `restore`
    try:
        from bots.cli import register
    except ImportError:
        pass  # the bots package adds `bot` and `tournament` once it is there
    else:
        register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result = args.func(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
