"""Enqueueing projection jobs by name: the one place that knows the queue, the job and its options.

The API and the workers' sweep both enqueue through here; the job itself lives in workers.jobs and
is named, never imported, so the API does not depend on the workers.
"""

from __future__ import annotations

import uuid

import redis
from rq import Queue
from rq.serializers import JSONSerializer

from events.defaults import JOB_TIMEOUT
from events.keys import Keys

PROJECT_DIRTY = "workers.jobs.project_dirty"


def projection_queue(client: redis.Redis, keys: Keys, is_async: bool = True) -> Queue:
    """The RQ queue projection jobs go to (JSON-serialised, never pickle)."""
    return Queue(
        keys.queue_name(),
        connection=client,
        serializer=JSONSerializer,
        is_async=is_async,
        default_timeout=JOB_TIMEOUT,
    )


def enqueue_pass(queue: Queue, keys: Keys, snapshot_every: int) -> None:
    """Ask a worker for a pass over every dirty match.

    A queue that runs its jobs in the caller (``TABLETAPE_SYNC_PROJECTIONS``) runs the pass inside
    the write that asked for it: no other write can come while it runs, so it projects what is
    dirty and returns, instead of waiting a worker's idle time for more."""
    args: tuple[object, ...] = (keys.prefix, snapshot_every)
    if not queue.is_async:
        args += (0.0,)
    queue.enqueue(
        PROJECT_DIRTY,
        args=args,
        # RQ keeps each job under rq:job:<id>: an id with the prefix keeps deployments (and test
        # runs) sharing a server apart, so cleaning one prefix leaves none of its jobs behind.
        job_id=keys.job_id(uuid.uuid4().hex),
        result_ttl=10,
        failure_ttl=3600,
        description="project dirty matches",
    )
