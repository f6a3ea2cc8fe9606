"""Secrets the friends' features derive from the server's key instead of storing.

A rematch seat's token and a challenge's seed are HMAC-SHA256 of a label under a subkey of
the key that seals the game states (RUMMY_SECRET_KEY or its key file,
app/persist/sealing.py): every process of one database derives the same value, and a
database dump alone holds neither. In-memory SQLite has no key file; its rooms die with
the process, and so does the random key used then.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import lru_cache
from pathlib import Path

from app.config import Settings
from app.persist.sealing import KEY_BYTES, decode_key, key_file, load_or_create_key


def _subkey(settings: Settings) -> bytes:
    secret = settings.secret_key.get_secret_value() if settings.secret_key else None
    path = None if secret is not None else key_file(settings)
    return _subkey_of(secret, str(path) if path else None)


@lru_cache(maxsize=8)
def _subkey_of(secret: str | None, path: str | None) -> bytes:
    if secret is not None:
        key = decode_key(secret)
    else:
        key = secrets.token_bytes(KEY_BYTES) if path is None else load_or_create_key(Path(path))
    # Domain separation: the sealing key itself never keys an HMAC.
    return hmac.new(key, b"rummy/friends/v1", hashlib.sha256).digest()


def derive(settings: Settings, label: str, *parts: str) -> bytes:
    """32 secret bytes for `label` and `parts`, the same in every process of the server."""
    message = "\x00".join((label, *parts)).encode()
    return hmac.new(_subkey(settings), message, hashlib.sha256).digest()
