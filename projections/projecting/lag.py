"""How far behind the projections are: the age of the oldest write no projection has folded yet.

Read from Redis when asked (by /healthz and /metrics), so every API process sees the same: a
sample of the dirty set (the matches whose projection lags their log), and for each the first step
after its projection's checkpoint, whose time is in its meta. With no worker running (all dead,
or none started), this grows without bound, which is what a health check must notice.
"""

from __future__ import annotations

from datetime import datetime

import redis

from events.codec import decode, entry_id
from events.keys import Keys

SAMPLE = 50


def projection_lag(client: redis.Redis, keys: Keys, now: datetime, sample: int = SAMPLE) -> float:
    """Seconds since the oldest write of (a sample of) the lagging matches was recorded; 0 when none lags."""
    raw = client.srandmember(keys.dirty(), sample) or []
    lagging = [m.decode() if isinstance(m, bytes) else str(m) for m in raw]  # type: ignore[union-attr]
    if not lagging:
        return 0.0
    with client.pipeline(transaction=False) as pipe:
        for match_id in lagging:
            pipe.hget(keys.proj(match_id), "checkpoint")
        checkpoints = pipe.execute()
    with client.pipeline(transaction=False) as pipe:
        for match_id, checkpoint in zip(lagging, checkpoints, strict=True):
            first = entry_id(int(checkpoint or 0) + 1)
            pipe.xrange(keys.log(match_id), first, "+", count=1)
        firsts = pipe.execute()
    oldest = None
    for entries in firsts:
        for entry, fields in entries:
            ts = _recorded_at(decode(entry, fields).meta.get("ts"))
            if ts is not None and (oldest is None or ts < oldest):
                oldest = ts
    return max(0.0, (now - oldest).total_seconds()) if oldest is not None else 0.0


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
