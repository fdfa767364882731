"""The registry of matches and the match indexes: sorted sets of match ids by creation time.

On one Redis each is one key (``Keys.matches``, ``Keys.index``). On a Redis Cluster one key would
be one master every creation, every list and every leaderboard goes through: there each is split
into INDEX_SHARDS keys, a match's entry in the shard its id hashes to (the dirty marks' rule,
events/marks.py), each shard under a hash tag of its own so the shards of one index spread over
the masters. A read merges the shards: counts add up, the newest ``offset + limit`` of each shard
are merged into one page, and an intersection of indexes is taken shard by shard (a match is in
the same shard of every index). The number of shards is fixed for a deployment's life: an entry
must be found where it was put.

Every part that reads or writes an index goes through ``Index``, built by ``Indexes`` for its
client, so no other module chooses a shard.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import redis

from events.codec import as_text
from events.defaults import INDEX_PAGE
from events.keys import INDEX_SHARDS, Keys
from events.marks import is_cluster

Bound = float | str


class Index:
    """One sorted set of match ids by creation time, as stored: one key, or its shards."""

    def __init__(self, client: redis.Redis, names: list[str], keys: Keys) -> None:
        self.client = client
        self.names = names
        self._keys = keys

    def key(self, match_id: str) -> str:
        """The key that holds (or would hold) the match's entry."""
        if len(self.names) == 1:
            return self.names[0]
        return self.names[self._keys.shard_of(match_id, len(self.names))]

    def add(self, entries: Mapping[str, float], pipe: Any = None, only_new: bool = False) -> None:
        """List the matches with their scores (on ``pipe``, else at once); ``only_new`` keeps a
        score already there."""
        for key, part in self._grouped(entries).items():
            (pipe or self.client).zadd(key, {m: entries[m] for m in part}, nx=only_new)

    def remove(self, match_ids: Iterable[str], pipe: Any = None) -> None:
        """Take the matches off the index (on ``pipe``, else at once)."""
        for key, part in self._grouped(match_ids).items():
            (pipe or self.client).zrem(key, *part)

    def score(self, match_id: str) -> float | None:
        """The match's score, or None when it is not listed."""
        found = self.client.zscore(self.key(match_id), match_id)
        return None if found is None else float(found)

    def scores(self, match_ids: list[str]) -> list[float | None]:
        """Each match's score (None where it is not listed), in the order given."""
        grouped = self._grouped(match_ids)
        with self.client.pipeline(transaction=False) as pipe:
            for key, part in grouped.items():
                pipe.zmscore(key, part)
            answers = pipe.execute()
        found: dict[str, float | None] = {}
        for part, scores in zip(grouped.values(), answers, strict=True):
            found.update(zip(part, scores, strict=True))
        return [found[m] for m in match_ids]

    def size(self) -> int:
        """How many matches the index lists."""
        return sum(int(n) for n in self._each("zcard"))

    def count(self, lo: Bound = "-inf", hi: Bound = "+inf") -> int:
        """How many matches have a score in lo..hi."""
        return sum(int(n) for n in self._each("zcount", lo, hi))

    def newest(self, lo: Bound = "-inf", hi: Bound = "+inf", offset: int = 0, limit: int = 50) -> list[str]:
        """The match ids with a score in lo..hi, newest first (ties by id, descending): ``limit`` of
        them from position ``offset``."""
        if limit <= 0:
            return []
        if len(self.names) == 1:
            page = self.client.zrevrangebyscore(self.names[0], hi, lo, start=max(offset, 0), num=limit)
            return [as_text(m) for m in page]
        pages = self._each("zrevrangebyscore", hi, lo, 0, max(offset, 0) + limit, True)
        scored = [[(float(s), as_text(m)) for m, s in page] for page in pages]
        merged = heapq.merge(*scored, reverse=True)
        return [m for _, m in list(merged)[max(offset, 0) : max(offset, 0) + limit]]

    def members(self, batch: int = 500) -> Iterator[str]:
        """Every match id listed, in no particular order."""
        for name in self.names:
            for raw, _score in self.client.zscan_iter(name, count=batch):
                yield as_text(raw)

    def _each(self, command: str, *args: Any) -> list[Any]:
        """One command on every shard, pipelined (a cluster's pipeline sends each to its node)."""
        with self.client.pipeline(transaction=False) as pipe:
            for name in self.names:
                if command == "zrevrangebyscore":
                    hi, lo, start, num, scored = args
                    pipe.zrevrangebyscore(name, hi, lo, start=start, num=num, withscores=scored)
                else:
                    getattr(pipe, command)(name, *args)
            return list(pipe.execute())

    def _grouped(self, match_ids: Iterable[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = defaultdict(list)
        for match_id in match_ids:
            found[self.key(match_id)].append(match_id)
        return found


class Indexes:
    """The registry and the indexes of one store: one key each on one Redis, shards on a cluster."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.client = client
        self.keys = keys
        self.shards = INDEX_SHARDS if is_cluster(client) else 1

    def registry(self) -> Index:
        """Every match, by creation time."""
        if self.shards == 1:
            return Index(self.client, [self.keys.matches()], self.keys)
        return Index(self.client, [self.keys.matches_shard(n) for n in range(self.shards)], self.keys)

    def entry(self, kind: str, value: str) -> Index:
        """The matches of one index entry (a game, a player's name key, a status)."""
        if self.shards == 1:
            return Index(self.client, [self.keys.index(kind, value)], self.keys)
        return Index(
            self.client, [self.keys.index_shard(kind, value, n) for n in range(self.shards)], self.keys
        )


def in_every(indexes: list[Index], lo: Bound = "-inf", hi: Bound = "+inf") -> list[tuple[str, float]]:
    """(match id, score) of every match listed in each of ``indexes`` with a score in lo..hi.

    One key per command, so it works when the indexes live on different nodes of a cluster; shard
    by shard (a match's entry is in the same shard of every index); in each, it walks the smallest
    of the indexes' shards ``INDEX_PAGE`` members at a time and asks the others which of them they
    hold, so it costs O(size of the smallest). The shards are walked together: each step is one
    pipeline for every shard (one round trip per master on a cluster).
    """
    client = indexes[0].client
    shards = range(len(indexes[0].names))
    with client.pipeline(transaction=False) as pipe:
        for shard in shards:
            for index in indexes:
                pipe.zcard(index.names[shard])
        sizes = pipe.execute()
    width = len(indexes)
    # Per shard: its smallest index's key first, then the others'.
    walks = []
    for shard in shards:
        sized = sorted(
            zip(sizes[shard * width : (shard + 1) * width], (ix.names[shard] for ix in indexes), strict=True)
        )
        if sized[0][0]:
            walks.append([key for _, key in sized])
    found: list[tuple[str, float]] = []
    start = 0
    while walks:
        with client.pipeline(transaction=False) as pipe:
            for keys in walks:
                pipe.zrangebyscore(keys[0], lo, hi, start=start, num=INDEX_PAGE, withscores=True)
            pages: list[Any] = pipe.execute()
        with client.pipeline(transaction=False) as pipe:
            for keys, page in zip(walks, pages, strict=True):
                for key in keys[1:]:
                    if page:
                        pipe.zmscore(key, [member for member, _ in page])
            held = iter(pipe.execute())
        going = []
        for keys, page in zip(walks, pages, strict=True):
            if not page:
                continue
            others = [next(held) for _ in keys[1:]]
            for i, (member, score) in enumerate(page):
                if all(scores[i] is not None for scores in others):
                    found.append((as_text(member), float(score)))
            going.append(keys)
        walks = going
        start += INDEX_PAGE
    return found
