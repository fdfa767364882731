"""The composition root: one place that wires Redis, the store, the reader, the queue and the recorder."""

from __future__ import annotations

from dataclasses import dataclass

import redis
from rq import Queue

from events.keys import Keys
from events.store import EventStore
from projections.cache import ProjectionCache
from projections.listing import MatchList
from projections.queueing import enqueue_projection, projection_queue
from projections.reader import MatchReader
from projections.upcasting import game_upcasters
from service.config import Settings
from service.recorder import Recorder


@dataclass
class Services:
    """The parts a request needs, built once per app."""

    settings: Settings
    client: redis.Redis
    keys: Keys
    store: EventStore
    cache: ProjectionCache
    reader: MatchReader
    matches: MatchList
    queue: Queue
    recorder: Recorder

    def close(self) -> None:
        """Close the Redis connections."""
        self.client.close()
        self.queue.connection.close()


def build(settings: Settings) -> Services:
    """Wire every part from the settings."""
    timeout = settings.redis_timeout
    client = redis.Redis.from_url(settings.redis_url, socket_timeout=timeout, socket_connect_timeout=timeout)
    rq_client = (
        redis.Redis.from_url(settings.rq_redis_url, socket_timeout=timeout, socket_connect_timeout=timeout)
        if settings.rq_redis_url
        else client
    )
    keys = Keys(settings.prefix)
    store = EventStore(client, keys, game_upcasters())
    cache = ProjectionCache(client, keys)
    reader = MatchReader(store, cache)
    queue = projection_queue(rq_client, keys, is_async=not settings.sync_projections)

    def notify(match_id: str) -> None:
        # A match already dirty has a projection job pending or running, and that job keeps
        # projecting until the match is clean, so one job per burst of writes is enough.
        if client.sadd(keys.dirty(), match_id) or settings.sync_projections:
            enqueue_projection(queue, keys, match_id, settings.snapshot_every)

    recorder = Recorder(store, reader, notify)
    matches = MatchList(client, keys, store)
    return Services(settings, client, keys, store, cache, reader, matches, queue, recorder)
