"""Token buckets: a burst at once, then the refill rate; the clock is driven, never slept on."""

from __future__ import annotations

import redis

from events.buckets import Bucket, TokenBuckets
from events.keys import Keys


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_lets_its_burst_through_at_once_then_one_a_refill(
    redis_client: redis.Redis, keys: Keys
) -> None:
    clock = Clock()
    buckets = TokenBuckets(redis_client, keys, clock)
    shape = [Bucket(burst=5, per_second=0.5)]
    assert [buckets.take("create", "addr-1", shape)[0] for _ in range(6)] == [0] * 5 + [1]
    assert buckets.take("create", "addr-1", shape) == (1, 2.0)
    clock.now += 2
    assert buckets.take("create", "addr-1", shape)[0] == 0
    assert buckets.take("create", "addr-1", shape)[0] == 1
    # Refilled up to its burst, never past it.
    clock.now += 3600
    assert [buckets.take("create", "addr-1", shape)[0] for _ in range(6)] == [0] * 5 + [1]
    # Another caller has buckets of its own.
    assert buckets.take("create", "addr-2", shape)[0] == 0


def test_a_refused_take_takes_from_no_bucket(redis_client: redis.Redis, keys: Keys) -> None:
    clock = Clock()
    buckets = TokenBuckets(redis_client, keys, clock)
    shape = [Bucket(burst=3, per_second=1.0), Bucket(burst=1, per_second=0.001)]
    assert buckets.take("create", "k", shape)[0] == 0
    which, wait = buckets.take("create", "k", shape)
    assert which == 2 and wait > 900
    # The first bucket kept the token the refused take did not spend: two left, then empty.
    buckets_two = TokenBuckets(redis_client, keys, clock)
    assert [buckets_two.take("create", "k", shape[:1])[0] for _ in range(3)] == [0, 0, 1]
