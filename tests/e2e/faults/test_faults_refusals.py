"""Redis answering "not now" (replicas gone, a replica's read-only copy, a primary lost, a script
past its time): every write is a 503 with Retry-After that says why, never a 500, reads go on where
Redis serves them, /healthz reports it, and writes resume by themselves once the cause is gone."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from games.registry import get_game
from service.app import create_app
from service.config import Settings
from tests.e2e.faults.stack import RedisServer, free_port, wait_for

pytestmark = pytest.mark.e2e

SCRIPT = get_game("wizard").example(0)
BODY = {"game": "wizard", **{k: SCRIPT[k] for k in ("players", "setup", "options")}}


@pytest.fixture
def primary(redis_server: RedisServer) -> RedisServer:
    """The test's own Redis server: the primary its replicas follow."""
    return redis_server


def api(url: str, prefix: str) -> FlaskClient:
    """The API over ``url`` (rate limits off: the tests write from one address)."""
    app = create_app(Settings(redis_url=url, prefix=prefix, redis_timeout=3, sync_projections=True))
    return app.test_client()


def created(web: FlaskClient) -> dict[str, Any]:
    """A Wizard match with its first action recorded (so that an undo and the next action are legal)."""
    match = web.post("/v1/matches", json=BODY).json
    auth = {"Authorization": f"Bearer {match['token']}"}
    assert (
        web.post(f"/v1/matches/{match['id']}/actions", json=SCRIPT["actions"][0], headers=auth).status_code
        == 201
    )
    return dict(match)


def writes(web: FlaskClient, match: dict[str, Any]) -> dict[str, Any]:
    """The answers to the next action, an undo and a create."""
    auth = {"Authorization": f"Bearer {match['token']}"}
    return {
        "action": web.post(f"/v1/matches/{match['id']}/actions", json=SCRIPT["actions"][1], headers=auth),
        "undo": web.post(f"/v1/matches/{match['id']}/undo", headers=auth),
        "create": web.post("/v1/matches", json=BODY),
    }


def refused_now(answers: dict[str, Any], reason: str) -> None:
    """Every answer is a 503 store_unavailable naming ``reason``, with Retry-After."""
    for name, answer in answers.items():
        assert answer.status_code == 503, (name, answer.status_code, answer.get_data(as_text=True))
        assert answer.json["code"] == "store_unavailable" and answer.json["reason"] == reason, answer.json
        assert "nothing was recorded" in answer.json["detail"]
        assert int(answer.headers["Retry-After"]) >= 1


def test_writes_without_the_replicas_redis_requires_are_503s_and_healthz_says_why(
    primary: RedisServer, figure: Callable[[str], None]
) -> None:
    web = api(primary.url, f"tt-norepl-{uuid.uuid4().hex[:8]}")
    match = web.post("/v1/matches", json=BODY).json
    auth = {"Authorization": f"Bearer {match['token']}"}
    assert (
        web.post(f"/v1/matches/{match['id']}/actions", json=SCRIPT["actions"][0], headers=auth).status_code
        == 201
    )
    client = redis.Redis.from_url(primary.url)
    client.config_set("min-replicas-to-write", "1")
    try:
        answers = writes(web, match)
        refused_now(answers, "NOREPLICAS")
        assert web.get(f"/v1/matches/{match['id']}/events").status_code == 200
        health = web.get("/healthz")
        assert (health.status_code, health.json["reason"]) == (503, "NOREPLICAS"), health.json
        figure(
            "min-replicas-to-write with no replica: "
            + ", ".join(f"{k} {v.status_code}" for k, v in answers.items())
            + f", /healthz {health.status_code}"
        )
    finally:
        client.config_set("min-replicas-to-write", "0")
    assert web.get("/healthz").status_code == 200
    assert (
        web.post(f"/v1/matches/{match['id']}/actions", json=SCRIPT["actions"][1], headers=auth).status_code
        == 201
    )


def test_a_replica_answers_reads_and_refuses_writes_with_503_until_it_is_promoted(
    primary: RedisServer, tmp_path: Path
) -> None:
    prefix = f"tt-ro-{uuid.uuid4().hex[:8]}"
    match = created(api(primary.url, prefix))
    replica = RedisServer(tmp_path / "replica", "--replicaof", "127.0.0.1", str(primary.port))
    replica.start()
    try:
        wait_for(
            lambda: redis.Redis.from_url(replica.url).exists(f"{prefix}:matches") == 1, "replication", 20
        )
        web = api(replica.url, prefix)
        assert web.get(f"/v1/matches/{match['id']}/events").status_code == 200
        refused_now(writes(web, match), "READONLY")
        assert web.get("/healthz").json["reason"] == "READONLY"
        redis.Redis.from_url(replica.url).replicaof("NO", "ONE")  # the failover's promotion
        assert web.get("/healthz").status_code == 200
        assert web.post("/v1/matches", json=BODY).status_code == 201
    finally:
        replica.stop()


def test_a_replica_that_lost_its_primary_answers_503_for_everything_it_will_not_serve(tmp_path: Path) -> None:
    orphan = RedisServer(tmp_path / "orphan", "--replica-serve-stale-data", "no")
    orphan.start()
    try:
        redis.Redis.from_url(orphan.url).replicaof("127.0.0.1", str(free_port()))  # a primary gone
        web = api(orphan.url, f"tt-masterdown-{uuid.uuid4().hex[:8]}")
        for answer in (web.post("/v1/matches", json=BODY), web.get("/v1/matches"), web.get("/healthz")):
            assert answer.status_code == 503 and answer.json["reason"] == "MASTERDOWN", answer.json
    finally:
        orphan.stop()


def test_a_script_running_past_its_time_limit_makes_writes_wait_with_503_not_fail(
    primary: RedisServer,
) -> None:
    client = redis.Redis.from_url(primary.url)
    client.config_set("lua-time-limit", "50")
    web = api(primary.url, f"tt-busy-{uuid.uuid4().hex[:8]}")
    match = created(web)
    looping = threading.Thread(target=_loop_forever, args=(primary.url,), daemon=True)
    looping.start()
    try:
        wait_for(lambda: _busy(client), "Redis busy with the endless script", 10)
        refused_now(writes(web, match), "BUSY")
    finally:
        wait_for(lambda: _killed(client), "the endless script killed", 10)
        looping.join(timeout=10)
    assert web.post("/v1/matches", json=BODY).status_code == 201


def _loop_forever(url: str) -> None:
    try:
        redis.Redis.from_url(url, socket_timeout=30).eval("while true do end", 0)
    except redis.RedisError:
        pass  # killed by SCRIPT KILL, as the test intends


def _busy(client: redis.Redis) -> bool:
    try:
        client.ping()
        return False
    except redis.ResponseError as error:
        return str(error).startswith("BUSY")


def _killed(client: redis.Redis) -> bool:
    try:
        client.script_kill()
    except redis.ResponseError:
        pass  # no script running (any more)
    return not _busy(client)
