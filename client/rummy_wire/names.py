"""Player names: what a seat (and a challenge's invitation) may be called.

A name is shown to every seat and spectator, so it follows the one text policy
(rummy_wire/textpolicy.py, docs/api.md v1.3): no control or format character (a joiner only in
context), no lone surrogate, no stacked marks, nothing that renders as nothing, at most
`MAX_NAME` code points. A name that is empty once trimmed counts as none: the route gives
the default ("Player 1"), as before v1.3.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from rummy_wire.textpolicy import check_text

MAX_NAME = 40


def _policy(name: str) -> str:
    if not name.strip():
        return ""  # no name: the route's default
    return check_text(name, MAX_NAME, "a name")


Name = Annotated[str, Field(max_length=MAX_NAME), AfterValidator(_policy)]
