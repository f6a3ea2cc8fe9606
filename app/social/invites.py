"""A challenge's invitations (docs/api.md v1.3): each good for one entry, made by the holder of
the challenge's owner secret.

A challenge used to be open to anyone with its link, as often as they liked, every entry
dealt the same cards: a throw-away entry played to the end of hand 0 showed, in its own log,
both starting hands and the whole stock in order, and the next entry was dealt exactly
those. Now an entry starts only from an invitation, once; the comparison lists every entry
from its start under its invitation's name, so a scout's abandoned entry is seen.

- The owner secret is derived from the challenge id under the server key
  (app/social/keys.py): never stored, the same in every process, compared in constant time.
- An invitation's code is 128 random bits; only its SHA-256 is stored. It is spent by one
  UPDATE that finds it unspent (`spent_at IS NULL`), so of two plays racing with the same
  code, across processes too, exactly one starts an entry; the other gets 409
  `invite_spent`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.errors import AppError, Forbidden, Unauthorized
from app.persist.social_tables import ChallengeInvite
from app.social.keys import derive

MAX_INVITES = 100  # per challenge
MAX_CODE = 128  # a longer "code" is no code of ours


class InviteSpent(AppError):
    status = 409
    code = "invite_spent"


class TooManyInvites(AppError):
    status = 409
    code = "too_many_invites"


def owner_secret(settings: Settings, challenge: str) -> str:
    """The owner secret of `challenge` (256 bits, URL-safe base64)."""
    raw = derive(settings, "challenge-owner", challenge)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def check_owner(settings: Settings, challenge: str, secret: str | None) -> None:
    """Raises Unauthorized without a secret, Forbidden with a wrong one."""
    if not secret:
        raise Unauthorized("send the challenge's owner secret as Authorization: Bearer <owner>")
    expected = owner_secret(settings, challenge).encode()
    if not hmac.compare_digest(expected, secret.encode("utf-8", "replace")):
        raise Forbidden("that is not this challenge's owner secret")


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8", "replace")).hexdigest()


class Invites:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def make(
        self, challenge: str, name: str, now: datetime, session: AsyncSession | None = None
    ) -> str:
        """A new invitation named `name`; returns its code (shown once, never stored).

        Raises TooManyInvites."""
        if session is None:
            async with self._sessions.begin() as own:
                return await self.make(challenge, name, now, own)
        made = await session.scalar(
            select(func.count())
            .select_from(ChallengeInvite)
            .where(ChallengeInvite.challenge_id == challenge)
        )
        if (made or 0) >= MAX_INVITES:
            raise TooManyInvites(f"a challenge has at most {MAX_INVITES} invitations")
        code = secrets.token_urlsafe(16)
        session.add(
            ChallengeInvite(
                code_hash=_hash(code), challenge_id=challenge, name=name, created_at=now
            )
        )
        return code

    async def spend(self, challenge: str, code: str | None, now: datetime) -> tuple[str, str]:
        """Spend invitation `code` of `challenge`: (its hash, its name).

        Raises Forbidden (no or an unknown invitation) or InviteSpent."""
        if not code or len(code) > MAX_CODE:
            raise Forbidden("a challenge is played by invitation: ask its owner for a link")
        code_hash = _hash(code)
        async with self._sessions.begin() as session:
            found = await session.get(ChallengeInvite, code_hash)
            if found is None or found.challenge_id != challenge:
                raise Forbidden("no such invitation to this challenge")
            spent = await session.execute(
                update(ChallengeInvite)
                .where(ChallengeInvite.code_hash == code_hash, ChallengeInvite.spent_at.is_(None))
                .values(spent_at=now)
            )
            if spent.rowcount != 1:  # type: ignore[attr-defined]
                raise InviteSpent(
                    "this invitation was used already: each is good for one entry; ask the "
                    "challenge's owner for another"
                )
            return code_hash, found.name

    async def unspend(self, code_hash: str) -> None:
        """Give back an invitation whose entry could not start (its room was not made)."""
        async with self._sessions.begin() as session:
            await session.execute(
                update(ChallengeInvite)
                .where(ChallengeInvite.code_hash == code_hash)
                .values(spent_at=None)
            )
