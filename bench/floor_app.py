"""The floor for `bench/load.py --floor`: the cheapest server that still persists a move.

One FastAPI endpoint validates a small JSON body and writes one SQLite row per request
through SQLAlchemy async, on a pool of one connection in WAL mode: the same stack and the
same per-move write our server does, minus the rules, the room lock and the broadcast. Our
move rate divided by this rate says how much of the budget the game itself spends.

Run it on its own (the bench starts it as a separate process):

    .venv/bin/python bench/floor_app.py --port 8765 --db /tmp/floor.db
"""

from __future__ import annotations

import argparse
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn
from fastapi import FastAPI, Request
from pydantic import BaseModel, Field
from sqlalchemy import Integer, String, event
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Row(Base):
    __tablename__ = "floor_rows"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[str] = mapped_column(String(32))
    version: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(String)


class WriteIn(BaseModel):
    room: str = Field(min_length=1, max_length=32)
    version: int = Field(ge=0, le=2**31)
    move: dict[str, str]


class WriteOut(BaseModel):
    id: int
    version: int


def create_app(db_path: str) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_async_engine(f"sqlite+aiosqlite:///{db_path}", pool_size=1, max_overflow=0)

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            # The durability the game server has (app/db.py): WAL, and a commit waits for it.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()

        async with engine.begin() as conn:
            await conn.run_sync(Base.metadata.create_all)
        app.state.sessions = async_sessionmaker(engine, expire_on_commit=False)
        yield
        await engine.dispose()

    app = FastAPI(lifespan=lifespan)

    @app.post("/write")
    async def write(body: WriteIn, request: Request) -> WriteOut:
        """Validate, write one row, commit, answer: one persisted move's worth of work."""
        async with request.app.state.sessions() as session:
            row = Row(room=body.room, version=body.version, body=str(body.move))
            session.add(row)
            await session.commit()
            return WriteOut(id=row.id, version=body.version + 1)

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True, help="SQLite file (created; removed first)")
    args = parser.parse_args()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(args.db + suffix):
            os.remove(args.db + suffix)
    uvicorn.run(
        create_app(args.db),
        host=args.host,
        port=args.port,
        loop="uvloop",
        http="httptools",
        log_level="warning",
        access_log=False,
    )


if __name__ == "__main__":
    main()
