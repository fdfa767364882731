"""The store's errors, each with a message a person understands.

The service maps them to HTTP answers in one place (UnknownMatch 404, MatchExists 409,
VersionConflict 409/412, IdempotencyMismatch 422, NotReplicated 503), and ``unavailable`` tells a
Redis error that means "the store is away, try again" from one that is a bug.
"""

from __future__ import annotations

from redis import exceptions


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


class OverLimit(StoreError):
    """An append took one of the rate counters it was counted against past its limit."""

    def __init__(self, which: int, match_id: str = "") -> None:
        where = f" to match {match_id!r}" if match_id else ""
        super().__init__(f"the write{where} is over the limit of rate counter {which}; nothing was appended")
        self.which = which
        self.match_id = match_id


class NotReplicated(StoreError):
    """An append reached the primary, but not as many replicas as the deployment asks for, in time."""

    def __init__(self, match_id: str, wanted: int, acknowledged: int) -> None:
        super().__init__(
            f"the write to match {match_id!r} was recorded on the primary but confirmed by "
            f"{acknowledged} of the {wanted} replicas required; retry it with the same "
            "Idempotency-Key to learn its outcome without recording it twice"
        )
        self.match_id = match_id
        self.wanted = wanted
        self.acknowledged = acknowledged


# Replies that say the store is away or moving (a failover, a reshard, a restart), not that the
# request was wrong: the request may be sent again. A cluster client raises some outside RedisError.
_PASSING = (
    exceptions.ReadOnlyError,
    exceptions.TryAgainError,
    exceptions.ClusterError,
    exceptions.SlotNotCoveredError,
    exceptions.MaxConnectionsError,
)
_BUGS = (exceptions.WatchError, exceptions.DataError, exceptions.CrossSlotTransactionError)


def unavailable(error: BaseException) -> bool:
    """Whether a Redis client's error means the store cannot answer now (retry later)."""
    if isinstance(error, _PASSING):
        return True
    if isinstance(error, exceptions.ResponseError):
        # A MOVED seen by a client is no outage: a one-server client was pointed at a cluster.
        return str(error).startswith("BUSY")  # a script or a command running too long
    if isinstance(error, exceptions.RedisClusterException):
        # The cluster client's own refusals of a command are bugs; failing to reach any node is not.
        return not isinstance(error, _BUGS) and "connect" in str(error).lower()
    return isinstance(error, exceptions.RedisError) and not isinstance(error, _BUGS)


class StoreFull(StoreError):
    """Redis is at its memory limit and refuses writes (maxmemory with noeviction)."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(
            "the event store is full and records nothing new until its operator makes room; "
            "reads still work" + (f" ({detail})" if detail else "")
        )
