"""Where projections live in Redis: the projected position and summary, and the snapshots.

No view and no scoreboard is stored: reads compute them from the position."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

import redis

from events.codec import as_text, dumps
from events.keys import Keys
from events.marks import Marks
from projections.positions import tape
from projections.positions.tape import Position

_SNAP_DIGITS = 12
log = logging.getLogger("tabletape.projections")


def project_again(client: redis.Redis, keys: Keys, match_ids: Iterable[str]) -> None:
    """Hand matches whose projection cannot be read back to the workers: the projection goes (its
    read models are written again with the next one) and the matches are marked dirty, so the next
    pass projects them from their logs. Nothing a reader found unreadable is trusted again."""
    found = sorted(set(match_ids))
    if not found:
        return
    log.warning("unreadable projection of %s: projected again from the log", ", ".join(found))
    with client.pipeline(transaction=False) as pipe:
        for match_id in found:
            # One key per command: a cluster's pipeline sends each to the node that holds it.
            pipe.delete(keys.proj(match_id))
        Marks(client, keys).mark(found, pipe)
        pipe.execute()


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
        pos = stored_position(raw)
        if pos is None:
            # Not what a projection writes: the workers project the match again from its log.
            project_again(self.client, self.keys, [match_id])
            return None
        return int(checkpoint), pos

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
        # A snapshot or position that cannot be read is passed over (``verify`` reports it, and
        # ``rebuild`` writes it again); an unreadable position is projected again at once.
        found = [pos for s in snapshot if (pos := stored_position(as_text(s).split("|", 1)[-1])) is not None]
        if projected is not None:
            pos = stored_position(projected)
            if pos is None:
                project_again(self.client, self.keys, [match_id])
            elif pos["version"] <= at:
                found.append(pos)
        return found

    def nearest_snapshot(self, match_id: str, at: int) -> Position | None:
        """The latest snapshot at or before step ``at``."""
        found = self.client.zrevrangebyscore(self.keys.snap(match_id), at, "-inf", start=0, num=1)
        if not found:
            return None
        return stored_position(as_text(found[0]).split("|", 1)[-1])


def stored_position(raw: bytes | str) -> Position | None:
    """A stored position, or None when it is not one (not JSON, or not an object with a step
    number and a game state)."""
    try:
        pos = tape.thaw(raw)
    except ValueError:
        return None
    if (
        not isinstance(pos, dict)
        or not isinstance(pos.get("version"), int)
        or not isinstance(pos.get("game"), dict)
    ):
        return None
    return pos
