"""Friends at the table (docs/api.md v1.2): chat, rematch, challenges.

Kept apart from the move path: these modules read rooms through the room service and write
only their own tables (app/persist/social_tables.py), so a chat message never touches a room's
version and a challenge deals through `rules.new_game` like any room.
"""
