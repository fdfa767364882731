"""Who reads or writes a match: the public, a seat, the table, or the operator.

- **public**: no token. Reads the public history.
- **seat**: a seat token (``POST …/seats/{player}``). Records only that player's own actions and
  reads the public history plus that player's own hidden facts (its hand, its bids).
- **table**: the match's write token. Records everything and reads everything, except a secret a
  seat recorded itself (a secret bid) before the game shows it to the table.
- **operator**: the operator's commands with the store (``tabletape export``): everything.

Tokens are stored as SHA-256 digests only: the table's in the match's header (``token_hash``, or
``table`` in its credentials once it was reset), a seat's under ``seat:<player>`` in the match's
credentials (``events.keys.Keys.credentials``). See docs/hidden-information.md.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass

from games.contract import N_, Message, words

PUBLIC, SEAT, TABLE, OPERATOR = "public", "seat", "table", "operator"
# The credentials' field of the table's token once it was reset, and of its recovery code.
TABLE_FIELD, RECOVERY_FIELD, SEAT_PREFIX = "table", "recovery", "seat:"

# What a token was presented for, in a refusal's words.
DOING = {"write to": N_("write to"), "read": N_("read"), "export": N_("export")}


class Forbidden(Exception):
    """A token that is not this match's."""


class NotYourSeat(Exception):
    """A seat's token used for what only another seat or the table may do."""


@dataclass(frozen=True)
class Reader:
    """Who presents a request: ``kind`` is public, seat, table or operator; ``seat`` a seat's player."""

    kind: str = PUBLIC
    seat: str | None = None

    @property
    def table(self) -> bool:
        """Whether this is the table (or the operator): it records every player's actions."""
        return self.kind in (TABLE, OPERATOR)


EVERYONE = Reader(PUBLIC)
THE_TABLE = Reader(TABLE)
THE_OPERATOR = Reader(OPERATOR)


def token_hash(token: str) -> str:
    """How a write token is stored: only its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_field(player: str) -> str:
    """The credentials' field of a seat's token digest."""
    return SEAT_PREFIX + player


def reader_of(
    header: Mapping[str, str], credentials: Mapping[str, str], token: str | None, what: str = "write to"
) -> Reader:
    """The reader a token makes of its holder: public without one; Forbidden for a token that is
    neither this match's table token nor one of its seats'."""
    if not token:
        return EVERYONE
    digest = token_hash(token)
    table = credentials.get(TABLE_FIELD) or header.get("token_hash", "")
    found = THE_TABLE if hmac.compare_digest(table, digest) else None
    for field, stored in credentials.items():
        if field.startswith(SEAT_PREFIX) and hmac.compare_digest(stored, digest):
            found = Reader(SEAT, field[len(SEAT_PREFIX) :])
    if found is None:
        raise Forbidden(
            Message(
                "this token is neither this match's nor one of its seats': it cannot {what} it",
                what=words(DOING.get(what, what)),
            )
        )
    return found


def holds_token(header: Mapping[str, str], token: str | None, what: str = "write to") -> bool:
    """True for the match's original table token, False for none; Forbidden for another token.
    (Reads and writes go through ``reader_of``, which also knows seats and a reset token.)"""
    return reader_of(header, {}, token, what).table
