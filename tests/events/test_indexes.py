"""The registry, the match indexes and the dirty marks read the same on one Redis and on a cluster,
where each is split into shards that spread over the masters."""

from __future__ import annotations

import random
from collections import Counter

import pytest
import redis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from events import indexes as indexes_module
from events.indexes import Index, Indexes, in_every
from events.keys import DIRTY_SHARDS, FEED_PARTITIONS_CLUSTER, INDEX_SHARDS, Keys, spread_tag
from events.marks import Marks
from events.servers import server_of


def scored(n: int, seed: int) -> dict[str, float]:
    """``n`` match ids with creation times, some of them equal (a tie is ordered by id)."""
    rng = random.Random(seed)
    return {f"{rng.getrandbits(64):016x}": float(rng.randrange(1_000, 1_060)) for _ in range(n)}


def newest_first(entries: dict[str, float]) -> list[str]:
    return [m for m, _ in sorted(entries.items(), key=lambda pair: (pair[1], pair[0]), reverse=True)]


def filled_registry(client: redis.Redis, keys: Keys, n: int, seed: int) -> tuple[Index, dict[str, float]]:
    """The registry of the test's store, holding ``n`` matches (``scored``)."""
    registry = Indexes(client, keys).registry()
    entries = scored(n, seed)
    registry.add(entries)
    return registry, entries


def test_a_page_of_the_registry_is_the_newest_first_page_of_every_match_whatever_the_shards(
    redis_client: redis.Redis, keys: Keys
) -> None:
    registry, entries = filled_registry(redis_client, keys, 120, seed=1)
    expected = newest_first(entries)
    for offset, limit in ((0, 50), (50, 50), (100, 50), (7, 13), (119, 5), (130, 10)):
        assert registry.newest(offset=offset, limit=limit) == expected[offset : offset + limit]
    assert registry.size() == 120
    window = {m: s for m, s in entries.items() if 1_010 <= s <= 1_030}
    assert registry.count(1_010, 1_030) == len(window)
    assert registry.newest(1_010, 1_030, 3, 20) == newest_first(window)[3:23]
    assert sorted(registry.members()) == sorted(entries)


def test_an_entry_added_only_when_new_keeps_its_first_score_and_a_removal_is_found_at_once(
    redis_client: redis.Redis, keys: Keys
) -> None:
    registry, entries = filled_registry(redis_client, keys, 30, seed=2)
    first = next(iter(entries))
    registry.add({first: 5.0}, only_new=True)
    assert registry.score(first) == entries[first]
    gone = list(entries)[1:11]
    registry.remove(gone)
    assert registry.scores([*gone, first]) == [None] * 10 + [entries[first]]
    assert registry.size() == 20


def test_matches_in_two_indexes_are_found_shard_by_shard(redis_client: redis.Redis, keys: Keys) -> None:
    indexes = Indexes(redis_client, keys)
    wizard, finished = indexes.entry("game", "wizard"), indexes.entry("status", "finished")
    games, done = scored(80, seed=3), scored(80, seed=4)
    both = dict(list(games.items())[:25])
    wizard.add(games)
    finished.add(dict(list(done.items())[:40]) | both)
    assert sorted(in_every([wizard, finished])) == sorted(both.items())
    assert sorted(in_every([wizard, finished], 1_000, 1_020)) == sorted(
        (m, s) for m, s in both.items() if s <= 1_020
    )


def test_on_a_cluster_the_registry_indexes_and_dirty_marks_spread_over_every_master(
    redis_client: redis.Redis, keys: Keys, on_cluster: bool
) -> None:
    indexes, marks = Indexes(redis_client, keys), Marks(redis_client, keys)
    registry, status = indexes.registry(), indexes.entry("status", "in_progress")
    if not on_cluster:
        # One Redis: one key each, as every release before the shards wrote them.
        assert registry.names == [keys.matches()] and status.names == [keys.index("status", "in_progress")]
        assert marks.dirty_keys() == [keys.dirty()]
        return
    masters = {
        f"{node.host}:{node.port}"
        for node in redis_client.get_nodes()  # type: ignore[attr-defined]
        if node.server_type == "primary"
    }

    def where(names: list[str]) -> set[str]:
        found = set()
        for name in names:
            server = server_of(redis_client, name)
            kwargs = server.connection_pool.connection_kwargs
            found.add(f"{kwargs['host']}:{kwargs['port']}")
        return found

    assert len(registry.names) > 1 and where(registry.names) == masters
    assert where(status.names) == masters
    assert where(marks.dirty_keys()) == masters
    # The shards of the registry and of the marks, and the feed's partitions, fall evenly: each
    # master holds as many as any other, or one fewer.
    feed = [keys.feed(p) for p in range(keys.feed_partitions)]
    for names in (registry.names, marks.dirty_keys(), feed):
        held = Counter(next(iter(where([name]))) for name in names)
        assert set(held) == masters and max(held.values()) - min(held.values()) <= 1, held
    # A match's mark and wake flag are one slot: the write's SADD and SET go to one master together.
    entries = scored(40, seed=5)
    marks.mark(entries)
    assert marks.count() == 40 and all(marks.marked(m) for m in entries)
    assert sorted(marks.take(100, hold=False)) == sorted(entries)


def test_an_intersection_walks_every_shard_page_by_page_and_misses_no_match(
    redis_client: redis.Redis, keys: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexes_module, "INDEX_PAGE", 7)  # pages of 7: many rounds in every shard
    indexes = Indexes(redis_client, keys)
    player, finished = indexes.entry("player", "ann"), indexes.entry("status", "finished")
    played = scored(150, seed=6)
    player.add(played)
    finished.add(dict(list(played.items())[::3]) | scored(40, seed=7))
    assert sorted(in_every([player, finished])) == sorted(list(played.items())[::3])


@pytest.mark.parametrize("masters", range(2, 17))
def test_the_shards_fall_evenly_on_any_number_of_masters_that_split_the_slots_evenly(masters: int) -> None:
    """The slot ranges ``redis-cli --cluster create`` gives each of ``masters`` masters: every
    cross-match key's shards fall as many on each master as on any other, or one fewer."""
    size = REDIS_CLUSTER_HASH_SLOTS / masters
    ranges = [(round(j * size), round((j + 1) * size)) for j in range(masters)]
    sharded = (("dirty", DIRTY_SHARDS), ("matches", INDEX_SHARDS), ("feed", FEED_PARTITIONS_CLUSTER))
    for name, shards in sharded:
        slots = [key_slot(spread_tag(name, shard, shards).encode()) for shard in range(shards)]
        held = [sum(low <= slot < high for slot in slots) for low, high in ranges]
        assert sum(held) == shards and max(held) - min(held) <= 1, (name, held)
