"""TABLETAPE_WAIT_REPLICAS over HTTP: a write fewer replicas confirm is a 503 the client may retry."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.config import Settings


@pytest.fixture
def strict(settings: Settings, redis_client: redis.Redis) -> Iterator[FlaskClient]:
    """The API asking for more replicas than any test server has (so every write waits, briefly)."""
    app: Flask = create_app(dataclasses.replace(settings, wait_replicas=8, wait_timeout_ms=50))
    yield app.test_client()
    app.extensions["tabletape"].close()


def test_a_write_no_replica_confirms_is_a_503_with_retry_after_and_is_recorded_once(
    client: FlaskClient, strict: FlaskClient
) -> None:
    made = client.post(
        "/v1/matches",
        json={"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}},
    ).json
    auth = {"Authorization": f"Bearer {made['token']}", "Idempotency-Key": "round-1"}
    action = {"type": "start_round", "trump_card": "7H"}
    for _ in range(2):
        answer = strict.post(f"/v1/matches/{made['id']}/actions", json=action, headers=auth)
        assert answer.status_code == 503 and answer.headers["Retry-After"]
        assert answer.json["code"] == "not_replicated" and answer.json["wanted"] == 8
        assert "same Idempotency-Key" in answer.json["detail"]
    # Without the requirement the retry is answered from the first write: one start, not two.
    retried = client.post(f"/v1/matches/{made['id']}/actions", json=action, headers=auth)
    assert retried.status_code == 201
    log = client.get(f"/v1/matches/{made['id']}/events").json["events"]
    assert [e["type"] for e in log].count("RoundStarted") == 1
