"""The composition root: every part of tabletape is built here, from the settings.

The API (``create_app``), the CLI commands, the worker process, the benchmarks and the tests all
build their parts with ``build`` (or, for the worker process, ``worker_wiring``); the projection
parts themselves come from projections.assembly, which a worker's job also uses, since the
workers may not import the service. Building connects to nothing on one Redis (clients connect on
first use); a cluster client asks a node for the slot map as it is built.

With ``TABLETAPE_REDIS_CLUSTER=1`` the store is a Redis Cluster (``REDIS_URL`` names any node) and
the job queue lives on the standalone Redis ``RQ_REDIS_URL`` names, since RQ does not run on a
cluster: every client of the matches' data is made by ``connect_store``, every client of the queue
by ``connect_queue``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, cast
from urllib.parse import urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot
from rq import Queue

from events.defaults import LIVE_BLOCK_MS, MAX_CONNECTIONS
from events.errors import StoreFull
from events.keys import Keys
from projections.assembly import Projections, assemble
from projections.live.hub import LiveHub
from projections.projecting.queueing import enqueue_pass, projection_queue
from service.config import Settings
from service.recording.credentials import Credentials
from service.recording.recorder import Recorder
from service.recording.seats import Seats

Connect = Callable[[], redis.Redis]


@dataclass
class Services(Projections):
    """Every part, built once per app or command: the projection side's and the service's own."""

    settings: Settings
    client: redis.Redis
    keys: Keys
    queue: Queue
    recorder: Recorder
    hub: LiveHub

    @property
    def seats(self) -> Seats:
        """Seat tokens, and the table's token reset or recovered."""
        return Seats(self.store, self.positions)

    def ping(self) -> None:
        """Raise unless the store answers and takes writes now: StoreFull at its memory limit, a
        Redis error otherwise (MISCONF, NOREPLICAS, READONLY: what a write would get)."""
        if isinstance(self.client, RedisCluster):
            # A replica that is down does not stop the store; a master that is down does.
            self.client.ping(target_nodes=RedisCluster.PRIMARIES)
        else:
            self.client.ping()
            memory: Any = self.client.info("memory")
            limit = int(memory.get("maxmemory", 0))
            if limit and int(memory.get("used_memory", 0)) >= limit:
                raise StoreFull(f"{memory.get('used_memory_human')} used of {memory.get('maxmemory_human')}")
        # A write, refused exactly as an append would be (a full disk, replicas out of reach, a
        # replica's read-only copy). One key, overwritten, never expiring: an expiry would be a
        # write of Redis's own, at a moment nobody chose.
        self.client.set(self.keys.health(), "ok")

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
    connect_store: Connect
    keys: Keys
    snapshot_every: int


def connect_store(
    settings: Settings, timeout: float, connect_timeout: float | None = None, **options: Any
) -> redis.Redis:
    """A client of the matches' data: the one Redis of REDIS_URL, or the cluster it is a node of."""
    options |= {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout if connect_timeout is None else connect_timeout,
    }
    if settings.redis_cluster:
        # The cluster client speaks the same commands; where a caller needs to tell them apart
        # (a blocking read per node, a WAIT on the node that took a write) it asks the client.
        # REDIS_URL may name several nodes (comma-separated), so that a process started while
        # one is down still finds the others.
        first, *more = [url.strip() for url in settings.redis_url.split(",") if url.strip()]
        others = [
            ClusterNode(urlsplit(url).hostname or "127.0.0.1", urlsplit(url).port or 6379) for url in more
        ]
        return cast(redis.Redis, RedisCluster.from_url(first, startup_nodes=others, **options))
    return redis.Redis.from_url(settings.redis_url, **options)


def connect_queue(
    settings: Settings, timeout: float | None, connect_timeout: float = 2.0, **options: Any
) -> redis.Redis:
    """A client of the job queue's Redis: RQ_REDIS_URL, else the store's (never a cluster)."""
    url = settings.rq_redis_url or settings.redis_url
    return redis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=connect_timeout, **options
    )


def build(settings: Settings, notify: Callable[[str], None] | None = None) -> Services:
    """Wire every part from the settings; ``notify`` replaces enqueueing a projection job."""
    timeout = settings.redis_timeout
    client = (
        connect_store(settings, timeout) if settings.redis_cluster else _pooled(settings.redis_url, timeout)
    )
    # Inline projections (TABLETAPE_SYNC_PROJECTIONS) run the job in the request, on the store.
    queue_url = None if settings.sync_projections else settings.rq_redis_url
    rq_client = _pooled(queue_url, timeout) if queue_url else client
    keys = Keys.for_store(settings.prefix, settings.redis_cluster)
    credentials = Credentials(settings.api_keys)
    parts = assemble(
        client,
        keys,
        settings.snapshot_every,
        credited_only=credentials.required,
        replicas=settings.wait_replicas,
        replica_timeout_ms=settings.wait_timeout_ms,
        bgg_ids=dict(settings.bgg_ids),
    )
    queue = projection_queue(rq_client, keys, is_async=not settings.sync_projections)
    enqueue = notify or _enqueuer(settings, keys, queue)
    recorder = Recorder(
        parts.store,
        parts.positions,
        enqueue,
        credentials=credentials,
        projector=parts.projector,
        # Inline projections run a pass only for a write that raised the wake flag.
        apart=not settings.sync_projections,
    )
    # The hub's one connection blocks in XREAD for LIVE_BLOCK_MS at a time, so it waits longer.
    wait = LIVE_BLOCK_MS / 1000 + 10
    if settings.redis_cluster:
        # One XREAD per slot (a cluster refuses one that names two), each routed to its master.
        hub = LiveHub(lambda group: connect_store(settings, wait, 3), parts.store, keys, group_of=_slot_of)
    else:
        read_live = _connector(settings.redis_url, wait, 3)
        hub = LiveHub(lambda group: read_live(), parts.store, keys)
    shared = {field.name: getattr(parts, field.name) for field in fields(parts)}
    return Services(
        **shared, settings=settings, client=client, keys=keys, queue=queue, recorder=recorder, hub=hub
    )


def worker_wiring(settings: Settings) -> WorkerWiring:
    """How a worker process connects: to the queue's Redis for RQ, to the store for the data."""
    return WorkerWiring(
        connect=lambda: connect_queue(settings, None, health_check_interval=10),
        connect_sweep=lambda: connect_queue(settings, 5),
        connect_store=lambda: connect_store(settings, 10, 2),
        keys=Keys.for_store(settings.prefix, settings.redis_cluster),
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


def _slot_of(key: str) -> str:
    """The cluster slot a key hashes to: the keys one command may name together."""
    return str(key_slot(key.encode()))


def _enqueuer(settings: Settings, keys: Keys, queue: Queue) -> Callable[[str], None]:
    def notify(match_id: str) -> None:
        # Called by the write that raised a wake flag: one pass finds every dirty match, so one
        # job per pass that starts is enough however many writes there are. On a cluster each
        # shard of the marks has its flag (events/marks.py); a pass still waiting in the queue
        # reads every shard once it starts, so a flag raised meanwhile asks for no other.
        if queue.count == 0:
            enqueue_pass(queue, keys, settings.snapshot_every)

    return notify
