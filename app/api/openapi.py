"""What the OpenAPI document takes from us rather than from FastAPI's defaults: operation ids.

The schemas need no correction here: the models say themselves what is required
(`rules.SENT_WHOLE`, the moves' `type` tag) and which enums are shared (`rules.End`,
`rules.VariantName`, app/choices.py)."""

from __future__ import annotations

from fastapi.routing import APIRoute


def operation_id(route: APIRoute) -> str:
    """A route's operation id is its handler's name, a verb a person would write
    (`post_move`, `get_state`): generated clients name their functions after it, where
    FastAPI's default adds the path and the method (`post_move_api_rooms_room_moves_post`).
    tests/app/test_openapi_ids.py holds the list."""
    return route.name
