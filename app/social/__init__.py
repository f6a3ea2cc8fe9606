"""Friends at the table (docs/api.md v1.2): chat, rematch, challenges.

Kept apart from the move path: these modules read rooms through the room service, make
them with its one factory (app/rooms/setup.py `planned_room`), and read and write their own
rows only through the store (`Store`'s social methods, app/persist/social_sql.py), so a chat
message never touches a room's version and opens no database session of its own.
"""
