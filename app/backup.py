"""`rummy backup PATH` and `rummy restore PATH`: a SQLite database copied while the server
runs, with the key that opens its sealed rooms beside the copy, and put back in place.

The copy is SQLite's online backup API, read under one read transaction held from the first
page step to the last. In WAL mode (the server's) a reader blocks no writer, so moves keep
being committed while it runs, and the copy is the database as it stood when the backup
began: without that transaction every write of the server's between two page steps made the
backup start again from the first page (35 restarts in one copy of a 10 MB file under
steady writes), and under steady play it might never end. The copy is written under a
temporary name and renamed when complete, so a backup's name never holds half a database.

The key (app/persist/sealing.py: RUMMY_SECRET_KEY, or the key file) goes beside the copy as
`secret.key`, where a server started on the copy looks for it; `--no-key` leaves it out for
operators who keep the key elsewhere. `restore` checks that the key opens the backup's
rooms before it replaces anything, and keeps what it replaced as `*.before-restore`.

PostgreSQL has its own tools for this (`pg_dump`, `pg_restore`): docs/operations.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

KEY_NAME = "secret.key"
PG_HINT = (
    "this database is PostgreSQL: back it up with pg_dump and restore it with pg_restore "
    "(docs/operations.md, 'Backups'), and keep RUMMY_SECRET_KEY with the dump"
)


class BackupError(RuntimeError):
    """What went wrong, in one line for the operator."""


def copy_live(source: Path, target: Path, pages: int = 256, pause: float = 0.0) -> int:
    """Copy the SQLite database `source` to `target` (a new file) while others write to it;
    returns the pages copied. `pause` seconds between page steps spread the reads out."""
    if not source.is_file():
        raise BackupError(f"{source}: no such database")
    tmp = target.with_name(f".{target.name}.partial")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=30)  # it only reads
    dst = sqlite3.connect(tmp)
    copied = 0
    try:
        # One read transaction for every step: the copy is the database at this moment,
        # and the server's writes meanwhile (into the WAL) neither wait nor restart it.
        src.execute("BEGIN")
        src.execute("SELECT count(*) FROM sqlite_master").fetchone()

        def progress(_status: int, remaining: int, total: int) -> None:
            nonlocal copied
            copied = total - remaining
            if pause and remaining:
                time.sleep(pause)

        src.backup(dst, pages=pages, progress=progress)
        src.rollback()
        dst.execute("PRAGMA journal_mode=WAL")  # as the server keeps it
        dst.close()
        with open(tmp, "rb+") as file:
            os.fsync(file.fileno())
        os.replace(tmp, target)
    except BaseException:
        dst.close()
        tmp.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    return copied


def server_key(settings: Any) -> str | None:
    """The key of the server these settings describe, as its file holds it (None: none yet)."""
    from app.persist.sealing import key_file

    if settings.secret_key is not None:
        return str(settings.secret_key.get_secret_value()).strip()
    path = key_file(settings)
    if path is None or not path.exists():
        return None
    return path.read_text().strip()


def place_key(key: str, folder: Path) -> Path:
    """Write `key` as `folder/secret.key` (mode 0600); one already there must be the same."""
    path = folder / KEY_NAME
    if path.exists():
        if path.read_text().strip() != key:
            raise BackupError(
                f"{path} holds another key: back up into a folder of its own, or use --no-key"
            )
        return path
    write_key(path, key)
    return path


def write_key(path: Path, key: str) -> None:
    """A new key file, readable by its owner only."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(key + "\n")


def sqlite_path(settings: Any) -> Path | None:
    """The database file of these settings, None when it is not a SQLite file."""
    from sqlalchemy.engine import make_url

    url = make_url(settings.database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database).resolve()


def backup(settings: Any, target: Path, *, key: bool, pages: int, pause: float) -> str:
    """Back up the database of `settings` to `target`; returns what was done, in a line."""
    source = sqlite_path(settings)
    if source is None:
        raise BackupError(PG_HINT)
    if target.is_dir():
        target = target / source.name
    if target.exists():
        raise BackupError(f"{target} exists: give the backup a new name")
    secret = server_key(settings) if key else None
    if key and secret is None:
        raise BackupError("this server has no key yet (no sealed room): use --no-key")
    began = time.monotonic()
    copied = copy_live(source, target, pages, pause)
    done = f"backed up {source} to {target} ({copied} pages, {time.monotonic() - began:.1f} s)"
    if secret is not None:
        done += f"; its key in {place_key(secret, target.parent)}"
    return done


