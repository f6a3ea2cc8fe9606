"""Before serving: does this process's key open the database's sealed rooms?

A server with the wrong `RUMMY_SECRET_KEY`, or whose key file was deleted beside a database
of sealed rows (a new key would be made that opens none of them), would say 200 on /healthz
and answer every existing room with a 500. So the start stops with one line that says what
to do, before the process takes any traffic (`rummy serve` checks before uvicorn starts;
the app's lifespan checks again for servers started another way, so /healthz never
answers for a process that cannot read its rooms).

One sealed room is opened: every row is sealed under the one key of the database, so one
that opens stands for all of them, at the cost of one indexed read per start.
"""

from __future__ import annotations

from sqlalchemy import inspect, select
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.models import Room
from app.persist.sealing import PREFIX, SealError, cipher_for, key_file


class KeyMismatch(RuntimeError):
    """This process's key cannot open the rooms the database already holds."""


async def _one_sealed_room(engine: AsyncEngine) -> tuple[str, str] | None:
    """(room id, sealed state) of some room, or None when there is none (or no table yet)."""

    def has_rooms(connection: Connection) -> bool:
        return inspect(connection).has_table(Room.__tablename__)

    async with engine.connect() as connection:
        if not await connection.run_sync(has_rooms):
            return None
        query = select(Room.id, Room.state).where(Room.state.like(f"{PREFIX}%")).limit(1)
        row = (await connection.execute(query)).first()
    return None if row is None else (str(row[0]), str(row[1]))


async def check_key(engine: AsyncEngine, settings: Settings) -> None:
    """Raises KeyMismatch (one line, no secret in it) unless the key opens a sealed room.

    Raises:
        KeyMismatch: the key is malformed, or its file cannot be read or made (a
            directory, say: that was a 38-line traceback), or is missing beside sealed
            rows, or it opens none of them.
    """
    sample = await _one_sealed_room(engine)
    where = "RUMMY_SECRET_KEY"
    if settings.secret_key is None:
        path = key_file(settings)
        if sample is not None and path is not None and not path.exists():
            raise KeyMismatch(
                f"the key file {path} is missing but the database holds sealed rooms: "
                "restore that file or set RUMMY_SECRET_KEY to the key they were sealed with "
                "(a new key would open none of them)"
            )
        where = f"the key file {path}"
    try:
        cipher = cipher_for(settings)
    except ValueError as exc:
        raise KeyMismatch(f"{where}: {exc}") from None
    except OSError as exc:  # a directory, no permission, a parent that is a file: one line
        reason = exc.strerror or type(exc).__name__
        raise KeyMismatch(f"{where} cannot be read or made: {reason}") from None
    if sample is None:
        return  # a new database: any key (a new key file) will do
    room_id, sealed = sample
    try:
        cipher.open(cipher.state_context(room_id), sealed)
    except SealError:
        raise KeyMismatch(
            f"{where} does not open this database's sealed rooms: start with the key "
            "they were sealed with (every process of one database needs the same key)"
        ) from None
