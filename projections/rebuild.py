"""Rebuilding every projection from the logs: state, snapshots, indexes and player statistics.

The log is the only source of truth. A rebuild takes one match at a time: it drops everything
derived from that match (its projection hash, its snapshots, its index entries and its entries in
its players' statistics) and projects it again from step 1. Matches are independent, so a rebuild
may be stopped and started again; a worker projecting the same match meanwhile writes the same
result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import redis

from events.keys import Keys
from events.store import EventStore
from projections.cache import ProjectionCache
from projections.projector import DEFAULT_SNAPSHOT_EVERY, Projector
from projections.summary import STATUSES
from projections.upcasting import game_upcasters


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild did."""

    matches: int
    events: int
    finished: int


def match_ids(client: redis.Redis, keys: Keys) -> Iterator[str]:
    """Every recorded match id (in no particular order)."""
    for raw, _score in client.zscan_iter(keys.matches(), count=500):
        yield raw.decode() if isinstance(raw, bytes) else str(raw)


def count_matches(client: redis.Redis, keys: Keys) -> int:
    """How many matches a rebuild would go through."""
    return int(client.zcard(keys.matches()))


def rebuild_match(projector: Projector, match_id: str) -> tuple[int, bool]:
    """Drop the match's derived data and project it from step 1; (events folded, finished)."""
    store, keys, client = projector.store, projector.keys, projector.client
    if not store.exists(match_id):
        return 0, False
    first = store.read(match_id, 1, 1)
    players = list(first[0].data.get("players", [])) if first else []
    game = store.header(match_id).get("game", "")
    with client.pipeline() as pipe:
        pipe.delete(keys.proj(match_id), keys.snap(match_id))
        pipe.zrem(keys.index("game", game), match_id)
        for status in STATUSES:
            pipe.zrem(keys.index("status", status), match_id)
        for player in players:
            pipe.zrem(keys.index("player", player), match_id)
            pipe.hdel(keys.stats(player), match_id)
        pipe.execute()
    done = projector.project(match_id)
    finished = projector.cache.field(match_id, "summary")
    return done.folded, bool(finished and finished[1].get("finished"))


def rebuild_all(
    client: redis.Redis,
    keys: Keys,
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
    on_match: Callable[[str], None] | None = None,
) -> Rebuilt:
    """Rebuild every match's projections from its log; ``on_match`` is told of each one done."""
    store = EventStore(client, keys, game_upcasters())
    projector = Projector(store, ProjectionCache(client, keys), snapshot_every)
    matches = events = finished = 0
    for match_id in list(match_ids(client, keys)):
        folded, done = rebuild_match(projector, match_id)
        matches += 1
        events += folded
        finished += int(done)
        if on_match is not None:
            on_match(match_id)
    return Rebuilt(matches, events, finished)
