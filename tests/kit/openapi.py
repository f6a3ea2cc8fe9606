"""The server's API as /openapi.json lists it: every operation by method and path, with its
operation id (what the schema test and the generated client's test both check)."""

from __future__ import annotations

from typing import Any


def app_schema() -> dict[str, Any]:
    """The app's /openapi.json, built without serving (the hostile tests' list of places)."""
    from app.config import Settings
    from app.main import create_app

    return create_app(Settings(database_url="sqlite+aiosqlite:///:memory:")).openapi()


# Every operation of /openapi.json, by method and path. A new route adds its line here: its
# handler's name is its operation id (app/api/openapi.py), which generated clients call.
OPERATIONS: dict[tuple[str, str], str] = {
    ("get", "/api/variants"): "list_variants",
    ("post", "/api/rooms"): "create_room",
    ("post", "/api/rooms/{room}/join"): "join_room",
    ("get", "/api/rooms/{room}"): "get_room",
    ("get", "/api/rooms/{room}/state"): "get_state",
    ("get", "/api/rooms/{room}/log"): "get_log",
    ("post", "/api/rooms/{room}/moves"): "post_move",
    ("post", "/api/rooms/{room}/votes"): "cast_vote",
    ("get", "/api/rooms/{room}/recent"): "get_recent",
    ("get", "/api/rooms/{room}/hint"): "get_hint",
    ("get", "/api/rooms/{room}/review"): "get_review",
    ("get", "/api/rooms/{room}/watch"): "watch",
    ("post", "/api/rooms/{room}/stand-in"): "stand_in",
    ("get", "/api/rooms/{room}/replay"): "get_replay",
    ("post", "/api/replays"): "replay_record",
    ("get", "/api/rooms/{room}/record"): "get_record",
    ("post", "/api/rooms/{room}/chat"): "post_chat",
    ("get", "/api/rooms/{room}/chat"): "get_chat",
    ("post", "/api/rooms/{room}/rematch"): "rematch",
    ("post", "/api/challenges"): "create_challenge",
    ("post", "/api/challenges/{challenge}/invites"): "invite_to_challenge",
    ("post", "/api/challenges/{challenge}/play"): "play_challenge",
    ("get", "/api/challenges/{challenge}"): "get_challenge",
    ("get", "/api/server-key"): "get_server_key",
    ("get", "/healthz"): "get_health",
}
