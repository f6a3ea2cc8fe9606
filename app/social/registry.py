"""The friends' features of one running app, found from its room service.

The websocket's frame handler has the room service in hand, not the app; the lifespan
attaches the features to the service they serve (`attach`), and both the routes and the
socket find them with `friends_of`.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import create_sessionmaker
from app.persist.sealing import cipher_for
from app.rooms.service import RoomService
from app.social.challenges import Challenges
from app.social.chat import Chat
from app.social.options import RoomSocialRows
from app.social.rematch import Rematches


@dataclass(frozen=True)
class Friends:
    chat: Chat
    rows: RoomSocialRows
    rematches: Rematches
    challenges: Challenges


_ATTACHED: weakref.WeakKeyDictionary[RoomService, Friends] = weakref.WeakKeyDictionary()


def attach(service: RoomService, engine: AsyncEngine) -> Friends:
    sessions = create_sessionmaker(engine)
    rows = RoomSocialRows(sessions)
    cipher = cipher_for(service.settings)  # the key that seals the rooms' states
    friends = Friends(
        chat=Chat(service, sessions, rows, cipher),
        rows=rows,
        rematches=Rematches(service, sessions, rows),
        challenges=Challenges(service, sessions),
    )
    _ATTACHED[service] = friends
    return friends


def friends_of(service: RoomService) -> Friends:
    return _ATTACHED[service]
