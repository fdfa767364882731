"""Fixtures for projections: the store, reader, projector and recorder on the real Redis."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import redis

from events.keys import Keys
from events.store import EventStore
from projections.cache import ProjectionCache
from projections.projector import Projector
from projections.reader import MatchReader
from projections.upcasting import game_upcasters
from service.recorder import Recorder


@dataclass
class Parts:
    """What a projection test drives."""

    store: EventStore
    cache: ProjectionCache
    reader: MatchReader
    projector: Projector
    recorder: Recorder
    client: redis.Redis
    keys: Keys


@pytest.fixture
def parts(redis_client: redis.Redis, keys: Keys) -> Parts:
    """Parts over the test's private prefix; a small snapshot interval so snapshots are used."""
    store = EventStore(redis_client, keys, game_upcasters())
    cache = ProjectionCache(redis_client, keys)
    reader = MatchReader(store, cache)
    recorder = Recorder(store, reader, notify=lambda match_id: None)
    return Parts(
        store, cache, reader, Projector(store, cache, snapshot_every=7), recorder, redis_client, keys
    )
