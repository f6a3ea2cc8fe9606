"""Secrets at rest: a room's stored state and its hands' deals are sealed, so a database
dump, a backup or a read replica shows no card still to come.

`rooms.state` holds the match seed, the stock order and every hand; `hands.start` holds
each hand's deal and the match seed. Both are sealed with AES-256-GCM-SIV (the
`cryptography` package) under one key, and each ciphertext's associated data names the
row it belongs to (`rooms.state:<room>`, `hands.start:<room>:<seq>`): a sealed value
copied into another room's row, or another hand's, fails to open instead of dealing
that room someone else's cards. GCM-SIV rather than plain GCM because every process
draws its 96-bit nonces at random under the same key: a repeated nonce there costs
nothing but showing that two sealed values are equal, where with GCM it would leak the
key stream; it seals a state in about 15 us.

A value that does not start with `PREFIX` was written before sealing existed (plain
JSON): it is read as it is, and `SqlStore.seal_cleartext_rows` seals it when a server starts.

The key is `RUMMY_SECRET_KEY` (32 bytes, URL-safe base64), or else a key file: made on
first start beside the SQLite database (`./data/secret.key` for `make run`), mode 0600,
created atomically so processes starting together end up with the same key. Processes
that share a database must share the key: set `RUMMY_SECRET_KEY` for PostgreSQL, or
give them the same data folder.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import secrets
import tempfile
import threading
from pathlib import Path

from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV
from sqlalchemy.engine import make_url

from app.config import Settings

log = logging.getLogger("rummy.sealing")

PREFIX = "sealed1:"
KEY_BYTES = 32
_NONCE_BYTES = 12


class _Nonces:
    """Random nonces read from the OS a few hundred at a time.

    One `getrandom` call per sealed state gave up the GIL on the event loop for every
    move, and the writer thread took it: the loop then waited for it back (3% of the
    loop's samples under bench/load.py). The bytes are the same `secrets` bytes."""

    _BATCH = 256

    def __init__(self) -> None:
        self._reset()
        # A forked child must not hand out its parent's remaining nonces again.
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        # Any thread may seal; a child forked while one held the lock gets a new lock.
        self._lock = threading.Lock()
        self._pool = b""
        self._at = 0

    def take(self) -> bytes:
        with self._lock:
            if self._at >= len(self._pool):
                self._pool = secrets.token_bytes(_NONCE_BYTES * self._BATCH)
                self._at = 0
            nonce = self._pool[self._at : self._at + _NONCE_BYTES]
            self._at += _NONCE_BYTES
            return nonce


_nonces = _Nonces()


class SealError(ValueError):
    """A stored value that does not open under this key and row (wrong key, a row copied
    from elsewhere, or a damaged value)."""


class StateCipher:
    """Seals and opens stored text under one key, each value bound to its row."""

    def __init__(self, key: bytes) -> None:
        if len(key) != KEY_BYTES:
            raise ValueError(f"the secret key must be {KEY_BYTES} bytes")
        self._aead = AESGCMSIV(key)

    @staticmethod
    def state_context(room_id: str) -> str:
        return f"rooms.state:{room_id}"

    @staticmethod
    def hand_context(room_id: str, seq: int) -> str:
        return f"hands.start:{room_id}:{seq}"

    def seal(self, context: str, text: str) -> str:
        nonce = _nonces.take()
        sealed = self._aead.encrypt(nonce, text.encode(), context.encode())
        return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode("ascii")

    def open(self, context: str, stored: str) -> str:
        """The text sealed into `stored` for `context`; plain text (a row from before
        sealing) as it is.

        Raises:
            SealError: `stored` was sealed under another key or for another row.
        """
        if not stored.startswith(PREFIX):
            return stored
        try:
            raw = base64.urlsafe_b64decode(stored[len(PREFIX) :])
            nonce, sealed = raw[:_NONCE_BYTES], raw[_NONCE_BYTES:]
            return self._aead.decrypt(nonce, sealed, context.encode()).decode()
        except Exception as exc:  # InvalidTag, bad base64: the same answer for either
            raise SealError(f"{context.split(':')[0]} does not open with this key") from exc


def cipher_for(settings: Settings) -> StateCipher:
    """The cipher of this process: RUMMY_SECRET_KEY, or the key file (made if missing)."""
    return StateCipher(key_bytes(settings))


def key_bytes(settings: Settings) -> bytes:
    """The server key: RUMMY_SECRET_KEY, or the key file (made if missing); for in-memory
    SQLite a fresh random key, as nothing outlives the process. Every key the server uses
    (the seal, the record signatures, app/records/signing.py) is this one or derived from it.

    Raises:
        ValueError: a malformed key. OSError: a key file that cannot be read or made."""
    if settings.secret_key is not None:
        return decode_key(settings.secret_key.get_secret_value())
    path = key_file(settings)
    if path is None:
        return secrets.token_bytes(KEY_BYTES)
    return load_or_create_key(path)


def key_file(settings: Settings) -> Path | None:
    """RUMMY_SECRET_KEY_FILE, or `secret.key` beside the SQLite database file, or
    `./data/secret.key` for other databases; None for in-memory SQLite."""
    if settings.secret_key_file:
        return Path(settings.secret_key_file)
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        if url.database in (None, "", ":memory:"):
            return None
        return Path(url.database).resolve().parent / "secret.key"
    return Path("data") / "secret.key"


def new_key() -> str:
    """A fresh key in RUMMY_SECRET_KEY's format."""
    return base64.urlsafe_b64encode(secrets.token_bytes(KEY_BYTES)).decode("ascii")


def decode_key(text: str) -> bytes:
    """Raises ValueError unless `text` is 32 bytes in URL-safe base64."""
    try:
        key = base64.urlsafe_b64decode(text.strip().encode("ascii"))
    except (binascii.Error, UnicodeEncodeError) as exc:
        raise ValueError("the secret key is not URL-safe base64") from exc
    if len(key) != KEY_BYTES:
        raise ValueError(f"the secret key must be {KEY_BYTES} bytes, base64-encoded")
    return key


def load_or_create_key(path: Path) -> bytes:
    """The key in `path`, written first if there is none.

    The new key is written to a private temporary file that is then hard-linked to
    `path`: the link either appears whole or fails because another process linked its
    own first, and then both read the winner's.
    """
    try:
        return decode_key(path.read_text())
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".secret-key-")  # mode 0600
    try:
        with os.fdopen(fd, "w") as file:
            file.write(new_key() + "\n")
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(tmp, path)
            log.info("made a new secret key in %s", path)
        except FileExistsError:
            pass  # another process made it first: theirs is the key
    finally:
        os.unlink(tmp)
    return decode_key(path.read_text())
