"""Challenges (docs/api.md, "Friends"): the same deals for two friends, each against the
computer."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request

from app.api.deps import ServiceDep
from app.api.responses import BODY, errors, limited
from app.social.challenges import Seated
from app.social.registry import friends_of
from rummy_wire.friends import ChallengeRequest, ChallengeResult, ChallengeSeat, PlayRequest

router = APIRouter(prefix="/api", tags=["challenges"])

ChallengeId = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the challenge id"),
]


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
