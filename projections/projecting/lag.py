"""How far behind the projections are: how long the oldest write no projection has folded has waited.

Read from Redis when asked (by /healthz and /metrics): a sample of the dirty set (the matches whose
projection lags their log), and for each the first step after its projection's checkpoint. A
match's lag is the time since that step was recorded (its meta's ``ts``), but never more than the
time since this process first saw the match waiting at that checkpoint: an imported or forked
match carries the times of its origin, and must not read as hours behind the moment it is created.
With no worker running (all dead, or none started) the lag grows without bound, which is what a
health check must notice.
"""

from __future__ import annotations

import threading
from datetime import datetime

import redis

from events.codec import decode, entry_id
from events.keys import Keys
from events.marks import Marks

SAMPLE = 50
# Matches this process remembers seeing wait, and how long it remembers one it no longer sees.
REMEMBERED = 10_000
FORGET_SECONDS = 600.0


class LagWatch:
    """The lag of the projections, as one API process sees it over successive looks."""

    def __init__(self, sample: int = SAMPLE) -> None:
        self.sample = sample
        # (match, checkpoint) -> (first seen waiting there, last seen), in seconds since the epoch.
        self._seen: dict[tuple[str, int], tuple[float, float]] = {}
        self._lock = threading.Lock()

    def lag(self, client: redis.Redis, keys: Keys, now: datetime) -> float:
        """Seconds the oldest write of (a sample of) the lagging matches has waited; 0 when none lags."""
        waiting = _first_waiting(client, keys, self.sample)
        at = now.timestamp()
        worst = 0.0
        with self._lock:
            for (match_id, checkpoint), recorded in waiting.items():
                first, _ = self._seen.get((match_id, checkpoint), (at, at))
                self._seen[(match_id, checkpoint)] = (first, at)
                waited = at - first if recorded is None else min(at - first, (now - recorded).total_seconds())
                worst = max(worst, waited)
            self._forget(at)
        return max(0.0, worst)

    def _forget(self, at: float) -> None:
        stale = [k for k, (_, last) in self._seen.items() if at - last > FORGET_SECONDS]
        for key in stale:
            del self._seen[key]
        if len(self._seen) > REMEMBERED:
            for key in sorted(self._seen, key=lambda k: self._seen[k][1])[: len(self._seen) - REMEMBERED]:
                del self._seen[key]


def _first_waiting(client: redis.Redis, keys: Keys, sample: int) -> dict[tuple[str, int], datetime | None]:
    """For a sample of the lagging matches: (match, checkpoint) -> when its first unprojected step
    was recorded."""
    lagging = Marks(client, keys).sample(sample)
    if not lagging:
        return {}
    with client.pipeline(transaction=False) as pipe:
        for match_id in lagging:
            pipe.hget(keys.proj(match_id), "checkpoint")
        checkpoints = [int(c or 0) for c in pipe.execute()]
    with client.pipeline(transaction=False) as pipe:
        for match_id, checkpoint in zip(lagging, checkpoints, strict=True):
            pipe.xrange(keys.log(match_id), entry_id(checkpoint + 1), "+", count=1)
        firsts = pipe.execute()
    found: dict[tuple[str, int], datetime | None] = {}
    for match_id, checkpoint, entries in zip(lagging, checkpoints, firsts, strict=True):
        if entries:  # none: the projection caught up since the sample was taken
            entry, fields = entries[0]
            found[(match_id, checkpoint)] = _recorded_at(decode(entry, fields).meta.get("ts"))
    return found


def _recorded_at(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


class ProjectionsLagging(Exception):
    """The projections lag their logs past the deployment's limit (no worker runs, or too few)."""

    def __init__(self, seconds: float, limit: float) -> None:
        super().__init__(
            f"the projections lag the logs by {seconds:.0f} s, past the limit of {limit:g} s "
            "(TABLETAPE_PROJECTION_LAG_LIMIT): scores, statistics and leaderboards are behind; "
            "check that the workers run"
        )
        self.seconds = seconds
        self.limit = limit
