"""The sweep re-enqueues lagging matches, and a real RQ worker brings them up to their log."""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

import pytest
from rq.serializers import JSONSerializer

from events.store import created_ids
from games.registry import get_game
from projections.assembly import assemble
from projections.projecting import projector as projector_module
from projections.projecting.projector import Lease
from service.bootstrap import Services, build, connect_store
from service.config import Settings
from tests.recording import record_example
from workers import drain as drain_module
from workers.drain import drain
from workers.jobs import use_store
from workers.main import ProjectionWorker, sweep_forever
from workers.sweep import sweep_all, sweep_dirty


def work_until_empty(parts: Services) -> None:
    """Run a real RQ worker on the projection queue until it is empty (jobs find the store as
    `tabletape worker` makes them)."""
    use_store(parts.client)
    try:
        worker = ProjectionWorker(
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
    assert parts.stored.checkpoint(made.match_id) == version
    assert sweep_all(parts.client, parts.keys, queue, snapshot_every=5) == 0


def test_a_dirty_match_is_projected_again_and_then_leaves_the_dirty_set(parts: Services) -> None:
    made = record_example(parts.recorder, "wizard", 4, upto=5)
    parts.store.marks.mark([made.match_id])
    queue = parts.queue
    assert sweep_dirty(parts.client, parts.keys, queue, snapshot_every=5) == 1
    work_until_empty(parts)
    version = parts.store.version(made.match_id)
    assert parts.stored.checkpoint(made.match_id) == version
    assert not parts.store.marks.marked(made.match_id)
    assert parts.client.zcard(parts.keys.snap(made.match_id)) == version // 5


def test_the_full_sweep_finds_and_registers_a_match_the_registry_lost(parts: Services) -> None:
    made = record_example(parts.recorder, "hats", 0, upto=4)
    parts.store.registry.remove([made.match_id])  # its process died before registering
    assert made.match_id in set(created_ids(parts.client, parts.keys))
    assert sweep_all(parts.client, parts.keys, parts.queue, snapshot_every=5) == 1
    work_until_empty(parts)
    assert parts.stored.checkpoint(made.match_id) == parts.store.version(made.match_id)
    assert made.match_id in parts.store.match_ids()


def test_every_write_marks_its_match_dirty_in_the_round_trip_of_its_append(parts: Services) -> None:
    made = record_example(parts.recorder, "hats", 0, upto=3)  # no projection job is asked for
    parts.projector.project(made.match_id)
    assert not parts.store.marks.marked(made.match_id)
    action = get_game("hats").example(0)["actions"][3]
    parts.recorder.act(made.match_id, made.token, action)
    assert parts.store.marks.marked(made.match_id)


def test_a_running_worker_finds_a_log_whose_dirty_mark_was_lost_without_a_restart(parts: Services) -> None:
    stop = threading.Event()
    connect = lambda: parts.queue.connection  # noqa: E731
    store = lambda: connect_store(parts.settings, 10)  # noqa: E731
    sweeper = threading.Thread(
        target=sweep_forever, args=(connect, store, parts.keys, 0.05, 5, stop), kwargs={"full_every": 0.3}
    )
    sweeper.start()
    try:
        time.sleep(0.2)  # the sweep at start has run
        made = record_example(parts.recorder, "wizard", 4, upto=6)
        # As if the writer died between its append and its mark.
        parts.store.marks.unmark([made.match_id])
        deadline = time.monotonic() + 10
        while not parts.store.marks.marked(made.match_id):
            assert time.monotonic() < deadline, "the full sweep never found the lagging log"
            time.sleep(0.05)
    finally:
        stop.set()
        sweeper.join()
    work_until_empty(parts)
    assert parts.stored.checkpoint(made.match_id) == parts.store.version(made.match_id)


def test_a_run_killed_between_the_match_and_its_indexes_is_mended_by_the_next_pass(
    parts: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = record_example(parts.recorder, "wizard", 5, upto=9)

    def killed(*args: Any) -> None:
        raise SystemExit("killed")

    # The per-match write happens; the process dies before the cross-match writes after it.
    with monkeypatch.context() as patched:
        patched.setattr(parts.projector.models, "write", killed)
        with pytest.raises(SystemExit):
            parts.projector.project(made.match_id)
    assert parts.stored.checkpoint(made.match_id) == parts.store.version(made.match_id)
    assert parts.verifier.check(made.match_id) != []
    assert parts.store.marks.marked(made.match_id)
    sweep_dirty(parts.client, parts.keys, parts.queue, snapshot_every=7)
    work_until_empty(parts)
    assert parts.verifier.check(made.match_id) == []
    assert not parts.store.marks.marked(made.match_id)


def test_two_workers_passing_at_once_project_every_dirty_match_once_each(
    parts: Services,
) -> None:
    made = [record_example(parts.recorder, "hats", seed, upto=10) for seed in range(4)]
    # Each worker process has its own connection and parts; the passes are RQ's jobs' bodies.
    projectors = [assemble(connect_store(parts.settings, 10), parts.keys, 7).projector for _ in range(2)]
    counts: list[int] = []
    passes = [threading.Thread(target=lambda p=p: counts.append(drain(p, parts.keys))) for p in projectors]
    for one in passes:
        one.start()
    for one in passes:
        one.join()
    assert sum(counts) >= len(made)
    for match in made:
        assert parts.stored.checkpoint(match.match_id) == parts.store.version(match.match_id)
        assert parts.verifier.check(match.match_id) == []
    assert parts.store.marks.count() == 0
    for projector in projectors:
        projector.client.close()


def test_read_models_an_older_run_writes_after_a_newer_runs_are_written_again(parts: Services) -> None:
    script = get_game("wizard").example(3)
    made = record_example(parts.recorder, "wizard", 3, upto=len(script["actions"]) - 1)
    parts.projector.project(made.match_id)
    parts.recorder.act(made.match_id, made.token, script["actions"][-1])  # the match is finished
    older, newer = (assemble(connect_store(parts.settings, 10), parts.keys, 7).projector for _ in range(2))
    newer_done = threading.Event()
    write = older.models.write

    def late_write(*args: Any) -> None:
        newer_done.wait(10)  # the older run's cross-match writes reach Redis after the newer run's
        write(*args)

    older.models.write = late_write  # type: ignore[method-assign]
    slow = threading.Thread(target=older.project, args=(made.match_id,))
    slow.start()
    try:
        deadline = time.monotonic() + 10
        while parts.stored.checkpoint(made.match_id) != parts.store.version(made.match_id):
            assert time.monotonic() < deadline, "the older run never wrote its projection"
            time.sleep(0.01)
        parts.recorder.undo(made.match_id, made.token, None, None)  # the match is in progress again
        newer.project(made.match_id)
    finally:
        newer_done.set()
        slow.join()
    player = script["players"][0]
    assert parts.client.hexists(parts.keys.stats(player), made.match_id)  # the older run's, stale
    assert parts.store.marks.marked(made.match_id)
    sweep_dirty(parts.client, parts.keys, parts.queue, snapshot_every=7)
    work_until_empty(parts)
    assert parts.verifier.check(made.match_id) == []
    assert not parts.client.hexists(parts.keys.stats(player), made.match_id)
    for projector in (older, newer):
        projector.client.close()


def test_a_pass_over_more_matches_than_a_call_holds_projects_all_but_one_another_pass_holds(
    parts: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On one Redis a run sends its matches in calls of CALL_MATCHES; three matches a call here.
    monkeypatch.setattr(projector_module, "CALL_MATCHES", 3)
    made = [
        record_example(parts.recorder, game, seed, upto=9) for game in ("wizard", "hats") for seed in range(4)
    ]
    held = made[4].match_id
    parts.client.set(parts.keys.lease(held), "another-pass", px=8_000)
    ids = [m.match_id for m in made]
    done = parts.projector.project_many(ids, Lease("this-pass", 8_000))
    assert sorted(p.match_id for p in done) == sorted(set(ids) - {held})
    for match_id in ids:
        version = parts.store.version(match_id)
        assert (parts.stored.checkpoint(match_id) == version) is (match_id != held)
        assert bool(parts.store.marks.marked(match_id)) is (match_id == held)
        if match_id != held:
            assert parts.verifier.check(match_id) == []
    # The other pass's lease is its own still; this pass gave back every one it took.
    assert parts.client.get(parts.keys.lease(held)) == b"another-pass"
    assert [m for m in ids if m != held and parts.client.exists(parts.keys.lease(m))] == []


def test_a_pass_run_inside_the_write_that_asked_for_it_projects_and_returns_without_waiting(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With TABLETAPE_SYNC_PROJECTIONS the write runs its pass itself: no other write can come while
    it runs, so it never holds the flag up waiting for one (a worker's pass waits PASS_IDLE)."""
    reads: list[bool] = []
    real = drain_module.dirty_batch

    def counted(projector: Any, keys: Any, hold: bool = False) -> list[str]:
        reads.append(hold)
        return real(projector, keys, hold)

    monkeypatch.setattr(drain_module, "dirty_batch", counted)
    # Every fifth step is a snapshot's, which no write carries: a pass projects it.
    built = build(dataclasses.replace(settings, sync_projections=True, snapshot_every=5))
    try:
        made = record_example(built.recorder, "wizard", 4, upto=12)
        assert built.stored.checkpoint(made.match_id) == built.store.version(made.match_id)
    finally:
        built.close()
    assert reads, "no write asked for a pass"
    assert True not in reads, f"a pass inside a write waited for more writes ({reads.count(True)} reads)"


@pytest.mark.one_redis
def test_a_match_marked_without_a_wake_up_gets_its_pass_within_a_quarter_second(parts: Services) -> None:
    """A projection that followed its append and did not move in marks the match without raising
    the wake flag (events/append.lua, ``carry``): on one Redis the running sweep enqueues its pass
    long before the 2 s of the dirty sweep."""
    stop = threading.Event()
    connect = lambda: parts.queue.connection  # noqa: E731
    store = lambda: connect_store(parts.settings, 10)  # noqa: E731
    made = record_example(parts.recorder, "wizard", 4, upto=6)
    parts.store.marks.unmark([made.match_id])
    sweeper = threading.Thread(
        target=sweep_forever, args=(connect, store, parts.keys, 30.0, 5, stop), kwargs={"full_every": 3600}
    )
    sweeper.start()
    try:
        time.sleep(0.3)  # the sweep at start has run, and marked the lagging log: start afresh
        work_until_empty(parts)
        made = record_example(parts.recorder, "wizard", 5, upto=6)
        dirty, _ = parts.store.marks.of(made.match_id)
        parts.client.sadd(dirty, made.match_id)  # marked quietly: no wake flag, no job
        assert parts.queue.count == 0
        began = time.monotonic()
        while parts.queue.count == 0:
            assert time.monotonic() - began < 1.5, "no pass was enqueued for the quietly marked match"
            time.sleep(0.02)
    finally:
        stop.set()
        sweeper.join()
    work_until_empty(parts)
    assert parts.stored.checkpoint(made.match_id) == parts.store.version(made.match_id)
