"""RQ jobs: module-level functions with plain arguments, enqueued by name."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import redis
from rq import get_current_job

from events.keys import Keys
from projections.assembly import Projections, assemble
from workers.drain import drain

# A worker process runs jobs one after another without forking, so it keeps its projection
# parts (and the headers they have read) from one job to the next.
_PARTS: dict[tuple[int, str, int], Projections] = {}
_LOCK = threading.Lock()


def project_dirty(prefix: str, snapshot_every: int) -> dict[str, Any]:
    """Project every dirty match this worker can lease, for a few seconds at most."""
    parts = _parts(prefix, snapshot_every)
    return {"projected": drain(parts.projector, Keys(prefix))}


def project_match(match_id: str, prefix: str, snapshot_every: int) -> dict[str, Any]:
    """Bring one match's projection up to its log (idempotent; safe to run twice or at once)."""
    done = _parts(prefix, snapshot_every).projector.project(match_id)
    return {"match_id": match_id, "checkpoint": done.checkpoint, "folded": done.folded}


def _parts(prefix: str, snapshot_every: int) -> Projections:
    job = get_current_job()
    assert job is not None, "projection jobs run inside an RQ job"
    delay = float(os.environ.get("TABLETAPE_SLOW_PROJECTION", "0") or 0)
    if delay:
        # Fault-injection aid: makes a projection slow enough to kill a worker in the middle.
        time.sleep(delay)
    connection: redis.Redis = job.connection
    key = (id(connection), prefix, snapshot_every)
    with _LOCK:
        if key not in _PARTS:
            _PARTS.clear()
            _PARTS[key] = assemble(connection, Keys(prefix), snapshot_every)
        return _PARTS[key]
