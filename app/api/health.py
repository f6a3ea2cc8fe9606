"""Health check."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from app.deps import GameDep

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: str


@router.get("/healthz", response_model=Health)
async def healthz(game: GameDep) -> Health:
    """200 when the database answers."""
    await game.store.ping()
    return Health(status="ok")
