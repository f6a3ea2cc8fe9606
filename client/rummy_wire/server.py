"""What a server says about itself (docs/api.md, "Routes"): whether it can serve."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class Health(BaseModel):
    """`GET /healthz`: the database answers and this process's key opens its rooms (else
    503 `unavailable`)."""

    status: Literal["ok"]
