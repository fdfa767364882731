"""The composition root: every part of tabletape is built here, from the settings.

The API (``create_app``), the CLI commands, the worker process, the benchmarks and the tests all
build their parts with ``build`` (or, for the worker process, ``worker_wiring``); the projection
parts themselves come from projections.assembly, which a worker's job also uses, since the
workers may not import the service. Building connects to nothing: clients connect on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

import redis
from rq import Queue

from events.errors import StoreFull
from events.keys import Keys
from projections.assembly import Projections, assemble
from projections.live import BLOCK_MS, LiveHub
from projections.queueing import enqueue_pass, projection_queue
from service.config import Settings
from service.credentials import Credentials
from service.recorder import Recorder

Connect = Callable[[], redis.Redis]
# Connections to Redis per API process, shared by all its requests.
MAX_CONNECTIONS = 64


@dataclass
class Services(Projections):
    """Every part, built once per app or command: the projection side's and the service's own."""

    settings: Settings
    client: redis.Redis
    keys: Keys
    queue: Queue
    recorder: Recorder
    hub: LiveHub

    def ping(self) -> None:
        """Raise a Redis error unless the store answers, StoreFull when it takes no more writes."""
        self.client.ping()
        memory: Any = self.client.info("memory")
        limit = int(memory.get("maxmemory", 0))
        if limit and int(memory.get("used_memory", 0)) >= limit:
            raise StoreFull(f"{memory.get('used_memory_human')} used of {memory.get('maxmemory_human')}")

    def close(self) -> None:
        """Stop the live hub and close the Redis connections."""
        self.hub.close()
        self.client.close()
        self.queue.connection.close()


@dataclass(frozen=True)
class WorkerWiring:
    """What a worker process connects with: its RQ loop, its sweep, its prefix."""

    connect: Connect
    connect_sweep: Connect
    keys: Keys
    snapshot_every: int


def build(settings: Settings, notify: Callable[[str], None] | None = None) -> Services:
    """Wire every part from the settings; ``notify`` replaces enqueueing a projection job."""
    timeout = settings.redis_timeout
    client = _pooled(settings.redis_url, timeout)
    rq_client = _pooled(settings.rq_redis_url, timeout) if settings.rq_redis_url else client
    keys = Keys(settings.prefix)
    credentials = Credentials(settings.api_keys)
    parts = assemble(client, keys, settings.snapshot_every, credited_only=credentials.required)
    queue = projection_queue(rq_client, keys, is_async=not settings.sync_projections)
    enqueue = notify or _enqueuer(settings, keys, queue)
    recorder = Recorder(parts.store, parts.reader, enqueue, credentials=credentials)
    # The hub's one connection blocks in XREAD for BLOCK_MS at a time, so it waits longer.
    wait = BLOCK_MS / 1000 + 10
    read_live = _connector(settings.redis_url, wait, 3)
    hub = LiveHub(lambda group: read_live(), parts.store, keys)
    shared = {field.name: getattr(parts, field.name) for field in fields(parts)}
    return Services(
        **shared, settings=settings, client=client, keys=keys, queue=queue, recorder=recorder, hub=hub
    )


def worker_wiring(settings: Settings) -> WorkerWiring:
    """How a worker process connects: RQ's Redis (RQ_REDIS_URL, else REDIS_URL) for both."""
    url = settings.rq_redis_url or settings.redis_url
    return WorkerWiring(
        connect=lambda: redis.Redis.from_url(url, socket_connect_timeout=2, health_check_interval=10),
        connect_sweep=_connector(url, 5, 2),
        keys=Keys(settings.prefix),
        snapshot_every=settings.snapshot_every,
    )


def _pooled(url: str, timeout: float) -> redis.Redis:
    """A client whose requests share at most MAX_CONNECTIONS connections, waiting for a free one.

    Under gevent a process serves thousands of requests at once; each waits its turn for one of
    a bounded set of connections (at most ``timeout`` seconds, then a 503) instead of opening one
    of its own until Redis or the pool refuses.
    """
    pool = redis.BlockingConnectionPool.from_url(
        url,
        max_connections=MAX_CONNECTIONS,
        timeout=timeout,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
    )
    return redis.Redis(connection_pool=pool)


def _connector(url: str, timeout: float, connect_timeout: float) -> Connect:
    return lambda: redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=connect_timeout)


def _enqueuer(settings: Settings, keys: Keys, queue: Queue) -> Callable[[str], None]:
    def notify(match_id: str) -> None:
        # Called by the write that raised the wake flag: one pass finds every dirty match, so
        # one job per pass that starts is enough however many writes there are.
        enqueue_pass(queue, keys, settings.snapshot_every)

    return notify
