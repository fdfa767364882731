"""Idempotency-Key on the writes that create a match (create, fork, import).

A creating write sent with a key makes the match whose id is derived from the key (and from the
kind of write and the credential that sends it): a retry names the same id, so the store's create
(one atomic script) refuses to make it twice, whichever API process the retry reaches. The match's
header keeps the first request's fingerprint and its write token sealed with the key (``seal``),
so the retry gets the first answer, token included, while the store holds the token only in a form
that nobody without the key can open (the key stays with the client; its SHA-256 is all the id
shows). A key is for one request: another request under it is refused, as on actions.

Keys should be random (a UUID, as the recorder page makes them): whoever sends the same key with
the same request gets the same answer.
"""

from __future__ import annotations

import hashlib
import hmac

# Header field: "<fingerprint> <sealed token>".
FIELD = "idempotency"


def match_id_for(kind: str, credential: str | None, key: str) -> str:
    """The id of the match a creating write of ``kind`` under ``key`` makes (16 hex digits)."""
    named = "\0".join(("tabletape-create", kind, credential or "", key))
    return hashlib.sha256(named.encode()).hexdigest()[:16]


def _stream(key: str, length: int) -> bytes:
    secret = hashlib.sha256(("tabletape-token\0" + key).encode()).digest()
    blocks = (hmac.new(secret, bytes([n]), hashlib.sha256).digest() for n in range(length // 32 + 1))
    return b"".join(blocks)[:length]


def seal(token: str, key: str) -> str:
    """``token`` sealed with ``key`` (hex), for the header of the match the key made."""
    raw = token.encode()
    return bytes(a ^ b for a, b in zip(raw, _stream(key, len(raw)), strict=True)).hex()


def unseal(sealed: str, key: str) -> str:
    """The token ``seal`` sealed with ``key``."""
    raw = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(raw, _stream(key, len(raw)), strict=True)).decode()


def record(fingerprint: str, token: str, key: str) -> str:
    """The header value a keyed creation keeps: its request's fingerprint and its sealed token."""
    return f"{fingerprint} {seal(token, key)}"


def recall(kept: str | None, fingerprint: str, key: str) -> str | None:
    """The token of the creation ``kept`` records when ``fingerprint`` is its request's, else None."""
    known, _, sealed = (kept or "").partition(" ")
    if not sealed or not hmac.compare_digest(known, fingerprint):
        return None
    return unseal(sealed, key)
