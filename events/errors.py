"""The store's errors, each with a message a person understands.

The service maps them to HTTP answers in one place (UnknownMatch 404, MatchExists 409,
VersionConflict 409/412, IdempotencyMismatch 422).
"""

from __future__ import annotations


class StoreError(Exception):
    """Something the event store refused or could not find."""


class UnknownMatch(StoreError):
    """No match has this id."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"there is no match {match_id!r}")
        self.match_id = match_id


class MatchExists(StoreError):
    """A match with this id has already been created."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"a match {match_id!r} already exists")
        self.match_id = match_id


class VersionConflict(StoreError):
    """The match is not at the version the writer expected: someone else wrote first."""

    def __init__(self, expected: int, actual: int, match_id: str = "") -> None:
        which = f"match {match_id!r}" if match_id else "the match"
        super().__init__(
            f"{which} is at version {actual}, not {expected} as the request expected; read it again and retry"
        )
        self.expected = expected
        self.actual = actual
        self.match_id = match_id


class IdempotencyMismatch(StoreError):
    """The same idempotency key came back with a different request."""

    def __init__(self, key: str, match_id: str = "") -> None:
        where = f" on match {match_id!r}" if match_id else ""
        super().__init__(
            f"the Idempotency-Key {key!r} was already used{where} for a different request; "
            "use a new key for a new request"
        )
        self.key = key
        self.match_id = match_id


class StoreFull(StoreError):
    """Redis is at its memory limit and refuses writes (maxmemory with noeviction)."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(
            "the event store is full and records nothing new until its operator makes room; "
            "reads still work" + (f" ({detail})" if detail else "")
        )
