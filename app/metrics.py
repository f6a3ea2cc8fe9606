"""Prometheus metrics (prometheus-client), on an address of their own: `RUMMY_METRICS_ADDRESS`
(`127.0.0.1:9464`) serves `/metrics` there, never on the game's port; unset, none.

Each process serves its own, as Prometheus expects: a cluster's scrape config lists every
process (docs/cluster.md). `rummy serve --workers K` gives its K processes the K ports from
the address's on (`RUMMY_METRICS_PORTS`, which it sets), each taking the first one free.

The move path pays for what it counts and nothing more: the code counts through `M`, whose
instruments are the library's label children, bound once per label value and kept in a dict
(`M.accepted["move"]["basic"].inc()`: two dict reads and a locked add, no label dict or
tuple built per move). Unset, `M` holds inert stand-ins that count nothing. What a scrape can
read for itself (rooms live, sockets open) is read then, from the running app, not kept up
move by move.

The instruments (names as Prometheus shows them; `docs/operations.md` says which to watch):
- `rummy_moves_accepted_total{variant}`, `rummy_votes_accepted_total{variant}`: entries
  committed (players', bots', the timer's); `rummy_moves_refused_total{variant,reason}`;
- `rummy_rooms_created_total{variant,mode}`, `rummy_rooms_live` (rooms with a socket here),
  `rummy_rooms_cached`, `rummy_sockets_open{kind="seat"|"spectator"}`;
- `rummy_hands_finished_total{variant}`, `rummy_matches_finished_total{variant}`;
- `rummy_commit_seconds` and `rummy_commit_batch_size`: each group commit's transaction;
- `rummy_http_responses_total{status}`, `rummy_errors_total{code}` (API errors answered, by
  REST or as a socket's error frame), `rummy_socket_closes_total{code}` (closes the server
  sent), `rummy_handshakes_refused_total` (connect storms' 503);
- `rummy_bot_decision_seconds{bot}`, `rummy_rate_limited_total{rate}`;
- `rummy_hub_published_total`, `rummy_hub_received_total`, `rummy_hub_dropped_total`: events
  to and from other processes through Redis;
- the library's own: `process_*` (CPU, memory, descriptors), `python_gc_*`, `python_info`.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Callable, Iterator
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("rummy.metrics")

VARIANTS = ("classic", "basic", "rummy51")
# Seconds: a group commit takes about a millisecond on SQLite, a few on PostgreSQL.
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64)
# A searching bot spends its budget (RUMMY_BOT_BUDGET_MS, 150 ms) and a little more.
BOT_BUCKETS = (0.001, 0.005, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.5)


class _Inert:
    """What `M` holds while metrics are off: every call counts nothing."""

    def inc(self, amount: float = 1) -> None:
        pass

    def observe(self, amount: float) -> None:
        pass

    def time(self) -> _Inert:
        return self

    def __getitem__(self, _key: Any) -> _Inert:  # a nested label's children too
        return self

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        pass


INERT = _Inert()


class Children(dict[Any, Any]):
    """Label values -> the metric's child, bound on first use and kept: a dict read per
    count. `depth` 2 nests one level per label (`children[a][b]`), so no tuple is built.
    With no metric (off), every key gives the inert stand-in."""

    def __init__(self, metric: Any = None, depth: int = 1, bound: tuple[str, ...] = ()) -> None:
        super().__init__()
        self._metric, self._depth, self._bound = metric, depth, bound

    def __missing__(self, key: Any) -> Any:
        if self._metric is None:
            child: Any = INERT
        elif self._depth > 1:
            child = Children(self._metric, self._depth - 1, (*self._bound, str(key)))
        else:
            child = self._metric.labels(*self._bound, str(key))
        self[key] = child
        return child


class Instruments:
    """The process's instruments; `enable()` makes them count."""

    def __init__(self) -> None:
        self.on = False
        self._set_inert()

    def _set_inert(self) -> None:
        self.accepted: Children = Children()  # [entry kind][variant]
        self.refused: Children = Children()  # [variant][reason]
        self.rooms_created: Children = Children()  # [variant][mode]
        self.hands: Children = Children()  # [variant]
        self.matches: Children = Children()  # [variant]
        self.responses: Children = Children()  # [status]
        self.errors: Children = Children()  # [code]
        self.socket_closes: Children = Children()  # [code]
        self.bot_seconds: Children = Children()  # [bot]
        self.rate_limited: Children = Children()  # [rate]
        self.commit_seconds: Any = INERT
        self.commit_batch: Any = INERT
        self.handshakes_refused: Any = INERT
        self.hub_published: Any = INERT
        self.hub_received: Any = INERT
        self.hub_dropped: Any = INERT

    def enable(self) -> None:
        """Create the metrics (once per process) and count from now on."""
        if self.on:
            return
        from prometheus_client import Counter, Histogram, disable_created_metrics

        disable_created_metrics()  # type: ignore[no-untyped-call]  # no `_created` series

        def counter(name: str, text: str, *labels: str) -> Any:
            return Counter(f"rummy_{name}", text, labels)

        moves = counter("moves_accepted", "Moves committed (players', bots', timer's)", "variant")
        votes = counter("votes_accepted", "Votes committed", "variant")
        self.accepted = Children()
        self.accepted["move"] = Children(moves)
        self.accepted["vote"] = Children(votes)
        self.refused = Children(
            counter("moves_refused", "Moves refused", "variant", "reason"), depth=2
        )
        self.rooms_created = Children(
            counter("rooms_created", "Rooms created here", "variant", "mode"), depth=2
        )
        self.hands = Children(counter("hands_finished", "Hands ended", "variant"))
        self.matches = Children(counter("matches_finished", "Matches ended", "variant"))
        self.responses = Children(counter("http_responses", "HTTP answers", "status"))
        self.errors = Children(counter("errors", "API errors answered (REST, frames)", "code"))
        self.socket_closes = Children(
            counter("socket_closes", "Websocket closes the server sent", "code")
        )
        self.rate_limited = Children(counter("rate_limited", "Requests over a rate", "rate"))
        self.bot_seconds = Children(
            Histogram(
                "rummy_bot_decision_seconds", "A computer turn's decision", ["bot"],
                buckets=BOT_BUCKETS,
            )
        )  # fmt: skip
        self.commit_seconds = Histogram(
            "rummy_commit_seconds", "A group commit's transaction", buckets=COMMIT_BUCKETS
        )
        self.commit_batch = Histogram(
            "rummy_commit_batch_size", "Entries in one group commit", buckets=BATCH_BUCKETS
        )
        self.handshakes_refused = counter("handshakes_refused", "Sockets refused: storm (503)")
        self.hub_published = counter("hub_published", "Events sent to Redis")
        self.hub_received = counter("hub_received", "Events from other processes")
        self.hub_dropped = counter("hub_dropped", "Events never sent: Redis behind or away")
        for variant in VARIANTS:  # bound now: the first moves pay no binding
            self.accepted["move"][variant]
            self.accepted["vote"][variant]
        self.on = True


