"""Challenges (docs/api.md v1.2): two friends play the same deals, each against the computer.

A challenge is a match seed and a table plan (variant, players, the bot level of each
seat). Every entry is a computer room made from that seed, with the caller in seat 0 and
the same levels in the same seats: `rules.new_game` derives every hand's seed from the
match seed and the hand's number (rules/shuffle.py), so hand n of every entry deals the
same hands, discard and stock, and its reshuffles too. The seed is never stored: it is
derived from the challenge id under the server's key (app/social/keys.py).

What keeps it fair, and what cannot: the cards are the same, and so are the bots' levels;
the bots' choices are not, because they answer what each player did, and a game that has
gone another way gives them other things to answer. Deals stay secret until each room's
own hand is over: challenge rooms have no spectators, their logs need their seat's token,
and the comparison lists only finished hands, with points and winners, never cards. An
entry starts only from an invitation, once (app/social/invites.py, docs/api.md v1.3), and is
listed from its start, finished or not, under its invitation's name: a player who throws
an entry away to learn the deals is seen doing it.
"""

from __future__ import annotations

import json
import secrets

from pydantic import BaseModel

from app.errors import AppError, NotFound
from app.persist.rows import ChallengePlan, EntryRow
from app.persist.social_tables import Challenge
from app.rooms.service import RoomService
from app.rooms.setup import lobby_seats, planned_room, seat_bots, table_players
from app.social.invites import Invites, check_owner, invite_hash, new_invite_code, owner_secret
from app.social.keys import derive
from rummy_wire.friends import ChallengeResult, Entry, EntryHand


class ChallengeNotFound(NotFound):
    code = "challenge_not_found"


class Seated(BaseModel):
    challenge: str
    room: str
    seat: int
    token: str
    owner: str | None = None  # the challenge's creator only
    invite: str | None = None


class Challenges:
    def __init__(self, service: RoomService) -> None:
        self._service = service
        self._store = service.store
        self.invites = Invites(service.store)

    async def create(
        self, variant: str, players: int | None, bots: dict[str, str], name: str, invite_name: str
    ) -> Seated:
        """A new challenge, its first entry (the caller's), its owner secret and its first
        invitation, named `invite_name`."""
        players = table_players(variant, players, None)
        levels = {str(seat): level for seat, level in seat_bots("computer", players, bots).items()}
        challenge = secrets.token_urlsafe(9)
        room, token = await self._open(challenge, variant, levels, name)
        invite = new_invite_code()
        plan = ChallengePlan(
            challenge=challenge,
            room=room,
            variant=variant,
            players=players,
            bots=json.dumps(levels),
            now=self._service.clock(),
            name=name,
            invite_hash=invite_hash(invite),
            invite_name=invite_name,
        )
        await self._store.add_challenge(plan)
        owner = owner_secret(self._service.settings, challenge)
        return Seated(
            challenge=challenge, room=room, seat=0, token=token, owner=owner, invite=invite
        )

    async def invite(self, challenge: str, owner: str | None, name: str) -> str:
        """A new invitation to `challenge` for its owner. Raises ChallengeNotFound,
        Unauthorized, Forbidden, TooManyInvites."""
        await self._find(challenge)
        check_owner(self._service.settings, challenge, owner)
        return await self.invites.make(challenge, name, self._service.clock())

    async def play(self, challenge: str, name: str, invite: str | None) -> Seated:
        """Another entry of `challenge` from invitation `invite`: the same deals, the same
        bots. Raises ChallengeNotFound, Forbidden (no or an unknown invitation),
        InviteSpent."""
        found = await self._find(challenge)
        levels = json.loads(found.bots)
        code_hash, invite_name = await self.invites.spend(challenge, invite, self._service.clock())
        try:
            room, token = await self._open(challenge, found.variant, levels, name)
            await self._store.add_entry(challenge, room, name, invite_name)
        except Exception:
            await self.invites.unspend(code_hash)  # no entry started: the link still works
            raise
        return Seated(challenge=challenge, room=room, seat=0, token=token)

    async def _open(
        self, challenge: str, variant: str, levels: dict[str, str], name: str
    ) -> tuple[str, str]:
        players = len(levels) + 1
        chosen = {int(seat): level for seat, level in levels.items()}
        seats, tokens = lobby_seats("computer", players, name, chosen)
        room = planned_room(
            self._service.clock(),
            variant=variant,
            mode="computer",
            seats=seats,
            match_seed=derive(self._service.settings, "challenge-seed", challenge),
            spectators=False,
        )
        await self._service.open(room)
        assert tokens[0] is not None
        return room.id, tokens[0]

    async def _find(self, challenge: str) -> Challenge:
        found = await self._store.challenge(challenge)
        if found is None:
            raise ChallengeNotFound(f"no challenge {challenge}")
        return found

    async def result(self, challenge: str) -> ChallengeResult:
        """Every entry side by side, from its start, finished or not: only hands that are
        over, points and winners only."""
        found = await self._find(challenge)
        entries = []
        for row in await self._store.entries(challenge):
            try:
                entries.append(await self._entry(row))
            except AppError:
                continue  # its room expired meanwhile
        return ChallengeResult(
            challenge=challenge,
            variant=found.variant,
            players=found.players,
            bots=json.loads(found.bots),
            entries=entries,
        )

    async def _entry(self, row: EntryRow) -> Entry:
        snap = await self._service.current(row.room)
        hands = [
            EntryHand(hand=h.hand, points=list(h.result.points), winner=h.result.winner)
            for h in await self._service.hand_log(row.room)
            if h.result is not None
        ]
        winners = snap.state.match_winner
        return Entry(
            name=row.name,
            invite_name=row.invite_name,
            room=row.room,
            finished=snap.state.phase == "match_over",
            hands=hands,
            match_winner=winners[0] if winners else None,
        )
