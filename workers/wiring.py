"""Building the projection parts from a Redis connection, for jobs and the sweep."""

from __future__ import annotations

import redis

from events.keys import Keys
from events.store import EventStore
from projections.cache import ProjectionCache
from projections.projector import Projector
from projections.upcasting import game_upcasters


def projector_for(client: redis.Redis, keys: Keys, snapshot_every: int) -> Projector:
    """A projector over this connection and key prefix."""
    store = EventStore(client, keys, game_upcasters())
    return Projector(store, ProjectionCache(client, keys), snapshot_every)
