"""The server's public key (docs/api.md v1.3 "Signed match records"): what a verifier checks a
record's signature with (`rummy verify --server URL`, web/verify.html)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.records.signing import RecordSigner
from rummy_wire import ServerKey

router = APIRouter(prefix="/api", tags=["replays"])


def signer_of(request: Request) -> RecordSigner:
    signer: RecordSigner = request.app.state.signer
    return signer


@router.get("/server-key", response_model=ServerKey)
async def get_server_key(request: Request) -> ServerKey:
    """The key every match record of this server is signed with: the same for every process
    of one database."""
    return ServerKey(**signer_of(request).server_key())
