"""Signed match records (docs/api.md v1.3 "Signed match records"): the server signs every record
it hands out with Ed25519, so a record that verifies was issued by this server, unchanged.

Checked hand by hand only, a wholly invented match with consistent seeds would verify as
well as a real one: the signature says which server issued it.

- The signing key is derived from the server key (app/persist/sealing.py `key_bytes`:
  RUMMY_SECRET_KEY or its key file) by HMAC-SHA256 under its own label, so every process of
  one database signs with the same key, no new secret is kept anywhere, and the sealing key
  itself never signs. Its public half is `GET /api/server-key`.
- What is signed is the record without `"signature"`, serialized as
  `json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` in UTF-8
  (`canonical`). Numbers that are whole are written as integers before signing
  (`plain_numbers`): a browser's JSON reads `60.0` as `60`, and its verifier (web/js/verify.js)
  must rebuild the very bytes that were signed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from app.config import Settings
from app.persist.sealing import key_bytes

ALG = "ed25519"
_LABEL = b"rummy/record-signing/v1"


def canonical(record: dict[str, Any]) -> bytes:
    """The bytes a record's signature covers: the record without its `signature`."""
    unsigned = {k: v for k, v in record.items() if k != "signature"}
    text = json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def plain_numbers(value: Any) -> Any:
    """`value` with every whole float written as an int (60.0 -> 60), at any depth."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: plain_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_numbers(v) for v in value]
    return value


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def from_b64url(text: str) -> bytes:
    """Raises ValueError for text that is not URL-safe base64."""
    try:
        return base64.urlsafe_b64decode(text.strip() + "=" * (-len(text.strip()) % 4))
    except (binascii.Error, ValueError, UnicodeEncodeError) as exc:
        raise ValueError("not URL-safe base64") from exc


def key_id(public: bytes) -> str:
    """A public key's id: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(public).hexdigest()[:16]


@dataclass(frozen=True)
class RecordSigner:
    private: Ed25519PrivateKey

    @property
    def public(self) -> bytes:
        return self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def server_key(self) -> dict[str, str]:
        """`GET /api/server-key`'s answer."""
        return {"alg": ALG, "key": b64url(self.public), "id": key_id(self.public)}

    def sign(self, record: dict[str, Any]) -> dict[str, Any]:
        """`record` (a JSON object) with its whole numbers plain and its `signature` added."""
        plain = plain_numbers({k: v for k, v in record.items() if k != "signature"})
        sig = self.private.sign(canonical(plain))
        return {
            **plain,
            "signature": {"alg": ALG, "key_id": key_id(self.public), "sig": b64url(sig)},
        }


def signer_for(settings: Settings) -> RecordSigner:
    """The signer of this server: the same in every process of one database."""
    seed = hmac.new(key_bytes(settings), _LABEL, hashlib.sha256).digest()
    return RecordSigner(Ed25519PrivateKey.from_private_bytes(seed))


def signature_problem(record: dict[str, Any], public: bytes) -> str | None:
    """Why `record`'s signature does not hold under `public` (32 raw bytes), or None."""
    signature = record.get("signature")
    if not isinstance(signature, dict):
        return "the record is not signed"
    if signature.get("alg") != ALG:
        return f"the signature's algorithm is {signature.get('alg')}, not {ALG}"
    expected = key_id(public)
    if signature.get("key_id") != expected:
        return f"signed by another key ({signature.get('key_id')}), not the server's ({expected})"
    try:
        sig = from_b64url(str(signature.get("sig", "")))
        Ed25519PublicKey.from_public_bytes(public).verify(sig, canonical(record))
    except (ValueError, InvalidSignature):
        return "the signature does not match: the record was changed after it was signed"
    return None
