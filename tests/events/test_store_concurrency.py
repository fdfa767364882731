"""Concurrent writers on a real Redis server: the log stays whole, each acknowledged write once."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

import events.store
from events.envelope import AppendResult, CarriedProjection, NewEvent
from events.errors import VersionConflict
from events.extras import AppendExtras
from events.keys import Keys
from events.store import EventStore
from service.bootstrap import connect_store
from service.config import Settings
from workers.jobs import forget


def made(**data: Any) -> NewEvent:
    """A new event as the service would build it."""
    meta = {"ts": "2024-05-01T20:00:00Z", "actor": "ann", "action_id": "a1", "schema": 1}
    return NewEvent(type="Noted", data=data, meta=meta)


@pytest.fixture
def store(redis_client: redis.Redis, keys: Keys) -> EventStore:
    """A store on the real server under the test's own prefix."""
    return EventStore(redis_client, keys)


def test_concurrent_appenders_leave_every_acknowledged_batch_once_and_no_gap(
    store: EventStore, settings: Settings
) -> None:
    store.create("m", {"game": "wizard"}, [made(writer=-1, i=0)], created_ms=1)
    writers, batches = 6, 15
    acknowledged: list[tuple[int, int, AppendResult]] = []
    lock = threading.Lock()

    def write(writer: int) -> None:
        own = EventStore(connect_store(settings, 10), store.keys)
        for i in range(batches):
            events = [made(writer=writer, i=i, part=p) for p in range(1 + (writer + i) % 3)]
            result = _append_with_retries(own, events, conditional=writer % 2 == 0)
            with lock:
                acknowledged.append((writer, i, result))
        own.client.close()

    _run_all(write, writers)

    log = store.read("m")
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert store.version("m") == len(log)
    written = [(e.data["writer"], e.data["i"], e.data.get("part")) for e in log[1:]]
    assert len(written) == len(set(written))
    assert len(acknowledged) == writers * batches
    for writer, i, result in acknowledged:
        steps = log[result.first - 1 : result.last]
        assert {(e.data["writer"], e.data["i"]) for e in steps} == {(writer, i)}
        assert [e.data["part"] for e in steps] == list(range(1 + (writer + i) % 3))
    assert len(log) - 1 == sum(r.last - r.first + 1 for _, _, r in acknowledged)


def test_concurrent_retries_of_one_key_append_once(store: EventStore, settings: Settings) -> None:
    store.create("m", {"game": "wizard"}, [made(n=0)], created_ms=1)
    results: list[AppendResult] = []
    lock = threading.Lock()

    def retry(_: int) -> None:
        own = EventStore(connect_store(settings, 10), store.keys)
        result = own.append("m", [made(n=1), made(n=2)], idempotency_key="k", fingerprint="f")
        with lock:
            results.append(result)
        own.client.close()

    _run_all(retry, 8)

    assert {(r.first, r.last) for r in results} == {(2, 3)}
    assert sum(not r.duplicate for r in results) == 1
    assert [e.data["n"] for e in store.read("m")] == [0, 1, 2]


