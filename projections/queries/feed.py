"""The global feed's reading side: pages of every match's public events, after a position.

The feed is ``Keys.feed_partitions`` streams (events/keys.py); a match's events are all in one of them, in
the match's order. A position is where a consumer stands: in one partition (``?partition=k``) a
number, the last position it has read; in the merged view of every partition a vector of those
numbers, one per partition, joined by dots (``"0"`` or nothing: the beginning). A page after a
position holds the next events and the position to resume after; read again from there, a
consumer misses nothing and sees nothing twice, whatever happened in between. The merged page
orders its events by the time they were published (each partition's in its own order).
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from typing import Any

import redis

from events.codec import as_text, loads
from events.defaults import FEED_MAX_SCAN, FEED_SCAN_FACTOR
from events.keys import Keys

_VECTOR = re.compile(r"^[0-9]{1,15}(\.[0-9]{1,15})*$")


class BadPosition(ValueError):
    """A position the feed cannot read after."""


@dataclass(frozen=True)
class FeedPage:
    """Events after a position, and the position to resume after."""

    events: list[dict[str, Any]]
    position: str
    # The position after each event (what an SSE stream sends as its id).
    after: list[str]


def parse(position: str | None, partition: int | None, partitions: int) -> list[int]:
    """The per-partition positions a position names; BadPosition with a sentence if none."""
    width = 1 if partition is not None else partitions
    text = (position or "0").strip()
    if not _VECTOR.match(text):
        raise BadPosition(f"the position {text!r} is not one the feed gave: numbers joined by dots")
    numbers = [int(n) for n in text.split(".")]
    if numbers == [0]:
        return [0] * width
    if len(numbers) != width:
        what = "one number" if width == 1 else f"{width} numbers joined by dots, one per partition"
        raise BadPosition(f"the position {text!r} does not fit this view of the feed: it takes {what}")
    return numbers


def spelled(numbers: list[int]) -> str:
    """A position as the feed writes it."""
    return ".".join(str(n) for n in numbers)


class FeedReader:
    """Reads pages of the feed, of one partition or of all of them merged."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.client = client
        self.keys = keys

    def head(self) -> str:
        """The merged view's position after its newest event (where a new follower starts now)."""
        with self.client.pipeline(transaction=False) as pipe:
            for k in range(self.keys.feed_partitions):
                pipe.xrevrange(self.keys.feed(k), "+", "-", count=1)
            found = pipe.execute()
        return spelled([_number(entries[0][0]) if entries else 0 for entries in found])

    def page(
        self,
        after: str | None,
        limit: int,
        game: str | None = None,
        types: frozenset[str] = frozenset(),
        partition: int | None = None,
    ) -> FeedPage:
        """Up to ``limit`` events after ``after`` (of ``game``, of ``types``, when given)."""
        count = self.keys.feed_partitions
        if partition is not None and not 0 <= partition < count:
            raise BadPosition(f"there are {count} partitions, numbered 0 to {count - 1}")
        start = parse(after, partition, count)
        parts = [partition] if partition is not None else list(range(count))
        filtered = game is not None or bool(types)
        scan = min(limit * FEED_SCAN_FACTOR, FEED_MAX_SCAN) if filtered else limit
        with self.client.pipeline(transaction=False) as pipe:
            for k, at in zip(parts, start, strict=True):
                pipe.xrange(self.keys.feed(k), f"{at + 1}-0", "+", count=scan)
            found = pipe.execute()
        merged = heapq.merge(
            *[
                [(int(f[b"a"]), slot, _number(entry), f) for entry, f in entries]
                for slot, entries in enumerate(found)
            ]
        )
        now = list(start)
        events: list[dict[str, Any]] = []
        positions: list[str] = []
        for read, (_, slot, number, fields) in enumerate(merged):
            if len(events) >= limit or read >= scan:
                break
            now[slot] = number
            if (game is None or as_text(fields[b"g"]) == game) and (
                not types or as_text(fields[b"t"]) in types
            ):
                events.append(_event(fields, parts[slot], number))
                positions.append(spelled(now))
        return FeedPage(events, spelled(now), positions)


def _number(entry: Any) -> int:
    return int(as_text(entry).split("-", 1)[0])


def _event(fields: dict[bytes, Any], partition: int, number: int) -> dict[str, Any]:
    event: dict[str, Any] = loads(as_text(fields[b"e"]))
    return {"match_id": as_text(fields[b"m"]), "partition": partition, "position": number, **event}
