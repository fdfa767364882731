"""TABLETAPE_WAIT_REPLICAS: an append is acknowledged only once enough replicas hold it (Redis WAIT)."""

from __future__ import annotations

import pytest
import redis

from events.envelope import NewEvent
from events.errors import NotReplicated
from events.keys import Keys
from events.store import EventStore

# More replicas than any test server has: every append waits the whole timeout and is refused.
TOO_MANY = 8


def made(n: int) -> NewEvent:
    """A new event numbered ``n``."""
    return NewEvent(
        "Noted", {"n": n}, {"ts": "2024-05-01T20:00:00Z", "actor": "ann", "action_id": "a", "schema": 1}
    )


@pytest.fixture
def plain(redis_client: redis.Redis, keys: Keys) -> EventStore:
    """A store that waits for no replica, after creating match m with one event."""
    store = EventStore(redis_client, keys)
    store.create("m", {"game": "wizard"}, [made(0)], created_ms=1)
    return store


@pytest.fixture
def waiting(redis_client: redis.Redis, keys: Keys) -> EventStore:
    """A store that waits, 50 ms at most, for more replicas than the test server has."""
    return EventStore(redis_client, keys, replicas=TOO_MANY, replica_timeout_ms=50)


def test_an_append_fewer_replicas_confirm_is_refused_but_recorded_once_and_retried_by_its_key(
    plain: EventStore, waiting: EventStore
) -> None:
    with pytest.raises(NotReplicated) as refused:
        waiting.append("m", [made(1), made(2)], idempotency_key="k", fingerprint="f")
    assert refused.value.wanted == TOO_MANY and refused.value.acknowledged < TOO_MANY
    assert "retry it with the same Idempotency-Key" in str(refused.value)
    # The primary has it: a retry under the same key returns it, and it is in the log once.
    retried = plain.append("m", [made(1), made(2)], idempotency_key="k", fingerprint="f")
    assert retried.duplicate and (retried.first, retried.last) == (2, 3)
    assert [e.data["n"] for e in plain.read("m")] == [0, 1, 2]


def test_a_create_fewer_replicas_confirm_is_refused_too(
    waiting: EventStore, redis_client: redis.Redis, keys: Keys
) -> None:
    with pytest.raises(NotReplicated):
        waiting.create("m", {"game": "wizard"}, [made(0)], created_ms=1)
    assert EventStore(redis_client, keys).version("m") == 1


def test_a_refused_append_under_a_version_check_writes_nothing_and_says_so(
    plain: EventStore, waiting: EventStore
) -> None:
    with pytest.raises(Exception) as refused:
        waiting.append("m", [made(1)], expected_version=5)
    assert type(refused.value).__name__ == "VersionConflict"
    assert plain.version("m") == 1
