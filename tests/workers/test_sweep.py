"""The sweep re-enqueues lagging matches, and a real RQ worker brings them up to their log."""

from __future__ import annotations

import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from events.keys import Keys
from events.store import EventStore
from games.registry import all_games
from projections.cache import ProjectionCache
from projections.queueing import projection_queue
from projections.reader import MatchReader
from projections.upcasting import game_upcasters
from service.recorder import Created, Recorder
from workers.sweep import sweep_all, sweep_dirty


def recorder(client: redis.Redis, keys: Keys) -> Recorder:
    """A recorder whose writes enqueue nothing (as if every job were lost)."""
    store = EventStore(client, keys, game_upcasters())
    return Recorder(store, MatchReader(store, ProjectionCache(client, keys)), lambda match_id: None)


def a_match_with_actions(client: redis.Redis, keys: Keys, actions: int) -> Created:
    """A Wizard match with some actions recorded and no projection job queued."""
    game = all_games()["wizard"]
    script = game.example(4)
    rec = recorder(client, keys)
    made = rec.create("wizard", script["players"], script["setup"], script["options"])
    for action in script["actions"][:actions]:
        rec.act(made.match_id, made.token, action)
    return made


def work_until_empty(client: redis.Redis, keys: Keys) -> None:
    """Run a real RQ worker on the projection queue until it is empty."""
    queue = projection_queue(client, keys)
    worker = SimpleWorker(
        [queue], connection=client, serializer=JSONSerializer, name=keys.worker_name("sweep-test")
    )
    worker.work(burst=True, logging_level="WARNING")


def test_the_full_sweep_finds_a_match_whose_projection_lags_its_log(
    redis_client: redis.Redis, keys: Keys
) -> None:
    made = a_match_with_actions(redis_client, keys, 12)
    queue = projection_queue(redis_client, keys)
    assert sweep_all(redis_client, keys, queue, snapshot_every=5) == 1
    work_until_empty(redis_client, keys)
    version = EventStore(redis_client, keys).version(made.match_id)
    assert version > 12
    assert ProjectionCache(redis_client, keys).checkpoint(made.match_id) == version
    assert sweep_all(redis_client, keys, queue, snapshot_every=5) == 0


def test_a_dirty_match_is_projected_again_and_then_leaves_the_dirty_set(
    redis_client: redis.Redis, keys: Keys
) -> None:
    made = a_match_with_actions(redis_client, keys, 5)
    redis_client.sadd(keys.dirty(), made.match_id)
    queue = projection_queue(redis_client, keys)
    assert sweep_dirty(redis_client, keys, queue, snapshot_every=5) == 1
    work_until_empty(redis_client, keys)
    version = EventStore(redis_client, keys).version(made.match_id)
    assert ProjectionCache(redis_client, keys).checkpoint(made.match_id) == version
    assert not redis_client.sismember(keys.dirty(), made.match_id)
    assert redis_client.zcard(keys.snap(made.match_id)) == version // 5
