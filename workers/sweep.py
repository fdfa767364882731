"""The sweep: make sure every match whose projection may lag its log gets a projection pass.

Every write marks its match dirty in the round trip of its append (but one whose projection moved
in with its append and whose steps it published to the feed itself), and a match leaves the dirty
set only when a pass has brought its projection up to its log; so a pass lost with a killed
worker is redone at the next sweep of the dirty set, within seconds. A process that died between
its append and its mark left a log ahead of its projection's checkpoint, both in the match's own
slot: the full sweep, at start and every so often, compares the two for every match.
"""

from __future__ import annotations

from collections.abc import Iterator

import redis
from rq import Queue

from events.indexes import Index, Indexes
from events.keys import Keys
from events.marks import Marks
from events.store import created_ids
from projections.projecting.queueing import enqueue_pass


def sweep_dirty(client: redis.Redis, keys: Keys, queue: Queue, snapshot_every: int) -> int:
    """Enqueue a pass when matches are dirty and no job waits; return how many are dirty."""
    dirty = Marks(client, keys).count()
    if dirty and queue.count == 0:
        enqueue_pass(queue, keys, snapshot_every)
    return dirty


def sweep_all(client: redis.Redis, keys: Keys, queue: Queue, snapshot_every: int) -> int:
    """Compare every match's log version with its checkpoint; mark those behind and enqueue a pass.

    The matches are found from their headers (a SCAN of every master), not from the registry, so
    a match whose registration was lost is projected, and registered again here.
    """
    count = 0
    for batch in _batches(client, keys, 500):
        with client.pipeline(transaction=False) as pipe:
            for match_id in batch:
                pipe.hmget(keys.meta(match_id), ["version", "created_ms"])
                pipe.hget(keys.proj(match_id), "checkpoint")
            answers = pipe.execute()
        registry = Indexes(client, keys).registry()
        _register(registry, batch, [answers[2 * i][1] for i in range(len(batch))], registry.scores(batch))
        behind = [
            match_id
            for i, match_id in enumerate(batch)
            if answers[2 * i][0] is not None and int(answers[2 * i][0]) != int(answers[2 * i + 1] or 0)
        ]
        if behind:
            Marks(client, keys).mark(behind)
            count += len(behind)
    if count:
        enqueue_pass(queue, keys, snapshot_every)
    return count


def _register(
    registry: Index, batch: list[str], created: list[bytes | None], listed: list[float | None]
) -> None:
    """Put in the registry the matches of ``batch`` it misses (their process died in between)."""
    missing = {m: float(c or 0) for m, c, score in zip(batch, created, listed, strict=True) if score is None}
    if missing:
        registry.add(missing, only_new=True)


def _batches(client: redis.Redis, keys: Keys, size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for match_id in created_ids(client, keys, size):
        batch.append(match_id)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
