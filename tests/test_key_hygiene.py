"""A test run on a shared Redis leaves nothing behind outside its own key prefix, RQ's keys included."""

from __future__ import annotations

import uuid

import redis
from flask import Flask
from rq import Queue, Worker
from rq.serializers import JSONSerializer

from events.keys import Keys
from service.app import create_app
from service.config import Settings
from workers.jobs import forget
from workers.main import ProjectionWorker


def _mentions(client: redis.Redis, name: bytes, prefix: bytes) -> bool:
    """Whether a key belongs to the prefix by its name or, for RQ's hashes, by what it holds."""
    if prefix in name:
        return True
    kind = client.type(name)
    if kind == b"hash":
        return any(prefix in value for value in client.hvals(name))
    if kind in (b"set", b"zset"):
        members = client.smembers(name) if kind == b"set" else client.zrange(name, 0, -1)
        return any(prefix in member for member in members)
    return False


def test_recording_and_projecting_leaves_no_key_outside_the_prefix_once_it_is_forgotten(
    redis_url: str,
) -> None:
    keys = Keys(prefix="tt-test-hygiene-" + uuid.uuid4().hex[:8])
    client = redis.Redis.from_url(redis_url)
    before = set(client.scan_iter(count=1000))
    app: Flask = create_app(Settings(redis_url=redis_url, prefix=keys.prefix))
    try:
        http = app.test_client()
        made = http.post(
            "/v1/matches",
            json={"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}},
        ).json
        auth = {"Authorization": f"Bearer {made['token']}"}
        assert (
            http.post(
                f"/v1/matches/{made['id']}/actions",
                json={"type": "start_round", "trump_card": "7H"},
                headers=auth,
            ).status_code
            == 201
        )
        queue: Queue = app.extensions["tabletape"].queue
        ProjectionWorker(
            [queue], connection=client, serializer=JSONSerializer, name=keys.worker_name("hygiene")
        ).work(burst=True, logging_level="WARNING")
        made_now = set(client.scan_iter(count=1000)) - before
        # RQ's two shared sets list every queue and worker of every user (they may be created by
        # this run, on a Redis nobody else uses); forget takes out only this run's entries.
        shared_sets = {Queue.redis_queues_keys.encode(), Worker.redis_workers_keys.encode()}
        outside = [
            n
            for n in made_now - shared_sets
            if keys.prefix.encode() not in n and _mentions(client, n, keys.prefix.encode())
        ]
        assert outside == [], f"keys of this run without its prefix in their name: {outside}"
    finally:
        app.extensions["tabletape"].close()
        forget(client, keys.prefix)
    left = [
        n for n in set(client.scan_iter(count=1000)) - before if _mentions(client, n, keys.prefix.encode())
    ]
    assert left == []
    shared = client.smembers(Queue.redis_queues_keys) | client.smembers(Worker.redis_workers_keys)
    assert not [m for m in shared if keys.prefix.encode() in m]
