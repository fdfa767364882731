"""The deployment credential: API keys that the writes creating matches (create, fork, import) need.

Configured by ``TABLETAPE_API_KEYS`` (comma-separated) and sent as ``X-API-Key: <key>`` (apart
from ``Authorization``, which carries a match's own write token, as a fork may too). With none
configured, creating stays open as it always was; with some, a creating write without one of them
is refused (401, 403), and a match records which key made it (by a short id derived from the key,
never the key), so statistics can count only matches a credential created.
"""

from __future__ import annotations

import hashlib
import hmac

from games.contract import Message

# The id a match made by an operator's own command (`tabletape import`) records.
OPERATOR = "operator"


class CredentialRequired(Exception):
    """A creating write without a deployment credential where one is configured."""


class CredentialRefused(Exception):
    """A creating write whose credential is not one of the deployment's."""


def key_id(key: str) -> str:
    """The id a match records for the key that made it: a digest's first 12 hex digits."""
    return "key-" + hashlib.sha256(key.encode()).hexdigest()[:12]


class Credentials:
    """The deployment's API keys, held only as SHA-256 digests and compared in constant time."""

    def __init__(self, keys: tuple[str, ...]) -> None:
        self._digests = {hashlib.sha256(k.encode()).hexdigest(): key_id(k) for k in keys if k}

    @property
    def required(self) -> bool:
        """Whether creating a match needs a credential."""
        return bool(self._digests)

    def known(self, presented: str | None) -> str | None:
        """The id of a presented key if it is one of the deployment's, else None."""
        if not presented:
            return None
        digest = hashlib.sha256(presented.encode()).hexdigest()
        found = None
        for known, ident in self._digests.items():
            if hmac.compare_digest(known, digest):
                found = ident
        return found

    def identify(self, presented: str | None) -> str | None:
        """The id of the key that may create a match now (None while creating is open)."""
        if not self.required:
            return self.known(presented)
        if not presented:
            raise CredentialRequired(
                Message("creating a match on this deployment needs its API key: X-API-Key: <key>")
            )
        ident = self.known(presented)
        if ident is None:
            raise CredentialRefused(Message("this key is not one of the deployment's API keys"))
        return ident
