"""The dirty marks: which matches' projections may lag their logs, and the flags that wake a pass.

On one Redis there is one dirty set and one wake flag (``Keys.dirty``, ``Keys.wake``), which the
append script writes in its own atomic run. On a Redis Cluster one set and one flag would be two
keys every write goes through, on one master: there the marks are split into DIRTY_SHARDS pairs,
a match's pair chosen by a hash of its id (``Keys.dirty_shard``), each pair under its own hash tag
so the shards spread over the masters and a write's SADD and SET go to one of them together. A
pass reads, holds and lowers every shard (``workers.drain``); a write that raises its shard's flag
enqueues a pass unless one is already waiting (``service.bootstrap``), since a waiting pass reads
every shard once it starts.

Every part that reads or writes the marks goes through ``Marks``, built for its client; the
number of shards is fixed, as the feed's partitions are: a mark must be found where it was put.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import redis

from events.codec import as_text
from events.defaults import WAKE_SECONDS
from events.keys import DIRTY_SHARDS, Keys
from events.servers import Group, on_servers


def is_cluster(client: object) -> bool:
    """Whether ``client`` (or a pipeline of it) speaks to a Redis Cluster."""
    return hasattr(client, "get_node_from_key")


class Marks:
    """The dirty sets and wake flags of one store: one pair on one Redis, DIRTY_SHARDS on a cluster."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.client = client
        self.keys = keys
        self.sharded = is_cluster(client)
        self._pairs = (
            [(keys.dirty_shard(n), keys.wake_shard(n)) for n in range(DIRTY_SHARDS)]
            if self.sharded
            else [(keys.dirty(), keys.wake())]
        )

    def of(self, match_id: str) -> tuple[str, str]:
        """The dirty set and the wake flag a match's writes mark."""
        return self._pairs[self.keys.dirty_shard_of(match_id)] if self.sharded else self._pairs[0]

    def dirty_keys(self) -> list[str]:
        """Every dirty set."""
        return [dirty for dirty, _ in self._pairs]

    def by_set(self, match_ids: Iterable[str]) -> dict[str, list[str]]:
        """``match_ids`` grouped by the dirty set that holds their marks."""
        found: dict[str, list[str]] = defaultdict(list)
        for match_id in match_ids:
            found[self.of(match_id)[0]].append(match_id)
        return found

    def mark(self, match_ids: Iterable[str], client: Any = None) -> None:
        """Mark the matches dirty (on ``client``, a pipeline for instance, else in one send)."""
        self._each("SADD", match_ids, client)

    def unmark(self, match_ids: Iterable[str], client: Any = None) -> None:
        """Take the matches off their dirty sets."""
        self._each("SREM", match_ids, client)

    def marked(self, match_id: str) -> bool:
        """Whether the match is marked dirty."""
        return bool(self.client.sismember(self.of(match_id)[0], match_id))

    def count(self) -> int:
        """How many matches are marked dirty, over every shard."""
        replies = self._send([(d, [("SCARD", d)]) for d in self.dirty_keys()])
        return sum(int(found[0]) for found in replies)

    def sample(self, size: int) -> list[str]:
        """Up to ``size`` dirty matches, taken at random from every shard."""
        return self._take(size, [])

    def take(self, size: int, hold: bool) -> list[str]:
        """Up to ``size`` dirty matches, read after raising every wake flag again (``hold``, a pass
        that goes on) or lowering it (a pass about to end: a write it does not see raises its
        shard's flag again and enqueues the next pass)."""
        flag: list[tuple[Any, ...]] = []
        for _, wake in self._pairs:
            flag.append(("SET", wake, 1, "EX", WAKE_SECONDS) if hold else ("DEL", wake))
        return self._take(size, flag)

    def _take(self, size: int, flags: list[tuple[Any, ...]]) -> list[str]:
        groups: list[Group] = []
        for i, (dirty, _) in enumerate(self._pairs):
            # A flag and its set share a slot: raised or lowered before its set is read.
            groups.append((dirty, [*flags[i : i + 1], ("SRANDMEMBER", dirty, size)]))
        found: set[str] = set()
        for replies in self._send(groups):
            found.update(as_text(raw) for raw in replies[-1] or [])
        # More than ``size`` over the shards: a random ``size`` of them, as one set's SRANDMEMBER.
        return sorted(random.sample(sorted(found), size) if len(found) > size else found)

    def _each(self, command: str, match_ids: Iterable[str], client: Any) -> None:
        grouped = self.by_set(match_ids)
        if not grouped:
            return
        if client is not None:
            for dirty, ids in grouped.items():
                client.execute_command(command, dirty, *ids)
            return
        self._send([(dirty, [(command, dirty, *ids)]) for dirty, ids in grouped.items()])

    def _send(self, groups: Sequence[Group]) -> list[list[Any]]:
        answered = on_servers(self.client, groups)
        for reply in (reply for found in answered for reply in found):
            if isinstance(reply, Exception):
                raise reply
        return answered
