"""What the write side answers and refuses with: the recorded write, the created or copied match,
and the refusals that are the recorder's own (no token, a stale If-Match, too many writers)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from events.codec import dumps_sorted, read_stored
from events.envelope import StoredEvent
from games.contract import Game, Message
from projections.positions.tape import Position


class Unauthorized(Exception):
    """A write without a bearer token."""


class PreconditionFailed(Exception):
    """If-Match named a version that is not the match's current one."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(
            Message(
                "If-Match asked for version {expected} but the match is at version {actual}; "
                "read it again and decide on the newer state",
                expected=expected,
                actual=actual,
            )
        )
        self.expected = expected
        self.actual = actual


class Busy(Exception):
    """Too many concurrent writers: the write was retried and still lost every race."""


@dataclass(frozen=True)
class Recorded:
    """The answer to a write: the new version, the events written and the state after them.

    The state is kept as the API writes it (``events.codec.dumps_sorted``): an answer is written
    as it was made, and no later write to the match can change it."""

    match_id: str
    version: int
    events: list[StoredEvent]
    state_json: bytes
    duplicate: bool = False

    @property
    def state(self) -> Any:
        """The state after the write (the game's whole view: the writer holds the token), as a
        fresh value."""
        return read_stored(self.state_json)


def view_json(game: Game, state: Any) -> bytes:
    """The game's view of ``state`` for the table that writes (it holds the token, so nothing is
    held back), written as the API writes it."""
    return dumps_sorted(game.view(state))


class Folded(NamedTuple):
    """A write's batch folded before it is sent: its steps, the position after them (the next
    writer's) and that position frozen."""

    events: list[StoredEvent]
    pos: Position
    dumped: bytes


@dataclass(frozen=True)
class Copied:
    """A match made from a log (a fork or an import): its id, its token, and where it came from."""

    match_id: str
    token: str
    game: str
    version: int
    finished: bool
    origin: dict[str, str]
    # True for an import the store already held: no copy was made, and no token is known.
    existing: bool = False


@dataclass(frozen=True)
class Created:
    """A new match: its id, its write token (shown once) and its first events."""

    match_id: str
    token: str
    game: Game
    players: list[str]
    setup: dict[str, Any]
    options: dict[str, Any]
    recorded: Recorded
    recovery_code: str = ""


def fingerprint(body: Any) -> str:
    """A stable digest of a request, to tell a retry from a different request under one key."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
