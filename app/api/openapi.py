"""What the OpenAPI document takes from us rather than from FastAPI's defaults: operation ids
and summaries.

The schemas need no correction here: the models say themselves what is required
(`rules.SENT_WHOLE`, the moves' `type` tag) and which enums are shared (`rules.End`,
`rummy_wire.VariantName`, client/rummy_wire/choices.py)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute

# What each operation does, as a person would say it (FastAPI's default is the function's
# name title-cased: "Post Move"). A route missing here gets its docstring's first clause.
SUMMARIES = {
    "list_variants": "List the rule sets",
    "create_room": "Create a room",
    "join_room": "Take a room's next free seat",
    "get_room": "Read a room's public summary",
    "get_state": "Read your seat's view",
    "get_log": "Read the finished hands",
    "post_move": "Make a move",
    "cast_vote": "Vote for the next hand or a new match",
    "get_recent": "Read the moves since a version",
    "get_hint": "Ask the computer for a hint",
    "get_review": "Review your decisions of a finished hand",
    "watch": "Watch a room as a spectator",
    "get_replay": "Replay a finished hand step by step",
    "replay_record": "Replay a hand of a record or log you send",
    "get_record": "Download the match record",
    "stand_in": "Let a bot play a seat whose owner is away",
    "post_chat": "Post a chat message",
    "get_chat": "Read the chat",
    "rematch": "Ask for a rematch",
    "create_challenge": "Challenge a friend to the same deals",
    "invite_to_challenge": "Invite a player to a challenge",
    "play_challenge": "Play a challenge's deals",
    "get_challenge": "Compare a challenge's entries",
    "get_server_key": "Read the key that signs match records",
    "get_health": "Check that the server can serve",
}


def operation_id(route: APIRoute) -> str:
    """A route's operation id is its handler's name, a verb a person would write
    (`post_move`, `get_state`): generated clients name their functions after it, where
    FastAPI's default adds the path and the method (`post_move_api_rooms_room_moves_post`).
    tests/kit/openapi.py holds the list, which the schema test and the client's check."""
    return route.name


def summarize(app: FastAPI) -> None:
    """Give every operation of `app`'s OpenAPI document a summary a person can read (the
    document is made on first use, from routes FastAPI may include lazily: so it is the
    document that is changed, once, not the routes)."""
    make = app.openapi

    def document() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = make()
            for methods in schema.get("paths", {}).values():
                for operation in methods.values():
                    name = operation.get("operationId", "")
                    if operation.get("summary") == name.replace("_", " ").title():
                        text = operation.get("description", "")
                        operation["summary"] = SUMMARIES.get(name) or _first_clause(text)
        return app.openapi_schema or make()

    app.openapi = document  # type: ignore[method-assign]


def _first_clause(text: str) -> str:
    """The docstring's words up to its first stop.

    >>> _first_clause("Vote `next_hand`; it acts once every seat voted.")
    'Vote `next_hand`'
    """
    head = " ".join(text.split())
    for stop in (". ", "; ", ": "):
        head = head.split(stop)[0]
    return head.rstrip(".")