M = Instruments()


class _Live:
    """What a scrape reads from the running app: rooms and sockets here."""

    def __init__(self) -> None:
        self.fanout: Any = None
        self.service: Any = None

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        if self.fanout is None or self.service is None:
            return
        # Read in the scrape's thread while the event loop runs: list() copies each dict
        # in one step under the GIL, so no loop turn can change it halfway.
        audiences = list(self.fanout.audiences())
        seats = spectators = 0
        for audience in audiences:
            members = list(audience.members.values())
            spectators += members.count(None)
            seats += len(members) - members.count(None)
        yield GaugeMetricFamily("rummy_rooms_live", "Rooms with a socket here", len(audiences))
        cached = len(self.service.snapshots.rooms())
        yield GaugeMetricFamily("rummy_rooms_cached", "Rooms cached here", cached)
        sockets = GaugeMetricFamily("rummy_sockets_open", "Open websockets", labels=["kind"])
        sockets.add_metric(["seat"], seats)
        sockets.add_metric(["spectator"], spectators)
        yield sockets


_live = _Live()


def parse_address(address: str) -> tuple[str, int]:
    """`host:port` (or `[v6]:port`, or a bare port on loopback) as (host, port).

    >>> parse_address("127.0.0.1:9464"), parse_address("[::1]:9464"), parse_address("9464")
    (('127.0.0.1', 9464), ('::1', 9464), ('127.0.0.1', 9464))
    """
    host, sep, port = address.rpartition(":")
    if not sep:
        return "127.0.0.1", int(port)
    return host.strip("[]") or "127.0.0.1", int(port)


def start(settings: Any, fanout: Any, service: Any) -> Callable[[], None]:
    """Serve /metrics on `RUMMY_METRICS_ADDRESS` (a thread of the library's); returns its
    stop. Unset: nothing runs and nothing counts."""
    if not settings.metrics_address:
        return lambda: None
    from prometheus_client import REGISTRY

    if not M.on:  # once per process
        REGISTRY.register(_live)
        M.enable()
    _live.fanout, _live.service = fanout, service
    host, port = parse_address(settings.metrics_address)
    server, thread = _serve(host, port, max(1, settings.metrics_ports))

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(5)

    return stop


def _serve(host: str, port: int, ports: int) -> tuple[Any, Any]:
    """The library's HTTP server on the first free port of `port` .. `port + ports - 1`."""
    from prometheus_client import start_http_server

    for at in range(port, port + ports):
        try:
            server, thread = start_http_server(at, host)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE and at + 1 < port + ports:
                continue  # a sibling worker's: the next one
            raise OSError(exc.errno, f"metrics on {host}:{at}: {exc.strerror}") from None
        log.info("metrics on http://%s:%d/metrics", host, at)
        return server, thread
    raise AssertionError("unreachable")


class HttpStatuses:
    """Pure-ASGI middleware counting HTTP answers by status (outermost, so the guards'
    refusals count too). Websockets pass untouched: their frames are not wrapped."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def counting_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                M.responses[message["status"]].inc()
            await send(message)

        await self.app(scope, receive, counting_send)


def install(app: Any, settings: Any) -> None:
    """Count the app's HTTP answers when metrics are on (call it last: outermost)."""
    if settings.metrics_address:
        app.add_middleware(HttpStatuses)


def hand_ended(variant: str, phase: str) -> None:
    """Count a hand's end, and the match's when it ended with it."""
    M.hands[variant].inc()
    if phase == "match_over":
        M.matches[variant].inc()


def refused(room: Any, code: str) -> None:
    """Count a move refused with `code` in `room` (a cached Snapshot, None if not cached)."""
    M.refused[room.variant if room is not None else "unknown"][code].inc()
