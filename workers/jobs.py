"""RQ jobs: module-level functions with plain arguments, enqueued by name.

A job finds the matches on the store its worker process was started with (``use_store``): the
queue may live on a Redis of its own (RQ_REDIS_URL, always so on a Redis Cluster). A process that
named no store, such as a test's in-process worker, projects on the queue's own Redis.
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from rq import Queue, Worker, get_current_job

from events.defaults import PASS_IDLE
from events.keys import Keys
from events.marks import is_cluster
from projections.assembly import Projections, assemble
from projections.hooks import delivery
from projections.hooks.registry import Hooks
from projections.projecting.queueing import projection_queue
from workers.drain import drain

# A worker process runs jobs one after another without forking, so it keeps its projection
# parts (and the headers they have read) from one job to the next.
_PARTS: dict[tuple[int, str, int], Projections] = {}
_LOCK = threading.Lock()
# The worker process's client of the store, set once at its start (never at import).
_STORE: dict[str, redis.Redis] = {}


def use_store(client: redis.Redis | None) -> None:
    """Make this process's jobs read and write the matches through ``client`` (None: RQ's Redis)."""
    with _LOCK:
        _STORE.clear()
        _PARTS.clear()
        if client is not None:
            _STORE["client"] = client


def project_dirty(prefix: str, snapshot_every: int, idle: float = PASS_IDLE) -> dict[str, Any]:
    """Project every dirty match this worker can lease, for a few seconds at most, and until none
    came for ``idle`` seconds (none, for a pass run inside the write that asked for it)."""
    parts = _parts(prefix, snapshot_every)
    keys = _keys(prefix, parts.stored.client)
    projected = drain(parts.projector, keys, idle=idle)
    # Webhooks follow the feed the pass has just published; their deliveries are jobs of their own.
    queue = projection_queue(_queue_connection(), keys)
    hooks = Hooks(parts.stored.client, keys)
    return {"projected": projected, "deliveries": delivery.dispatch(hooks, parts.feed, queue, prefix)}


def deliver_hook(prefix: str, hook_id: str, body: str, attempt: int) -> dict[str, Any]:
    """Send one webhook delivery (projections.hooks.delivery); a failure plans its own retry."""
    store = _store()
    return delivery.deliver(Hooks(store, _keys(prefix, store)), hook_id, body, attempt)


def _keys(prefix: str, store: redis.Redis) -> Keys:
    """The keys of the store this process's jobs use (a Redis Cluster has more feed partitions)."""
    return Keys.for_store(prefix, is_cluster(store))


def _queue_connection() -> redis.Redis:
    job = get_current_job()
    assert job is not None, "jobs run inside an RQ job"
    return job.connection


def _store() -> redis.Redis:
    with _LOCK:
        return _STORE.get("client", _queue_connection())


def project_match(match_id: str, prefix: str, snapshot_every: int) -> dict[str, Any]:
    """Bring one match's projection up to its log (idempotent; safe to run twice or at once).

    Nothing in tabletape enqueues it (writes enqueue passes): it runs the jobs an operator
    enqueues by name, and those an earlier release left in the queue."""
    done = _parts(prefix, snapshot_every).projector.project(match_id)
    return {"match_id": match_id, "checkpoint": done.checkpoint, "folded": done.folded}


def _parts(prefix: str, snapshot_every: int) -> Projections:
    job = get_current_job()
    assert job is not None, "projection jobs run inside an RQ job"
    with _LOCK:
        connection: redis.Redis = _STORE.get("client", job.connection)
        key = (id(connection), prefix, snapshot_every)
        if key not in _PARTS:
            _PARTS.clear()
            _PARTS[key] = assemble(connection, _keys(prefix, connection), snapshot_every)
        return _PARTS[key]


def forget(client: redis.Redis, prefix: str) -> list[str]:
    """Delete every key of one prefix, RQ's included (its jobs, queue, registries and workers carry
    the prefix in their names), and the prefix's entries in the two sets RQ shares among all its
    users; the names of the keys deleted. For a test's or a benchmark's scratch prefix, or a
    deployment taken down for good."""
    deleted = []
    for pattern in (f"{prefix}*", f"rq:*{prefix}*"):
        for name in client.scan_iter(match=pattern, count=1000):
            client.delete(name)
            deleted.append(name.decode() if isinstance(name, bytes) else str(name))
    for shared in (Queue.redis_queues_keys, Worker.redis_workers_keys):
        ours = [m for m in client.smembers(shared) if prefix.encode() in m]
        if ours:
            client.srem(shared, *ours)
    return deleted