@pytest.mark.parametrize("staged", [False, True], ids=["among-the-arguments", "staged-in-a-hash"])
def test_of_writers_racing_with_projections_the_one_written_moves_its_own_in(
    store: EventStore, settings: Settings, staged: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each round every writer appends at the same version, carrying a projection of its own: one
    append is written, and the projection that moved in is that one's, never another's, whether
    it went among the script's arguments or (a large one) staged in a hash beside the script."""
    if staged:
        monkeypatch.setattr(events.store, "CARRY_INLINE_BYTES", 0)
    store.create("m", {"game": "wizard"}, [made(writer=-1)], created_ms=1)
    proj = store.keys.proj("m")
    store.client.hset(proj, mapping={"checkpoint": 1, "models": "b"})
    writers, rounds = 4, 25
    won: dict[int, int] = {}
    lock = threading.Lock()

    def race(writer: int, own: EventStore, version: int, ready: threading.Barrier) -> None:
        ready.wait()
        frozen = f'{{"version":{version + 1},"by":{writer}}}'.encode()
        carried = CarriedProjection("b", frozen, f'{{"by":{writer}}}')
        extras = AppendExtras(meanwhile=lambda: None, carried=carried)
        try:
            own.append("m", [made(writer=writer)], version, extras=extras)
        except VersionConflict:
            return
        with lock:
            won[version] = writer

    stores = [EventStore(connect_store(settings, 10), store.keys) for _ in range(writers)]
    try:
        for version in range(1, rounds + 1):
            ready = threading.Barrier(writers)
            threads = [
                threading.Thread(target=race, args=(w, stores[w], version, ready)) for w in range(writers)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
            assert store.version("m") == version + 1
            winner = store.read("m", version + 1, version + 1)[0].data["writer"]
            assert won[version] == winner
            frozen = store.client.hget(proj, "env")
            if store.projects:
                assert frozen is not None and json.loads(frozen) == {"version": version + 1, "by": winner}
                assert store.client.hget(proj, "checkpoint") == str(version + 1).encode()
                assert not store.client.exists(store.keys.carried("m"))
            else:
                # A cluster carries no projection: the workers write it.
                assert frozen is None
                store.client.hset(proj, "checkpoint", version + 1)
    finally:
        for own in stores:
            own.client.close()


def _append_with_retries(store: EventStore, events: list[NewEvent], conditional: bool) -> AppendResult:
    """Append as a client would: read the version, append expecting it, retry on a conflict."""
    while True:
        expected = store.version("m") if conditional else None
        try:
            return store.append("m", events, expected_version=expected)
        except VersionConflict:
            continue


def _run_all(work: Callable[[int], None], count: int) -> None:
    """Run ``work(i)`` in ``count`` threads started together; re-raise the first failure."""
    start = threading.Barrier(count)
    failures: list[Exception] = []

    def run(i: int) -> None:
        try:
            start.wait()
            work(i)
        except Exception as failure:  # handed to the test's own thread
            failures.append(failure)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    if failures:
        raise failures[0]


@pytest.fixture
def named_client(standalone_url: str, keys: Keys) -> Iterator[redis.Redis]:
    """A client of the standalone Redis whose every connection the server lists under the test's
    prefix; the test's keys are deleted afterwards."""
    client = redis.Redis.from_url(standalone_url, client_name=f"{keys.prefix}-appender", socket_timeout=5)
    yield client
    forget(client, keys.prefix)
    client.close()


def test_an_append_after_the_server_dropped_the_stores_connections_is_written_once(
    named_client: redis.Redis, standalone_url: str, keys: Keys
) -> None:
    store = EventStore(named_client, keys)
    store.create("m", {"game": "wizard"}, [made(i=0)], created_ms=1)
    answered: list[int] = []
    for i in (1, 2):
        store.append(
            "m", [made(i=i)], expected_version=i, extras=AppendExtras(meanwhile=lambda: answered.append(1))
        )
    # The server drops every connection the store holds (a restart, an idle timeout).
    admin = redis.Redis.from_url(standalone_url)
    for connection in admin.client_list():
        if connection.get("name") == named_client.connection_pool.connection_kwargs["client_name"]:
            admin.client_kill_filter(_id=connection["id"])
    result = store.append(
        "m", [made(i=3)], expected_version=3, extras=AppendExtras(meanwhile=lambda: answered.append(1))
    )
    assert (result.first, result.last, result.duplicate) == (4, 4, False)
    assert [e.data["i"] for e in store.read("m", 1, 10)] == [0, 1, 2, 3]
    assert answered == [1, 1, 1]
    admin.close()


def test_a_forked_process_appends_on_connections_of_its_own(named_client: redis.Redis, keys: Keys) -> None:
    store = EventStore(named_client, keys)
    for match_id in ("parent", "child"):
        store.create(match_id, {"game": "wizard"}, [made(i=0)], created_ms=1)
    # The parent's append leaves a connection for the next; the child is forked holding it.
    store.append("parent", [made(i=1)], expected_version=1, extras=AppendExtras(meanwhile=lambda: None))
    rounds = 150

    def append_all(match_id: str, start: int) -> None:
        for i in range(start, start + rounds):
            result = store.append(
                match_id, [made(i=i)], expected_version=i, extras=AppendExtras(meanwhile=lambda: None)
            )
            assert (result.first, result.last) == (i + 1, i + 1)

    pid = os.fork()
    if pid == 0:  # the child: both processes append at once, each on its own connections
        code = 0
        try:
            append_all("child", 1)
        except BaseException:
            code = 1
        os._exit(code)
    append_all("parent", 2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert [e.data["i"] for e in store.read("child", 1, 1000)] == list(range(rounds + 1))
    assert [e.data["i"] for e in store.read("parent", 1, 1000)] == list(range(rounds + 2))
