"""Where projections live in Redis: the projected position and summary, and the snapshots.

No view and no scoreboard is stored: reads compute them from the position."""

from __future__ import annotations

import json
from typing import Any

import redis

from events.codec import as_text, dumps
from events.keys import Keys
from projections.positions import tape
from projections.positions.tape import Position

_SNAP_DIGITS = 12


def snapshot_member(pos: Position) -> str:
    """The sorted-set member that stores one snapshot."""
    return f"{pos['version']:0{_SNAP_DIGITS}d}|{dumps(pos)}"


class StoredProjections:
    """The stored projection of each match: its projection hash and its snapshots."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.client = client
        self.keys = keys

    def checkpoint(self, match_id: str) -> int:
        """The last step the projection has folded (0 when never projected)."""
        raw = self.client.hget(self.keys.proj(match_id), "checkpoint")
        return int(raw) if raw is not None else 0

    def projected(self, match_id: str) -> tuple[int, Position] | None:
        """(checkpoint, position there) of the projection, or None when never projected."""
        checkpoint, raw = self.client.hmget(self.keys.proj(match_id), ["checkpoint", "env"])
        if checkpoint is None or raw is None:
            return None
        return int(checkpoint), tape.thaw(raw)

    def field(self, match_id: str, name: str) -> tuple[int, Any] | None:
        """(checkpoint, value) of one projected field ("env", "summary"), or None."""
        checkpoint, raw = self.client.hmget(self.keys.proj(match_id), ["checkpoint", name])
        if checkpoint is None or raw is None:
            return None
        return int(checkpoint), json.loads(raw)

    def bases(self, match_id: str, at: int) -> list[Position]:
        """The projected position and the latest snapshot that are at or before step ``at``."""
        with self.client.pipeline(transaction=False) as pipe:
            pipe.hget(self.keys.proj(match_id), "env")
            pipe.zrevrangebyscore(self.keys.snap(match_id), at, "-inf", start=0, num=1)
            projected, snapshot = pipe.execute()
        found = [json.loads(as_text(s).split("|", 1)[1]) for s in snapshot]
        if projected is not None:
            pos = json.loads(projected)
            if pos["version"] <= at:
                found.append(pos)
        return found

    def nearest_snapshot(self, match_id: str, at: int) -> Position | None:
        """The latest snapshot at or before step ``at``."""
        found = self.client.zrevrangebyscore(self.keys.snap(match_id), at, "-inf", start=0, num=1)
        if not found:
            return None
        return json.loads(as_text(found[0]).split("|", 1)[1])
