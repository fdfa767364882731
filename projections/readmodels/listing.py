"""The match list: filtered by the indexes the projector keeps, newest first.

Each index is a key of its own, and on a Redis Cluster two indexes hash to different slots, so
no command may take several of them: filters on more than one index are intersected here, by
walking the smallest index a page at a time and asking the others which of its members they hold.
"""

from __future__ import annotations

from typing import Any

import redis

from events.codec import as_texts
from events.indexes import in_every
from events.keys import Keys
from events.store import EventStore
from games.players import name_key
from projections.positions.stored import project_again
from projections.projecting.summary import readable


class MatchList:
    """Reads of the match indexes and the projected summaries."""

    def __init__(self, client: redis.Redis, keys: Keys, store: EventStore) -> None:
        self.client = client
        self.keys = keys
        self.store = store

    def ids(
        self,
        filters: dict[str, str],
        since_ms: int | None = None,
        until_ms: int | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[str], int]:
        """Match ids newest first, and how many match in all."""
        # A player's index is named by the name's key: any spelling of one person finds their matches.
        named = {k: name_key(v) if k == "player" else v for k, v in filters.items()}
        indexes = [self.store.indexes.entry(kind, value) for kind, value in sorted(named.items())]
        lo = since_ms if since_ms is not None else "-inf"
        hi = until_ms if until_ms is not None else "+inf"
        if len(indexes) > 1:
            scored = in_every(indexes, lo, hi)
            scored.sort(key=lambda pair: (-pair[1], pair[0]))
            return [m for m, _ in scored[offset : offset + limit]], len(scored)
        source = indexes[0] if indexes else self.store.registry
        return source.newest(lo, hi, offset, limit), source.count(lo, hi)

    def summaries(self, match_ids: list[str]) -> list[dict[str, Any]]:
        """The projected summary of each match (a short one from its header if not yet projected)."""
        with self.client.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hget(self.keys.proj(match_id), "summary")
                pipe.hgetall(self.keys.meta(match_id))
            answers = pipe.execute()
        found, unreadable = [], []
        for i, match_id in enumerate(match_ids):
            raw, header = answers[2 * i], answers[2 * i + 1]
            summary = readable(raw)
            if raw is not None and summary is None:
                unreadable.append(match_id)
            if summary is not None:
                found.append(summary)
            elif header:
                found.append(self._unprojected(match_id, header))
        project_again(self.client, self.keys, unreadable)
        return found

    @staticmethod
    def _unprojected(match_id: str, header: dict[bytes, bytes]) -> dict[str, Any]:
        fields = as_texts(header)
        return {
            "id": match_id,
            "game": fields.get("game"),
            "status": "in_progress",
            "finished": False,
            "created_ms": int(fields.get("created_ms", 0)),
            "version": int(fields.get("version", 0)),
            "projected": False,
        }
