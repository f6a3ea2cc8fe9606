"""Challenges (API.md v1.2): the same deals for two friends, each against the computer."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

import rules
from app.api.deps import ServiceDep
from app.api.names import Name
from app.api.responses import BODY, errors, limited
from app.choices import BotName
from app.social.challenges import ChallengeResult, Seated
from app.social.registry import friends_of

router = APIRouter(prefix="/api", tags=["challenges"])

ChallengeId = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the challenge id"),
]


class ChallengeRequest(BaseModel):
    variant: rules.VariantName = "classic"
    players: int | None = Field(
        None, ge=2, le=8, strict=True, description="default: the variant's fewest"
    )
    bots: dict[str, BotName] = Field(
        default_factory=dict,
        max_length=8,
        description='seat number -> bot level, e.g. {"1": "hard"}; unnamed seats the default',
    )
    name: Name = "Player 1"


class PlayRequest(BaseModel):
    name: Name = "Player 1"


class ChallengeSeat(BaseModel):
    challenge: str
    room: str
    seat: int
    token: str
    invite_url: str
    seat_url: str
    challenge_url: str


def _answer(request: Request, seated: Seated) -> ChallengeSeat:
    base = str(request.base_url).rstrip("/")
    return ChallengeSeat(
        challenge=seated.challenge,
        room=seated.room,
        seat=seated.seat,
        token=seated.token,
        invite_url=f"{base}/r/{seated.room}",
        seat_url=f"{base}/r/{seated.room}#seat={seated.token}",
        challenge_url=f"{base}/c/{seated.challenge}",
    )


@router.post(
    "/challenges",
    status_code=201,
    response_model=ChallengeSeat,
    responses={**limited(201), **errors(*BODY)},
)
async def create_challenge(
    body: ChallengeRequest, service: ServiceDep, request: Request
) -> ChallengeSeat:
    """A challenge and the caller's computer room (seat 0), its deals drawn from the
    challenge's secret seed. Share `challenge_url`: a friend plays the same deals."""
    name = body.name.strip() or "Player 1"
    challenges = friends_of(service).challenges
    bots = dict[str, str](body.bots)
    return _answer(request, await challenges.create(body.variant, body.players, bots, name))


@router.post(
    "/challenges/{challenge}/play",
    status_code=201,
    response_model=ChallengeSeat,
    responses={**limited(201), **errors(404, *BODY)},
)
async def play_challenge(
    challenge: ChallengeId, service: ServiceDep, request: Request, body: PlayRequest | None = None
) -> ChallengeSeat:
    """A new computer room for another player with the same deals (every hand's hands,
    discard and stock) and the same bot levels in the same seats; the caller in seat 0."""
    name = (body.name.strip() if body else "") or "Player 1"
    return _answer(request, await friends_of(service).challenges.play(challenge, name))


@router.get("/challenges/{challenge}", response_model=ChallengeResult, responses=errors(404))
async def get_challenge(challenge: ChallengeId, service: ServiceDep) -> ChallengeResult:
    """Every entry side by side, hand by hand: points and who went out, finished hands only."""
    return await friends_of(service).challenges.result(challenge)
