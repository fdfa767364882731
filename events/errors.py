"""The store's errors, each with a message a person understands.

The service maps them to HTTP answers in one place (UnknownMatch 404, MatchExists 409,
VersionConflict 409/412, IdempotencyMismatch 422, NotReplicated 503), and ``unavailable`` tells a
Redis error that means "the store is away, try again" from one that is a bug.
"""

from __future__ import annotations

import re

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


def N_(text: str) -> str:
    """Mark an English msgid for the catalogs (the HTTP edge says it in the reader's language)."""
    return text


# Redis's "not now" replies, by their error code: Redis refused the command before it changed
# anything (a script at its first write), and the same command succeeds once the cause is gone.
# Each says why, for the 503 a client gets and the line an operator reads (docs/operations.md has
# the whole table, with the replies that are bugs).
NOT_NOW = {
    "OOM": N_("the event store is at its memory limit (maxmemory)"),
    "MISCONF": N_("the event store cannot write to its disk (full, or failing)"),
    "NOREPLICAS": N_(
        "the event store reaches fewer replicas than it requires to take a write (min-replicas-to-write)"
    ),
    "MASTERDOWN": N_("the event store is a replica that has lost its primary"),
    "LOADING": N_("the event store is loading its data after a restart"),
    "READONLY": N_(
        "the event store is a read-only replica (a failover is under way, or REDIS_URL names a replica)"
    ),
    "BUSY": N_("the event store is busy running a script past its time limit"),
    "TRYAGAIN": N_("the event store is moving this match's keys between nodes (a cluster reshard)"),
    "CLUSTERDOWN": N_("the Redis Cluster is down (a slot has no master in reach)"),
}
# A script's error (Redis 6 wraps it: "ERR Error running script …: -NOREPLICAS …") keeps the code.
_CODE = re.compile(r"(?:^|[-:] ?)(" + "|".join(NOT_NOW) + r")\b")


def not_now(error: BaseException) -> str | None:
    """The code of a Redis "not now" reply (NOT_NOW) this error carries, or None."""
    if isinstance(error, exceptions.BusyLoadingError):
        return "LOADING"
    if isinstance(error, exceptions.ReadOnlyError):
        return "READONLY"
    if isinstance(error, exceptions.TryAgainError):
        return "TRYAGAIN"
    if isinstance(error, exceptions.MasterDownError):  # a ClusterDownError, to redis-py
        return "MASTERDOWN"
    if isinstance(error, exceptions.ClusterDownError):
        return "CLUSTERDOWN"
    if isinstance(error, exceptions.OutOfMemoryError):
        return "OOM"
    if not isinstance(error, exceptions.ResponseError):
        return None
    found = _CODE.search(str(error))
    return found.group(1) if found else None


def unavailable(error: BaseException) -> bool:
    """Whether a Redis client's error means the store cannot answer now (retry later)."""
    if isinstance(error, _PASSING) or not_now(error) is not None:
        return True
    if isinstance(error, exceptions.ResponseError):
        # Any other reply is a bug (a wrong command, a wrong type, a script's own error); a MOVED
        # seen by a one-server client means REDIS_URL names a node of a cluster.
        return False
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


class DiskFull(StoreError):
    """Redis cannot write its AOF (or a snapshot) to disk and refuses writes (MISCONF)."""

    def __init__(self, detail: object = "") -> None:
        super().__init__(
            "the event store cannot write to its disk (full, or failing) and records nothing new "
            "until its operator makes room; reads still work" + (f" ({detail})" if detail else "")
        )
        # What found it (Redis's reply, or the free space left: a Message the HTTP edge translates).
        self.detail = detail


class NotNow(StoreError):
    """Redis answers, but refuses to take writes for a while (a "not now" reply, NOT_NOW)."""

    def __init__(self, code: str) -> None:
        super().__init__(f"{NOT_NOW.get(code, 'the event store refuses writes for now')} ({code})")
        self.code = code


class CredentialChanged(StoreError):
    """The credential an append relied on no longer holds the writer's digest: its token was
    reset or revoked since the writer checked it (nothing was appended)."""

    def __init__(self, match_id: str = "") -> None:
        where = f" of match {match_id!r}" if match_id else ""
        super().__init__(f"the token{where} this write relied on was reset or revoked; nothing was appended")
        self.match_id = match_id
