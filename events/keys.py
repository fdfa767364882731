"""Every Redis key tabletape uses, spelled in one place.

A match's keys share the hash tag ``{<match_id>}`` so that a Redis Cluster keeps them in one slot
and one Lua script may touch them all. ``prefix`` lets several deployments (or test runs) share a
server without seeing each other.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import cache
from itertools import count

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

# The global feed's partitions: a match's public events go to one of them, by a hash of its id,
# so that on a Redis Cluster no one key takes every write. Fixed for a deployment's life: a
# match's partition, and so every consumer's position, depends on it. One Redis has 8; a Redis
# Cluster 64, so that no partition's master holds back a cluster of a hundred masters
# (docs/operations.md, bench/masters.py).
FEED_PARTITIONS = 8
FEED_PARTITIONS_CLUSTER = 64
# The dirty sets and wake flags of a Redis Cluster (events/marks.py): a match's marks go to one
# of them, by a hash of its id, so that no one key takes every write. Fixed for a deployment's
# life: a mark must be found where it was put.
DIRTY_SHARDS = 32
# The shards of the registry and of each match index on a Redis Cluster (events/indexes.py): a
# match's entries go to one of them, by a hash of its id. A read merges them all, so fewer than
# the dirty marks'. Fixed for a deployment's life, as the others.
INDEX_SHARDS = 16


@cache
def spread_tag(name: str, shard: int, shards: int) -> str:
    """The hash tag of shard ``shard`` of ``shards`` (without its braces): ``name-shard``, with the
    first suffix ``.k`` that puts its slot near the middle of the shard's own of ``shards`` equal
    ranges of a Redis Cluster's 16,384 slots. A cluster splits its slots into ranges, one or more
    per master, so the shards spread over the masters as evenly as their slots do: by their names
    alone, 32 shards fell 12, 11 and 9 on three masters, and the busiest took more than its share
    of every write."""
    if not 0 <= shard < shards:
        raise ValueError(f"there are {shards} {name} shards, numbered 0 to {shards - 1}: not {shard}")
    size = REDIS_CLUSTER_HASH_SLOTS / shards
    middle, reach = (shard + 0.5) * size, max(size / 16, 1.0)
    for k in count():
        tag = f"{name}-{shard}" if k == 0 else f"{name}-{shard}.{k}"
        if abs(key_slot(tag.encode()) + 0.5 - middle) <= reach:
            return tag
    raise AssertionError("unreachable: count() does not end")


@dataclass(frozen=True)
class Keys:
    """Key names under one prefix."""

    prefix: str = "tt"
    # How many partitions the global feed has (``for_store``).
    feed_partitions: int = FEED_PARTITIONS
    # Whether the feed's partitions are tagged to spread over a cluster's masters (``spread_tag``);
    # on one Redis they keep the names ``{feed-<k>}``.
    spread_feed: bool = False

    @classmethod
    def for_store(cls, prefix: str, cluster: bool) -> Keys:
        """The keys of a store on one Redis, or on a Redis Cluster (more feed partitions, spread
        evenly over the masters)."""
        if cluster:
            return cls(prefix, FEED_PARTITIONS_CLUSTER, spread_feed=True)
        return cls(prefix, FEED_PARTITIONS)

    def _match(self, match_id: str, part: str) -> str:
        return f"{self.prefix}:{{{match_id}}}:{part}"

    def log(self, match_id: str) -> str:
        """The match's event stream; entry id ``<seq>-0``."""
        return self._match(match_id, "log")

    def meta(self, match_id: str) -> str:
        """Hash: game, version, created_at, token_hash and other header fields."""
        return self._match(match_id, "meta")

    def credentials(self, match_id: str) -> str:
        """Hash: SHA-256 digests of the match's other tokens: ``seat:<player>`` for a seat's,
        ``table`` for the table's once it was reset (it then replaces the header's ``token_hash``),
        ``recovery`` for the recovery code. Never a token itself."""
        return self._match(match_id, "creds")

    def idem(self, match_id: str) -> str:
        """Hash: idempotency key -> the first answer's step range and request fingerprint."""
        return self._match(match_id, "idem")

    def snap(self, match_id: str) -> str:
        """Sorted set of snapshots scored by step; member ``<seq, 12 digits>|<state JSON>``."""
        return self._match(match_id, "snap")

    def proj(self, match_id: str) -> str:
        """Hash: the projection's checkpoint, its position frozen (field env), its summary and the
        basis of the read models written from it (models)."""
        return self._match(match_id, "proj")

    def carried(self, match_id: str) -> str:
        """Hash: the projection an append carries, as ``proj`` holds one; the append's script
        renames it to ``proj`` or deletes it (events/append.lua)."""
        return self._match(match_id, "carried")

    def meta_pattern(self) -> str:
        """A SCAN pattern that matches every match's header key under this prefix."""
        return f"{self.prefix}:{{*}}:meta"

    def match_of_meta(self, key: str) -> str | None:
        """The match id of a header key, or None when the key is not one."""
        head, tail = f"{self.prefix}:{{", "}:meta"
        if key.startswith(head) and key.endswith(tail) and len(key) > len(head) + len(tail):
            return key[len(head) : -len(tail)]
        return None

    def matches(self) -> str:
        """Sorted set of every match id, scored by creation time (ms)."""
        return f"{self.prefix}:matches"

    def matches_shard(self, shard: int) -> str:
        """One shard of the registry on a Redis Cluster (one Redis has ``matches``)."""
        return f"{self.prefix}:{{{spread_tag('matches', shard, INDEX_SHARDS)}}}"

    def dirty(self) -> str:
        """Set of match ids whose projection may lag their log (marked by every write)."""
        return f"{self.prefix}:dirty"

    @staticmethod
    def shard_of(match_id: str, shards: int) -> int:
        """Which of ``shards`` shards holds a match's entry or mark (the same for its whole life)."""
        return zlib.crc32(match_id.encode()) % shards

    def dirty_shard_of(self, match_id: str) -> int:
        """The shard of the dirty marks a match's writes go to on a Redis Cluster."""
        return self.shard_of(match_id, DIRTY_SHARDS)

    def dirty_shard(self, shard: int) -> str:
        """Set of the dirty match ids of one shard (a Redis Cluster's; one Redis has ``dirty``)."""
        return f"{self.prefix}:{{{spread_tag('dirty', shard, DIRTY_SHARDS)}}}:set"

    def wake_shard(self, shard: int) -> str:
        """The wake flag beside one shard's dirty set, in its slot (a Redis Cluster's)."""
        return f"{self.prefix}:{{{spread_tag('dirty', shard, DIRTY_SHARDS)}}}:wake"

    def health(self) -> str:
        """String /healthz writes (with a short expiry) to learn whether the store takes writes."""
        return f"{self.prefix}:health"

    def wake(self) -> str:
        """String present while a projection pass is queued and has not started yet."""
        return f"{self.prefix}:wake"

    def lease(self, match_id: str) -> str:
        """String held by the worker projecting the match, so two workers do not fold it twice."""
        return self._match(match_id, "lease")

    def index(self, kind: str, value: str) -> str:
        """Sorted set of match ids for one index entry (game, player, status), by creation time.
        A player's entry is named by the name's key (``games.players.name_key``), one for every
        spelling of one person: ``ann``, ``ANN`` and ``ａｎｎ``."""
        return f"{self.prefix}:idx:{kind}:{value}"

    def index_shard(self, kind: str, value: str, shard: int) -> str:
        """One shard of an index entry on a Redis Cluster (one Redis has ``index``). The hash tag
        names the entry by a hash (a name may hold braces) and the shard, so that the shards of
        one entry, and the entries, spread over the slots."""
        entry = zlib.crc32(f"{kind}:{value}".encode())
        return f"{self.prefix}:{{idx-{entry:08x}-{shard}}}:{kind}:{value}"

    def stats(self, name_key: str) -> str:
        """Hash of one player's statistics, by match, named by the name's key
        (``games.players.name_key``): one hash however the name is typed."""
        return f"{self.prefix}:stats:{name_key}"

    def live_wake(self, hub_id: str, match_id: str) -> str:
        """Stream that wakes one API process's live-feed reader when the logs it follows change.

        Tagged like ``match_id``'s keys, so that one XREAD may name it with that match's log (on a
        Redis Cluster: the same slot).
        """
        return f"{self.prefix}:{{{match_id}}}:live:{hub_id}"

    def feed_partition(self, match_id: str) -> int:
        """The feed partition a match's events go to (the same for the match's whole life)."""
        return zlib.crc32(match_id.encode()) % self.feed_partitions

    def feed(self, partition: int) -> str:
        """Stream of one feed partition's public events; entry id ``<position>-0``, positions
        1, 2, 3 … assigned once. Tagged per partition, so partitions spread evenly over a
        cluster's masters (``spread_feed``)."""
        return f"{self.prefix}:{{{self._feed_tag(partition)}}}:events"

    def feed_seen(self, partition: int) -> str:
        """Hash beside a feed partition: match id -> the last step published, and ``""`` -> the
        partition's last position (the publishing script's compare-and-set, in the same slot)."""
        return f"{self.prefix}:{{{self._feed_tag(partition)}}}:seen"

    def _feed_tag(self, partition: int) -> str:
        if self.spread_feed:
            return spread_tag("feed", partition, self.feed_partitions)
        return f"feed-{partition}"

    def hooks(self) -> str:
        """Hash: webhook id -> the hook as JSON (its URL, kinds, secret, whether it is paused)."""
        return f"{self.prefix}:hooks"

    def hook_position(self, hook_id: str) -> str:
        """String: the feed position up to which a hook's deliveries have been enqueued."""
        return f"{self.prefix}:hook:{hook_id}:position"

    def hook_log(self, hook_id: str) -> str:
        """List: a hook's delivery log, newest first, bounded."""
        return f"{self.prefix}:hook:{hook_id}:log"

    def hook_failures(self, hook_id: str) -> str:
        """String: a hook's failed attempts in a row (a success resets it)."""
        return f"{self.prefix}:hook:{hook_id}:failures"

    def hooks_due(self) -> str:
        """Sorted set of delivery retries waiting for their time, scored by it (unix seconds)."""
        return f"{self.prefix}:hooks:due"

    def hooks_dispatching(self) -> str:
        """String held while one worker turns new feed events into deliveries."""
        return f"{self.prefix}:hooks:dispatching"

    def rate_limits(self) -> str:
        """The prefix of the rate limiter's counters (the ``limits`` library adds the rest of each key)."""
        return f"{self.prefix}:limits"

    def bucket(self, scope: str, caller: str, n: int) -> str:
        """Hash: a caller's n-th token bucket of a scope (events/buckets.py); a caller's buckets
        share a hash tag, so one script takes from all of them on a Redis Cluster."""
        return f"{self.rate_limits()}:bucket:{{{scope}:{caller}}}:{n}"

    def queue_name(self) -> str:
        """The RQ queue the projection jobs go to."""
        return f"{self.prefix}-projections"

    def job_id(self, unique: str) -> str:
        """An RQ job's id; RQ spells its keys ``rq:job:<id>``, so the id carries the prefix."""
        return f"{self.prefix}-job-{unique}"

    def worker_name(self, unique: str) -> str:
        """An RQ worker's name; RQ spells its key ``rq:worker:<name>``, so the name carries the prefix."""
        return f"{self.prefix}-worker-{unique}"
