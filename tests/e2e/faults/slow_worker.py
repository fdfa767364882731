"""`tabletape worker` whose every projection job first sleeps: slow enough to kill it mid-job.

    python tests/e2e/faults/slow_worker.py <seconds> worker --sweep-every 0.5

The worker runs its jobs in its own process (RQ's SimpleWorker), so the job module patched here is
the one its jobs run.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from service.cli.main import main
from workers import jobs


def slowed(seconds: float) -> None:
    """Make every projection job of this process sleep ``seconds`` before it projects."""
    parts = jobs._parts

    def slow_parts(prefix: str, snapshot_every: int) -> Any:
        time.sleep(seconds)
        return parts(prefix, snapshot_every)

    jobs._parts = slow_parts


if __name__ == "__main__":
    slowed(float(sys.argv.pop(1)))
    sys.exit(main())
