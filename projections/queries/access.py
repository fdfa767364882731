"""Who may see a match's hidden facts: the holder of its write token, and nobody else.

A read or a copy without the token gets the public history (what open reads show); with the token
the table gets everything, as it recorded it. See docs/hidden-information.md.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping


class Forbidden(Exception):
    """A token that is not this match's."""


def token_hash(token: str) -> str:
    """How a write token is stored: only its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def holds_token(header: Mapping[str, str], token: str | None, what: str = "write to") -> bool:
    """True for the match's token, False for none at all; Forbidden for another match's token."""
    if not token:
        return False
    if not hmac.compare_digest(header.get("token_hash", ""), token_hash(token)):
        raise Forbidden(f"this token does not {what} this match")
    return True
