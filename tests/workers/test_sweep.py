"""The sweep re-enqueues lagging matches, and a real RQ worker brings them up to their log."""

from __future__ import annotations

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from service.bootstrap import Services
from tests.recording import record_example
from workers.jobs import use_store
from workers.sweep import sweep_all, sweep_dirty


def work_until_empty(parts: Services) -> None:
    """Run a real RQ worker on the projection queue until it is empty (jobs find the store as
    `tabletape worker` makes them)."""
    use_store(parts.client)
    try:
        worker = SimpleWorker(
            [parts.queue],
            connection=parts.queue.connection,
            serializer=JSONSerializer,
            name=parts.keys.worker_name("sweep-test"),
        )
        worker.work(burst=True, logging_level="WARNING")
    finally:
        use_store(None)


def test_the_full_sweep_finds_a_match_whose_projection_lags_its_log(parts: Services) -> None:
    made = record_example(parts.recorder, "wizard", 4, upto=12)  # its writes queued no job
    queue = parts.queue
    assert sweep_all(parts.client, parts.keys, queue, snapshot_every=5) == 1
    work_until_empty(parts)
    version = parts.store.version(made.match_id)
    assert version > 12
    assert parts.cache.checkpoint(made.match_id) == version
    assert sweep_all(parts.client, parts.keys, queue, snapshot_every=5) == 0


def test_a_dirty_match_is_projected_again_and_then_leaves_the_dirty_set(parts: Services) -> None:
    made = record_example(parts.recorder, "wizard", 4, upto=5)
    parts.client.sadd(parts.keys.dirty(), made.match_id)
    queue = parts.queue
    assert sweep_dirty(parts.client, parts.keys, queue, snapshot_every=5) == 1
    work_until_empty(parts)
    version = parts.store.version(made.match_id)
    assert parts.cache.checkpoint(made.match_id) == version
    assert not parts.client.sismember(parts.keys.dirty(), made.match_id)
    assert parts.client.zcard(parts.keys.snap(made.match_id)) == version // 5


def test_the_full_sweep_finds_and_registers_a_match_the_registry_lost(parts: Services) -> None:
    made = record_example(parts.recorder, "hats", 0, upto=4)
    parts.client.zrem(parts.keys.matches(), made.match_id)  # its process died before registering
    assert made.match_id in set(parts.store.all_ids())
    assert sweep_all(parts.client, parts.keys, parts.queue, snapshot_every=5) == 1
    work_until_empty(parts)
    assert parts.cache.checkpoint(made.match_id) == parts.store.version(made.match_id)
    assert made.match_id in parts.store.match_ids()
