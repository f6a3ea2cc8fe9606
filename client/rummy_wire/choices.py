"""The closed sets of names the API takes and shows, each a named enum in JSON Schema (one
OpenAPI component, so generated clients get one enum class, and a typo fails before it is
sent): modes, bot levels, room statuses and error codes. The variants' names are in
rummy_wire.variants, a move's in rummy_wire.moves."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypeAliasType

# POST /api/rooms `mode` (docs/api.md): other seats join by invite, one device holds every seat, or
# the server's bots play the other seats.
Mode = TypeAliasType("Mode", Literal["online", "local", "computer"])

# The browser's levels (bots.LEVELS): a computer seat's, and a stand-in's.
BotLevel = TypeAliasType("BotLevel", Literal["easy", "medium", "hard"])

# What a computer seat may be given: a level or a strategy (bots.STRATEGY_NAMES).
BotName = TypeAliasType("BotName", Literal["easy", "medium", "hard", "random", "greedy", "expert"])

RoomStatus = TypeAliasType("RoomStatus", Literal["waiting", "playing", "hand_over", "match_over"])

# Every code the server sends, REST and websocket alike, each with its meaning in
# docs/api.md's table: one named enum in /openapi.json and /asyncapi.json, so a client may
# switch over it. The server's tests fail when it can send a code that is not here or not
# in docs/api.md.
ErrorCode = TypeAliasType(
    "ErrorCode",
    Literal[
        # 401, 403, 404, 405, 408
        "unauthorized",
        "forbidden",
        "room_not_found",
        "challenge_not_found",
        "not_found",
        "method_not_allowed",
        "request_timeout",
        # 409: not now
        "stale_version",
        "not_your_turn",
        "wrong_phase",
        "room_full",
        "seat_present",
        "waiting_for_players",
        "invite_spent",
        "too_many_invites",
        # 410, 413, 415
        "room_expired",
        "payload_too_large",
        "unsupported_media_type",
        # 422: a request or a move that cannot be
        "invalid_request",
        "invalid_text",
        "invalid_record",
        "invalid_move",
        "invalid_setup",
        "invalid_deal",
        "invalid_vote",
        "must_draw_first",
        "already_drawn",
        "nothing_to_draw",
        "card_not_in_hand",
        "invalid_meld",
        "meld_not_found",
        "invalid_layoff",
        "invalid_swap",
        "not_opened",
        "opening_below_51",
        "cannot_discard_drawn_card",
        "must_discard_to_go_out",
        "must_play_joker",
        # 429, 503, and any other refusal
        "rate_limited",
        "unavailable",
        "bad_request",
    ],
)
