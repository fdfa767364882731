"""The worker process: RQ workers for projection jobs, plus the periodic sweep."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable

import redis
from redis.exceptions import RedisClusterException
from rq import Worker
from rq.serializers import JSONSerializer

from events.keys import Keys
from projections.queueing import projection_queue
from workers.jobs import use_store
from workers.sweep import sweep_all, sweep_dirty

log = logging.getLogger("tabletape.worker")
MAX_RECONNECT_WAIT = 4.0
Connect = Callable[[], redis.Redis]


def sweep_forever(
    connect: Connect,
    connect_store: Connect,
    keys: Keys,
    every: float,
    snapshot_every: int,
    stop: threading.Event,
) -> None:
    """Sweep at start (every match) and then every ``every`` seconds (the dirty set)."""
    queue = projection_queue(connect(), keys)
    client: redis.Redis | None = None
    first = True
    while not stop.is_set():
        try:
            # Made here, so a store not answering yet (a cluster client asks at once) is retried.
            client = client or connect_store()
            if first:
                log.info("sweep: %d matches behind their log", sweep_all(client, keys, queue, snapshot_every))
                first = False
            else:
                sweep_dirty(client, keys, queue, snapshot_every)
        except (redis.RedisError, RedisClusterException) as exc:
            log.warning("sweep: Redis unavailable (%s); trying again", exc)
            # A write whose dirty mark was lost with Redis is found by comparing every match.
            first = True
        stop.wait(every)


def run_worker(
    connect: Connect,
    connect_sweep: Connect,
    connect_store: Connect,
    keys: Keys,
    snapshot_every: int,
    sweep_every: float = 2.0,
    burst: bool = False,
) -> None:
    """Run one RQ worker on the projection queue until stopped; survive Redis restarts.

    ``connect`` and ``connect_sweep`` make the connections to the queue's Redis of the RQ loop and
    of the sweep, ``connect_store`` those to the matches' store (the service's composition root
    says how); the RQ loop's is made again after Redis went away.
    """
    stop = threading.Event()
    sweeper = threading.Thread(
        target=sweep_forever,
        args=(connect_sweep, connect_store, keys, sweep_every, snapshot_every, stop),
        daemon=True,
    )
    sweeper.start()
    try:
        while True:
            try:
                client = connect()
                use_store(connect_store())
                queue = projection_queue(client, keys)
                worker = Worker(
                    [queue],
                    connection=client,
                    serializer=JSONSerializer,
                    name=keys.worker_name(uuid.uuid4().hex),
                )
                # Back off at most this long while Redis is away, so a restart is noticed quickly.
                worker.max_connection_wait_time = MAX_RECONNECT_WAIT
                worker.work(burst=burst, logging_level="WARNING")
                # RQ's loop also returns when an error it does not handle (a Redis restart seen
                # outside its dequeue) stops it: only a requested stop or a burst ends the process.
                # RQ marks a stop asked by a signal with its date (an idle worker stops at once,
                # without setting _stop_requested).
                asked = getattr(worker, "_shutdown_requested_date", None) is not None
                if burst or asked or getattr(worker, "_stop_requested", False):
                    return
                log.warning("worker: the RQ loop stopped without being asked; starting it again in 1 s")
            except (redis.ConnectionError, redis.TimeoutError, RedisClusterException) as exc:
                log.warning("worker: Redis unavailable (%s); reconnecting in 1 s", exc)
            time.sleep(1)
    finally:
        stop.set()