def restore(settings: Any, backup_file: Path, *, force: bool, key_file: Path | None) -> str:
    """Put `backup_file` in place of the database of `settings` (its servers stopped), with
    its key; returns what was done, in a line."""
    from app.persist.sealing import key_file as server_key_file

    target = sqlite_path(settings)
    if target is None:
        raise BackupError(PG_HINT)
    if not backup_file.is_file():
        raise BackupError(f"{backup_file}: no such file")
    check = sqlite3.connect(backup_file)
    try:
        verdict = check.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{backup_file}: not a SQLite database ({exc})") from None
    finally:
        check.close()
    if verdict != "ok":
        raise BackupError(f"{backup_file} is damaged: {verdict}")
    if target.exists() and not force:
        raise BackupError(
            f"{target} exists: stop every server of it, then add --force to replace it "
            "(it is kept as *.before-restore)"
        )
    key_file = key_file or backup_file.parent / KEY_NAME
    key = None if settings.secret_key is not None else _read_key(key_file)
    _check_key(settings, backup_file, key)
    replaced = [_set_aside(p) for p in _files_of(target)]
    target.parent.mkdir(parents=True, exist_ok=True)
    copy_live(backup_file, target)
    done = f"restored {backup_file} to {target}"
    path = server_key_file(settings)
    if key is not None and path is not None:
        if path.exists() and path.read_text().strip() != key:
            replaced.append(_set_aside(path))
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_key(path, key)
        done += f", its key in {path}"
    if any(replaced):
        done += f"; kept what it replaced as {', '.join(str(p) for p in replaced if p)}"
    return done


def _read_key(path: Path) -> str:
    if not path.exists():
        raise BackupError(
            f"no key beside the backup ({path}): give it with --key, or set RUMMY_SECRET_KEY"
        )
    return path.read_text().strip()


def _check_key(settings: Any, database: Path, key: str | None) -> None:
    """Raise unless the key opens the backup's sealed rooms (read-only: nothing written)."""
    from pydantic import SecretStr

    from app.db import create_engine
    from app.keycheck import KeyMismatch, check_key

    secret = SecretStr(key) if key is not None else settings.secret_key
    probe = settings.model_copy(
        update={"database_url": f"sqlite+aiosqlite:///{database}", "secret_key": secret}
    )

    async def run() -> None:
        engine = create_engine(probe.database_url)
        try:
            await check_key(engine, probe)
        finally:
            await engine.dispose()

    try:
        asyncio.run(run())
    except KeyMismatch as exc:
        raise BackupError(f"the key does not open this backup: {exc}") from None


def _files_of(database: Path) -> list[Path]:
    return [database.with_name(database.name + s) for s in ("", "-wal", "-shm")]


def _set_aside(path: Path) -> Path | None:
    if not path.exists():
        return None
    aside = path.with_name(path.name + ".before-restore")
    os.replace(path, aside)
    return aside


def _run(args: argparse.Namespace) -> int:
    from app.config import get_settings

    try:
        if args.command == "backup":
            done = backup(
                get_settings(), Path(args.path), key=not args.no_key, pages=args.pages,
                pause=args.pause,
            )  # fmt: skip
        else:
            key = Path(args.key) if args.key else None
            done = restore(get_settings(), Path(args.path), force=args.force, key_file=key)
    except (BackupError, OSError, sqlite3.Error) as exc:
        print(f"rummy {args.command}: {exc}", file=sys.stderr)
        return 2
    print(done)
    return 0


def register(commands: Any) -> None:
    """Add `backup` and `restore` to the `rummy` command line (app/cli.py)."""
    backup_cmd = commands.add_parser(
        "backup",
        help="copy the SQLite database while the server runs, with its key beside the copy",
    )
    backup_cmd.add_argument("path", help="the copy's file name, or a folder for it")
    backup_cmd.add_argument(
        "--no-key", action="store_true", help="do not write the key file beside the copy"
    )
    backup_cmd.add_argument("--pages", type=int, default=256, help="pages per step")
    backup_cmd.add_argument(
        "--pause", type=float, default=0.0, help="seconds between steps (spreads the reads)"
    )
    backup_cmd.set_defaults(func=_run)
    restore_cmd = commands.add_parser(
        "restore", help="put a backup in place of the database (stop its servers first)"
    )
    restore_cmd.add_argument("path", help="the backup's database file")
    restore_cmd.add_argument("--key", help="its key file (default: secret.key beside it)")
    restore_cmd.add_argument(
        "--force", action="store_true", help="replace an existing database (kept aside)"
    )
    restore_cmd.set_defaults(func=_run)
