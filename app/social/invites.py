"""A challenge's invitations (docs/api.md v1.3): each good for one entry, made by the holder of
the challenge's owner secret.

Every entry of a challenge is dealt the same cards, so a throw-away entry played to the end
of hand 0 would show, in its own log, both starting hands and the whole stock in order. An
entry therefore starts only from an invitation, once; the comparison lists every entry from
its start under its invitation's name, so a scout's abandoned entry is seen.

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

from app.config import Settings
from app.errors import AppError, Forbidden, Unauthorized
from app.persist import Store
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


def invite_hash(code: str) -> str:
    """What is stored of an invitation's code."""
    return hashlib.sha256(code.encode("utf-8", "replace")).hexdigest()


def new_invite_code() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


class Invites:
    def __init__(self, store: Store) -> None:
        self._store = store

    async def make(self, challenge: str, name: str, now: datetime) -> str:
        """A new invitation named `name`; returns its code (shown once, never stored).

        Raises TooManyInvites."""
        code = new_invite_code()
        if not await self._store.add_invite(challenge, invite_hash(code), name, now, MAX_INVITES):
            raise TooManyInvites(f"a challenge has at most {MAX_INVITES} invitations")
        return code

    async def spend(self, challenge: str, code: str | None, now: datetime) -> tuple[str, str]:
        """Spend invitation `code` of `challenge`: (its hash, its name).

        Raises Forbidden (no or an unknown invitation) or InviteSpent."""
        if not code or len(code) > MAX_CODE:
            raise Forbidden("a challenge is played by invitation: ask its owner for a link")
        code_hash = invite_hash(code)
        found = await self._store.invite(code_hash)
        if found is None or found[0] != challenge:
            raise Forbidden("no such invitation to this challenge")
        if not await self._store.spend_invite(challenge, code_hash, now):
            raise InviteSpent(
                "this invitation was used already: each is good for one entry; ask the "
                "challenge's owner for another"
            )
        return code_hash, found[1]

    async def unspend(self, code_hash: str) -> None:
        """Give back an invitation whose entry could not start (its room was not made)."""
        await self._store.unspend_invite(code_hash)
