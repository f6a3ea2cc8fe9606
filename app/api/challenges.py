"""Challenges (docs/api.md, "Friends"): the same deals for friends, each against the
computer; an entry starts only from an invitation, each good for one entry."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.deps import ServiceDep
from app.api.responses import BODY, errors, limited
from app.social.challenges import Seated
from app.social.registry import friends_of
from rummy_wire.friends import (
    ChallengeRequest,
    ChallengeResult,
    ChallengeSeat,
    Invite,
    InviteRequest,
    PlayRequest,
)

router = APIRouter(prefix="/api", tags=["challenges"])

ChallengeId = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the challenge id"),
]


_bearer = HTTPBearer(auto_error=False, description="the challenge's owner secret")


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def _challenge_url(request: Request, challenge: str, invite: str | None) -> str:
    url = f"{_base(request)}/c/{challenge}"
    return f"{url}?invite={invite}" if invite else url


def _answer(request: Request, seated: Seated) -> ChallengeSeat:
    base = _base(request)
    return ChallengeSeat(
        challenge=seated.challenge,
        room=seated.room,
        seat=seated.seat,
        token=seated.token,
        invite_url=f"{base}/r/{seated.room}",
        seat_url=f"{base}/r/{seated.room}#seat={seated.token}",
        challenge_url=_challenge_url(request, seated.challenge, seated.invite),
        owner=seated.owner,
        invite=seated.invite,
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
    challenge's secret seed, with its owner secret and a first invitation. Share
    `challenge_url` (it holds the invitation): one friend plays the same deals; make a link
    for each other friend with POST .../invites."""
    name = body.name or "Player 1"
    challenges = friends_of(service).challenges
    bots = dict[str, str](body.bots)
    seated = await challenges.create(
        body.variant, body.players, bots, name, body.invite_name or "Friend"
    )
    return _answer(request, seated)


@router.post(
    "/challenges/{challenge}/invites",
    status_code=201,
    response_model=Invite,
    responses=errors(
        401,
        403,
        404,
        409,
        *BODY,
        e401="No owner secret (`unauthorized`)",
        e403="Not this challenge's owner secret (`forbidden`)",
        e404="No such challenge (`challenge_not_found`)",
        e409="The challenge has 100 invitations already (`too_many_invites`)",
    ),
)
async def invite_to_challenge(
    challenge: ChallengeId,
    service: ServiceDep,
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    body: InviteRequest | None = None,
) -> Invite:
    """A new invitation, good for one entry, for the holder of the owner secret."""
    name = (body.name if body else "") or "Friend"
    owner = credentials.credentials if credentials else None
    code = await friends_of(service).challenges.invite(challenge, owner, name)
    return Invite(invite=code, name=name, url=_challenge_url(request, challenge, code))


@router.post(
    "/challenges/{challenge}/play",
    status_code=201,
    response_model=ChallengeSeat,
    responses={
        **limited(201),
        **errors(
            403,
            404,
            409,
            *BODY,
            e403="No or an unknown invitation (`forbidden`)",
            e404="No such challenge (`challenge_not_found`)",
            e409="The invitation was used already (`invite_spent`)",
        ),
    },
)
async def play_challenge(
    challenge: ChallengeId, service: ServiceDep, request: Request, body: PlayRequest | None = None
) -> ChallengeSeat:
    """A new computer room for an invited player with the same deals (every hand's hands,
    discard and stock) and the same bot levels in the same seats; the caller in seat 0.
    Each invitation starts one entry: the same one again is 409 `invite_spent`."""
    name = (body.name if body else "") or "Player 1"
    invite = body.invite if body else None
    return _answer(request, await friends_of(service).challenges.play(challenge, name, invite))


@router.get("/challenges/{challenge}", response_model=ChallengeResult, responses=errors(404))
async def get_challenge(challenge: ChallengeId, service: ServiceDep) -> ChallengeResult:
    """Every entry from the moment it starts, finished or not, with its invitation's name,
    side by side hand by hand: points and who went out, finished hands only."""
    return await friends_of(service).challenges.result(challenge)
