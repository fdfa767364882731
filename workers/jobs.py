"""RQ jobs: module-level functions with plain arguments, enqueued by name."""

from __future__ import annotations

import os
import time
from typing import Any

from rq import get_current_job

from events.keys import Keys
from projections.assembly import assemble

# A job projects again while writes keep coming, at most this many times; the sweep does the rest.
ROUNDS = 100


def project_match(match_id: str, prefix: str, snapshot_every: int) -> dict[str, Any]:
    """Bring one match's projection up to its log (idempotent; safe to run twice or at once)."""
    job = get_current_job()
    assert job is not None, "project_match runs inside an RQ job"
    delay = float(os.environ.get("TABLETAPE_SLOW_PROJECTION", "0") or 0)
    if delay:
        # Fault-injection aid: makes a projection slow enough to kill a worker in the middle.
        time.sleep(delay)
    projector = assemble(job.connection, Keys(prefix), snapshot_every).projector
    folded = 0
    for _ in range(ROUNDS):
        done = projector.project(match_id)
        folded += done.folded
        # Writes that found the match still dirty enqueued no job of their own: catch them up.
        if done.caught_up:
            break
    return {"match_id": match_id, "checkpoint": done.checkpoint, "folded": folded}
