"""The match list: filtered by the indexes the projector keeps, newest first."""

from __future__ import annotations

import json
from typing import Any

import redis

from events.codec import as_text
from events.keys import Keys
from events.store import EventStore


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
        indexes = [self.keys.index(kind, value) for kind, value in sorted(filters.items())]
        if not indexes:
            source = self.keys.matches()
        elif len(indexes) == 1:
            source = indexes[0]
        else:
            found: Any = self.client.zinter(indexes, aggregate="MAX", withscores=True)
            scored = [(as_text(pair[0]), float(pair[1])) for pair in found]
            return self._window(scored, since_ms, until_ms, offset, limit)
        lo = since_ms if since_ms is not None else "-inf"
        hi = until_ms if until_ms is not None else "+inf"
        total = self.client.zcount(source, lo, hi)
        page = self.client.zrevrangebyscore(source, hi, lo, start=offset, num=limit)
        return [as_text(m) for m in page], int(total)

    def summaries(self, match_ids: list[str]) -> list[dict[str, Any]]:
        """The projected summary of each match (a short one from its header if not yet projected)."""
        with self.client.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hget(self.keys.proj(match_id), "summary")
                pipe.hgetall(self.keys.meta(match_id))
            answers = pipe.execute()
        found = []
        for i, match_id in enumerate(match_ids):
            summary, header = answers[2 * i], answers[2 * i + 1]
            if summary is not None:
                found.append(json.loads(summary))
            elif header:
                found.append(self._unprojected(match_id, header))
        return found

    @staticmethod
    def _unprojected(match_id: str, header: dict[bytes, bytes]) -> dict[str, Any]:
        fields = {as_text(k): as_text(v) for k, v in header.items()}
        return {
            "id": match_id,
            "game": fields.get("game"),
            "status": "in_progress",
            "finished": False,
            "created_ms": int(fields.get("created_ms", 0)),
            "version": int(fields.get("version", 0)),
            "projected": False,
        }

    def _window(
        self,
        scored: list[tuple[str, float]],
        since_ms: int | None,
        until_ms: int | None,
        offset: int,
        limit: int,
    ) -> tuple[list[str], int]:
        kept = [
            (m, s)
            for m, s in scored
            if (since_ms is None or s >= since_ms) and (until_ms is None or s <= until_ms)
        ]
        kept.sort(key=lambda pair: (-pair[1], pair[0]))
        return [m for m, _ in kept[offset : offset + limit]], len(kept)
