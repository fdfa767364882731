"""The worker process: RQ workers for projection jobs, plus the periodic sweep."""

from __future__ import annotations

import gc
import logging
import signal
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import redis
from redis.exceptions import RedisClusterException
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from events.defaults import FULL_SWEEP_EVERY, MAX_RECONNECT_WAIT, QUIET_SWEEP_EVERY, SWEEP_EVERY
from events.keys import Keys
from events.marks import is_cluster
from projections.hooks.delivery import dispatch, promote_due
from projections.hooks.registry import Hooks
from projections.projecting.queueing import projection_queue
from projections.queries.feed import FeedReader
from workers.jobs import use_store
from workers.sweep import sweep_all, sweep_dirty

log = logging.getLogger("tabletape.worker")
Connect = Callable[[], redis.Redis]
# The cycle collector's thresholds in a worker: a young generation a hundred times the default's.
# A worker holds the positions of many matches (up to ``events.defaults.POSITIONS_HELD``): nested
# dicts and lists, which the collector walks again at every older collection, though positions
# hold no cycles. With the default thresholds collections took about a tenth of a projection
# run's CPU; what they free (a run's few cycles) now waits a little longer.
GC_THRESHOLDS = (70_000, 10, 10)


def sweep_forever(
    connect: Connect,
    connect_store: Connect,
    keys: Keys,
    every: float,
    snapshot_every: int,
    stop: threading.Event,
    full_every: float = FULL_SWEEP_EVERY,
) -> None:
    """Sweep every match at start and every ``full_every`` seconds, the dirty set every ``every``
    (on one Redis every ``QUIET_SWEEP_EVERY`` too, for the matches marked without a wake-up), and
    the webhooks' due deliveries every ``every``."""
    queue = projection_queue(connect(), keys)
    client: redis.Redis | None = None
    full_at = time.monotonic()
    every_at = time.monotonic()
    while not stop.is_set():
        try:
            # Made here, so a store not answering yet (a cluster client asks at once) is retried.
            client = client or connect_store()
            now = time.monotonic()
            if now >= full_at:
                log.info("sweep: %d matches behind their log", sweep_all(client, keys, queue, snapshot_every))
                full_at = time.monotonic() + full_every
            elif now >= every_at or not is_cluster(client):
                sweep_dirty(client, keys, queue, snapshot_every)
            if now >= every_at:
                every_at = now + every
                # Webhooks: retries whose time has come, and feed events a pass left undelivered.
                promote_due(client, keys, queue)
                dispatch(Hooks(client, keys), FeedReader(client, keys), queue, keys.prefix)
        except (redis.RedisError, RedisClusterException) as exc:
            log.warning("sweep: Redis unavailable or refusing (%s); trying again", exc)
            # A write whose dirty mark was lost with Redis is found by comparing every match.
            full_at = time.monotonic()
        stop.wait(min(every, QUIET_SWEEP_EVERY))


def run_worker(
    connect: Connect,
    connect_sweep: Connect,
    connect_store: Connect,
    keys: Keys,
    snapshot_every: int,
    sweep_every: float = SWEEP_EVERY,
    burst: bool = False,
) -> None:
    """Run one RQ worker on the projection queue until stopped; survive Redis restarts.

    ``connect`` and ``connect_sweep`` make the connections to the queue's Redis of the RQ loop and
    of the sweep, ``connect_store`` those to the matches' store (the service's composition root
    says how); each is called again after Redis went away.
    """
    gc.set_threshold(*GC_THRESHOLDS)
    stop = threading.Event()
    sweeper = threading.Thread(
        target=sweep_forever,
        args=(connect_sweep, connect_store, keys, sweep_every, snapshot_every, stop),
        daemon=True,
    )
    sweeper.start()
    asked = _stop_on_signals(stop)
    try:
        while not stop.is_set():
            worker: SimpleWorker | None = None
            try:
                worker = _worker(connect(), keys, stop)
                use_store(connect_store())
                worker.work(burst=burst, logging_level="WARNING")
                # RQ's loop also returns when an error it does not handle (a Redis restart seen
                # outside its dequeue) stops it: only a requested stop or a burst ends the process.
                if burst:
                    return
                if not _was_asked(worker):
                    log.warning("worker: the RQ loop stopped without being asked; starting it again in 1 s")
            except (redis.RedisError, RedisClusterException) as exc:
                # Every Redis error, a refusal too (OOM under maxmemory), ends only this attempt.
                log.warning("worker: Redis unavailable or refusing (%s); reconnecting in 1 s", exc)
            finally:
                # A signal RQ took while Redis was failing (its teardown then raises) still stops
                # the process; and ours are back before any wait, since RQ's went with its loop.
                if worker is not None and _was_asked(worker):
                    stop.set()
                asked()
            stop.wait(1)
    finally:
        stop.set()


class ProjectionWorker(SimpleWorker):
    """A SimpleWorker (each job runs in the worker's own process: a projection job costs no fork)
    that honours a stop asked before its loop took the signals over, and stops within a second.

    RQ installs its own SIGTERM handler when its loop starts; a SIGTERM that came before (while
    connecting, or during RQ's start-up calls to Redis) set only the process's ``stop``, which RQ's
    loop never reads. When the signal came with Redis going away (a serve killed with -9 takes
    its embedded Redis along) the loop then retried the connection for ever. Read once the handlers
    are RQ's, ``stop`` becomes RQ's own stop request, which its loop checks before every dequeue.
    """

    def __init__(self, *args: Any, stop: threading.Event | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stop = stop or threading.Event()

    def _install_signal_handlers(self) -> None:
        super()._install_signal_handlers()
        if self.stop.is_set():
            self._stop_requested = True

    def unsubscribe(self) -> None:
        """Leave RQ's command channel, waiting at most a second for its listening thread.

        RQ's thread polls its channel every 60 s, and redis-py's ``stop()`` waits for the thread to
        end: a worker stopped before the channel's subscription was confirmed took up to a minute
        to exit. The thread is a daemon, so one still reading when the process ends holds nothing.
        """
        thread = self.pubsub_thread
        if thread is None:
            return
        try:
            self.pubsub.unsubscribe()
        except redis.RedisError:
            pass  # Redis is away: the thread's own read fails too and ends it
        try:
            thread.stop(timeout=1)
        except TypeError:
            thread.stop()  # redis-py before 8 only clears the thread's flag, waiting for nothing
        self.pubsub.close()


def _worker(client: redis.Redis, keys: Keys, stop: threading.Event) -> SimpleWorker:
    worker = ProjectionWorker(
        [projection_queue(client, keys)],
        connection=client,
        serializer=JSONSerializer,
        name=keys.worker_name(uuid.uuid4().hex),
        stop=stop,
    )
    # Back off at most this long while Redis is away, so a restart is noticed quickly.
    worker.max_connection_wait_time = MAX_RECONNECT_WAIT
    return worker


def _was_asked(worker: SimpleWorker) -> bool:
    asked = getattr(worker, "_shutdown_requested_date", None) is not None
    return asked or bool(getattr(worker, "_stop_requested", False))


def _stop_on_signals(stop: threading.Event) -> Callable[[], None]:
    """Make SIGTERM and SIGINT set ``stop``; the function returned installs that again."""

    def handle(signum: int, frame: Any) -> None:
        stop.set()

    def install() -> None:
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, handle)

    install()
    return install
