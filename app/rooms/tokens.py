"""Seat tokens (256 random bits, stored only as their SHA-256) and fixed deals' seeds."""

from __future__ import annotations

import hashlib
import secrets

# The longest text taken for a token (ours are 43 characters): a longer one is no token.
MAX_TOKEN = 256


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def fixed_match_seed(seed: int) -> bytes:
    """A fixed deal's integer seed as the 32 bytes rules.new_game takes."""
    return hashlib.sha256(f"rummy-fixed-seed:{seed}".encode()).digest()
