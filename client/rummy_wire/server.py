"""What a server says about itself (docs/api.md, "Routes"): whether it can serve, and the
key its match records are signed with."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Health(BaseModel):
    """`GET /healthz`: the database answers and this process's key opens its rooms (else
    503 `unavailable`)."""

    status: Literal["ok"]


class ServerKey(BaseModel):
    """`GET /api/server-key`: what a verifier checks a record's signature with."""

    alg: str = Field(description='always "ed25519"')
    key: str = Field(description="the 32-byte Ed25519 public key, URL-safe base64 without padding")
    id: str = Field(description="the first 16 hex digits of the key's SHA-256: a record's key_id")
