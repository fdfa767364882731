"""Fixtures for the API: an app on the real Redis under the test's prefix, and a real RQ worker."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from events.keys import Keys
from service.app import create_app
from service.config import Settings


@pytest.fixture
def app(redis_url: str, keys: Keys, redis_client: redis.Redis) -> Iterator[Flask]:
    """The API on the real server; projections are queued for a worker, as in production."""
    app = create_app(Settings(redis_url=redis_url, prefix=keys.prefix, snapshot_every=10))
    yield app
    app.extensions["tabletape"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the API."""
    return app.test_client()


@pytest.fixture
def work(app: Flask, keys: Keys) -> Callable[[], int]:
    """Run a real RQ worker until the projection queue is empty; return the jobs it did."""
    queue = app.extensions["tabletape"].queue

    def run() -> int:
        before = queue.count
        worker = SimpleWorker(
            [queue], connection=queue.connection, serializer=JSONSerializer, name=keys.worker_name("test")
        )
        worker.work(burst=True, logging_level="WARNING")
        return before

    return run


class Table:
    """A scorekeeping app's side of one match: create it, then send actions with its token."""

    def __init__(self, client: FlaskClient, game: str, players: list[str], **body: Any) -> None:
        self.client = client
        answer = client.post("/v1/matches", json={"game": game, "players": players, **body})
        assert answer.status_code == 201, answer.json
        self.created = answer.json
        self.id = answer.json["id"]
        self.token = answer.json["token"]

    @property
    def auth(self) -> dict[str, str]:
        """The write header."""
        return {"Authorization": f"Bearer {self.token}"}

    def act(self, action: dict[str, Any], **headers: str) -> Any:
        """POST an action; return the response."""
        return self.client.post(f"/v1/matches/{self.id}/actions", json=action, headers=self.auth | headers)

    def ok(self, action: dict[str, Any]) -> dict[str, Any]:
        """POST an action that must be accepted."""
        answer = self.act(action)
        assert answer.status_code == 201, (action, answer.json)
        return answer.json

    def post(self, what: str, **headers: str) -> Any:
        """POST undo or redo."""
        return self.client.post(f"/v1/matches/{self.id}/{what}", headers=self.auth | headers)

    def get(self, what: str = "", **query: Any) -> Any:
        """GET the match or one of its reads."""
        path = f"/v1/matches/{self.id}" + (f"/{what}" if what else "")
        return self.client.get(path, query_string=query)

    def log_length(self) -> int:
        """How many steps the log holds."""
        return int(self.get().json["version"])


@pytest.fixture
def table(client: FlaskClient) -> Callable[..., Table]:
    """Make a Table for a new match."""
    return lambda game, players, **body: Table(client, game, players, **body)
