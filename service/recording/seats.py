"""A match's other credentials: a token per seat, and a lost table token replaced.

The table (the holder of the match's token) hands a seat token to each player's own phone
(``issue``; again: a new one, the old one revoked) and takes it back (``revoke``). A lost table
token is replaced by the operator (``reset``, `tabletape token reset <id>`) or by the table itself
with the recovery code it was shown once when it created the match (``recover``). Only digests are
stored (``events.keys.Keys.credentials``). A change counts at once in every process: a process
remembers whom a token was found to be, but every append checks in its own atomic run that the
credential it relies on still holds the token's digest (events/append.lua), and reads check it
afresh. See docs/hidden-information.md and docs/operations.md.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from events.store import EventStore
from games.contract import Message
from games.players import name_key
from projections.positions.rewind import Positions
from projections.queries.access import RECOVERY_FIELD, TABLE_FIELD, NotYourSeat, seat_field, token_hash
from projections.queries.answers import UnknownPlayer, who
from service.recording.answers import Unauthorized


class RecoveryRefused(Exception):
    """A recovery code that is not the match's (or was used already)."""


@dataclass(frozen=True)
class Seat:
    """A seat's new token (shown once) and the player it records for."""

    player: str
    token: str


@dataclass(frozen=True)
class NewTableToken:
    """A replaced table token, and the recovery code that may replace it next (both shown once)."""

    token: str
    recovery_code: str


class Seats:
    """Seat tokens, and a table token reset or recovered."""

    def __init__(self, store: EventStore, positions: Positions) -> None:
        self.store = store
        self.positions = positions

    def issue(self, match_id: str, token: str | None, player: str) -> Seat:
        """A new token for ``player``'s seat (the seat's earlier token stops working)."""
        named = self._player(match_id, token, player)
        seat = secrets.token_urlsafe(32)
        self.store.set_credentials(match_id, {seat_field(named): token_hash(seat)})
        return Seat(named, seat)

    def revoke(self, match_id: str, token: str | None, player: str) -> None:
        """Take back ``player``'s seat token (nothing to take back is no error)."""
        self.store.drop_credential(match_id, seat_field(self._player(match_id, token, player)))

    def reset(self, match_id: str) -> NewTableToken:
        """The operator's reset: a new table token and recovery code, the old ones void at once."""
        self.store.version(match_id)
        return self._replace(match_id)

    def recover(self, match_id: str, code: str) -> NewTableToken:
        """The table's own reset, with its recovery code (which is then spent): a new table token
        and a new recovery code, the old token void at once; RecoveryRefused for another code."""
        self.store.version(match_id)
        stored = self.store.credentials(match_id).get(RECOVERY_FIELD, "")
        if not (stored and code and hmac.compare_digest(stored, token_hash(code))):
            raise RecoveryRefused(Message("this is not the match's recovery code (or it was used already)"))
        return self._replace(match_id)

    def _replace(self, match_id: str) -> NewTableToken:
        token, code = secrets.token_urlsafe(32), secrets.token_urlsafe(16)
        self.store.set_credentials(
            match_id, {TABLE_FIELD: token_hash(token), RECOVERY_FIELD: token_hash(code)}
        )
        return NewTableToken(token, code)

    def _player(self, match_id: str, token: str | None, player: str) -> str:
        """The match's own spelling of ``player``, once ``token`` is found to be the table's."""
        if not token:
            raise Unauthorized(
                Message("seats are handed out with the match's token: Authorization: Bearer <token>")
            )
        if not who(self.store, match_id, token, "hand out seats of").table:
            raise NotYourSeat(Message("a seat's token cannot hand out seats: only the table's token can"))
        players = [str(p) for p in self.positions.describe(match_id)["players"]]
        for named in players:
            if name_key(named) == name_key(player):
                return named
        raise UnknownPlayer(f"this match has no player {player!r} (its players: {', '.join(players)})")
