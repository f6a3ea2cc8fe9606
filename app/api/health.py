"""Health check: what a load balancer asks before sending this process traffic."""

from __future__ import annotations

import logging

from fastapi import APIRouter

from app.api.deps import ServiceDep
from app.errors import Unavailable
from rummy_wire.errors import ErrorBody
from rummy_wire.server import Health

router = APIRouter(tags=["health"])
log = logging.getLogger("rummy.health")


@router.get(
    "/healthz",
    response_model=Health,
    responses={503: {"model": ErrorBody, "description": "The database does not answer"}},
)
async def get_health(service: ServiceDep) -> Health:
    """200 when the database answers, 503 (`unavailable`) when it does not."""
    try:
        await service.store.ping()
    except Exception as exc:
        # The driver's message may name the database's host and user: logged, not answered.
        log.warning("health check: the database does not answer: %s", type(exc).__name__)
        raise Unavailable("the database does not answer") from None
    return Health(status="ok")
