"""The friends' features of one running app, found from its room service.

The websocket's frame handler has the room service in hand, not the app; the lifespan
attaches the features to the service they serve (`attach`), and both the routes and the
socket find them with `friends_of`.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

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


def attach(service: RoomService) -> Friends:
    """The friends' features of `service`: their rows are its store's (app/persist/)."""
    rows = RoomSocialRows(service.store)
    friends = Friends(
        chat=Chat(service, rows),
        rows=rows,
        rematches=Rematches(service, rows),
        challenges=Challenges(service),
    )
    _ATTACHED[service] = friends
    return friends


def friends_of(service: RoomService) -> Friends:
    return _ATTACHED[service]
