"""A stop asked before RQ's loop takes the signals over is still honoured by that loop.

`tabletape worker` catches SIGTERM itself until RQ's loop starts and installs its own handler. A
SIGTERM that came in between (while connecting, or during RQ's start-up calls) used to set only
the process's stop, which RQ's loop never read: when the signal came with Redis going away, as
when a serve killed with -9 takes its embedded Redis along, the worker then retried the
connection for ever and outlived its serve."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from service.bootstrap import Services
from workers.main import _worker


@pytest.mark.timeout(60)
def test_a_worker_asked_to_stop_before_its_loop_started_does_not_wait_for_jobs(parts: Services) -> None:
    stop = threading.Event()
    worker = _worker(parts.queue.connection, parts.keys, stop)
    stop.set()  # the SIGTERM the process took before RQ's loop installed its handler
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    started = time.monotonic()
    try:
        # Without the stop carried over, RQ's loop blocks in its dequeue for minutes (the timeout
        # fails the test) and, with Redis gone, retries the connection for ever.
        worker.work(burst=False, logging_level="WARNING")
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    assert time.monotonic() - started < 20, "the worker waited for jobs after its stop was asked"
