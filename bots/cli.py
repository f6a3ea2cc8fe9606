"""`rummy bot` and `rummy tournament`: registered into app/cli.py's parser by `register`.

Also runnable alone: `python -m bots.cli tournament --variant classic --players expert,greedy`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from bots import LEVELS, STRATEGY_NAMES


def _bot(args: argparse.Namespace) -> int:
    from bots import client

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.seat_url:
        server, room, token = client.parse_seat_url(args.seat_url)
        seat = client.Seat(args.server or server, room, token)
    else:
        if not args.server:
            raise SystemExit("--server is needed with --room")
        seat = asyncio.run(client.join(args.server, args.room, args.name))
        print(f"joined room {seat.room} as seat {seat.seat}", flush=True)

    def show(state: dict[str, Any]) -> None:
        result = state.get("hand_result")
        if state.get("phase") == "hand_over" and result:
            print(
                f"hand {state.get('hand_number')} over: {result.get('reason')}, "
                f"winner {result.get('winner')}, scores {state.get('scores')}",
                flush=True,
            )

    last = asyncio.run(
        client.play(seat, args.strategy, seed=args.seed, max_hands=args.hands, on_state=show)
    )
    if last is not None and last.get("phase") == "match_over":
        print(f"match over: winners {last.get('match_winner')}, scores {last.get('scores')}")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from bots import tournament

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    known = set(STRATEGY_NAMES + LEVELS)
    for p in players:
        if p not in known:
            raise SystemExit(f"unknown strategy {p!r}; known: {', '.join(sorted(known))}")
    started = time.perf_counter()

    def progress(done: int) -> None:
        if args.progress:
            print(f"  {done}/{args.matches} matches", file=sys.stderr, flush=True)

    summary = tournament.run(
        args.variant,
        players,
        args.matches,
        args.seed,
        jobs=args.jobs,
        progress=progress,
        budget_ms=args.budget_ms,
    )
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        elapsed = time.perf_counter() - started
        print(
            f"{args.variant}: {args.matches} matches of {' vs '.join(players)}, "
            f"seed {args.seed}, {args.jobs} jobs"
            + (f", budget {args.budget_ms:g} ms" if args.budget_ms is not None else "")
            + f" ({elapsed:.0f} s)"
        )
        print(tournament.format_table(args.variant, summary))
    return 0


def register(subparsers: Any) -> None:
    """Add `bot` and `tournament` to the `rummy` command's subparsers."""
    names = ", ".join(STRATEGY_NAMES + LEVELS)
    bot = subparsers.add_parser("bot", help="play a seat over the websocket API")
    bot.add_argument("--server", help="base URL, e.g. http://127.0.0.1:8000")
    where = bot.add_mutually_exclusive_group(required=True)
    where.add_argument("--room", help="join the room's next free seat")
    where.add_argument("--seat-url", help="take this seat: …/r/<room>#seat=<token>")
    bot.add_argument("--strategy", default="expert", help=f"one of: {names}")
    bot.add_argument("--name", default="bot", help="the seat's name when joining")
    bot.add_argument("--seed", type=int, default=None, help="seed of the bot's choices")
    bot.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    bot.set_defaults(func=_bot)

    tour = subparsers.add_parser("tournament", help="play strategies against each other")
    tour.add_argument("--variant", default="classic", choices=("classic", "basic", "rummy51"))
    tour.add_argument(
        "--players",
        default="expert,greedy",
        help=f"comma-separated strategies, one per seat ({names})",
    )
    tour.add_argument("--matches", type=int, default=100)
    tour.add_argument("--seed", type=int, default=1)
    tour.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (results do not depend on it)",
    )
    tour.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="the expert thinks against this time budget, as on the server (150 there): "
        "real decision times, but results no longer reproduce exactly",
    )
    tour.add_argument("--json", action="store_true", help="print one JSON object")
    tour.add_argument("--progress", action="store_true", help="report progress on stderr")
    tour.set_defaults(func=_tournament)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rummy")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
