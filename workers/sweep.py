"""The sweep: re-enqueue every match whose projection may lag its log.

A match goes on the dirty set when a step is appended and leaves it only when a projection run
has caught up with the log, so a job lost with a killed worker is redone at the next sweep, within
seconds, not after RQ's cleanup of abandoned jobs.
"""

from __future__ import annotations

from collections.abc import Iterator

import redis
from rq import Queue

from events.codec import as_text
from events.keys import Keys
from events.store import created_ids
from projections.queueing import enqueue_projection


def sweep_dirty(client: redis.Redis, keys: Keys, queue: Queue, snapshot_every: int) -> int:
    """Enqueue a projection for each match on the dirty set, unless enough jobs wait; return how many.

    ``client`` is the store's (the dirty set lives with the matches); ``queue`` may be on another Redis.
    """
    if queue.count >= client.scard(keys.dirty()):
        # As many jobs wait as there are dirty matches: enqueueing more each sweep would grow the
        # queue faster than workers drain it. A match whose job was lost is enqueued as soon as
        # the queue is shorter than the dirty set, so the queue stays under twice its size.
        return 0
    count = 0
    for raw in client.sscan_iter(keys.dirty(), count=500):
        enqueue_projection(queue, keys, as_text(raw), snapshot_every)
        count += 1
    return count


def sweep_all(client: redis.Redis, keys: Keys, queue: Queue, snapshot_every: int) -> int:
    """Compare every match's log version with its checkpoint; enqueue those behind.

    The matches are found from their headers (a SCAN of every master), not from the registry, so
    a match whose registration was lost is projected, and its projection lists it again.
    """
    count = 0
    for batch in _batches(client, keys, 500):
        with client.pipeline(transaction=False) as pipe:
            for match_id in batch:
                pipe.hmget(keys.meta(match_id), ["version", "created_ms"])
                pipe.hget(keys.proj(match_id), "checkpoint")
            pipe.zmscore(keys.matches(), batch)
            *answers, listed = pipe.execute()
        _register(client, keys, batch, [answers[2 * i][1] for i in range(len(batch))], listed)
        for i, match_id in enumerate(batch):
            (version, _), checkpoint = answers[2 * i], answers[2 * i + 1]
            if version is not None and int(version) != int(checkpoint or 0):
                client.sadd(keys.dirty(), match_id)
                enqueue_projection(queue, keys, match_id, snapshot_every)
                count += 1
    return count


def _register(
    client: redis.Redis, keys: Keys, batch: list[str], created: list[bytes | None], listed: list[float | None]
) -> None:
    """Put in the registry the matches of ``batch`` it misses (their process died in between)."""
    missing = {m: float(c or 0) for m, c, score in zip(batch, created, listed, strict=True) if score is None}
    if missing:
        client.zadd(keys.matches(), missing, nx=True)


def _batches(client: redis.Redis, keys: Keys, size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for match_id in created_ids(client, keys, size):
        batch.append(match_id)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
