"""Fixtures for the API: an app on the real Redis under the test's prefix, a real RQ worker, and matches."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from click.testing import CliRunner, Result
from flask import Flask
from flask.testing import FlaskClient
from rq.serializers import JSONSerializer

from events.keys import Keys
from service.app import create_app
from service.cli.main import main
from service.config import Settings
from tests.recording import play
from workers.jobs import use_store
from workers.main import ProjectionWorker
from workers.sweep import sweep_dirty


@pytest.fixture
def app(settings: Settings, redis_client: redis.Redis) -> Iterator[Flask]:
    """The API on the real server; projections are queued for a worker, as in production."""
    app = create_app(dataclasses.replace(settings, snapshot_every=10))
    yield app
    app.extensions["tabletape"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the API."""
    return app.test_client()


@pytest.fixture
def work(app: Flask, keys: Keys) -> Iterator[Callable[[], int]]:
    """Run a real RQ worker until the projection queue is empty, after a look at the dirty set as
    a worker's sweep takes one (a match marked without a wake-up gets its pass); return the jobs
    it did."""
    services = app.extensions["tabletape"]
    queue = services.queue

    def run() -> int:
        sweep_dirty(services.client, services.keys, queue, services.settings.snapshot_every)
        before = queue.count
        worker = ProjectionWorker(
            [queue], connection=queue.connection, serializer=JSONSerializer, name=keys.worker_name("test")
        )
        worker.work(burst=True, logging_level="WARNING")
        return before

    # As `tabletape worker` does: the jobs find the matches on the store, the queue may be elsewhere.
    use_store(services.client)
    yield run
    use_store(None)


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


# Example seeds with short matches per game (the examples run from 4 to 700 actions), so that a
# test driving every game stays quick; two sets, so that tests see different matches.
SHORT = {"hat-trick": 1, "hats": 0, "hobbit": 1, "other-hat-trick": 6, "wizard": 7}
OTHER = {"hat-trick": 11, "hats": 3, "hobbit": 5, "other-hat-trick": 11, "wizard": 10}


def record(
    table: Callable[..., Table],
    game_id: str,
    seed: int,
    upto: int | None = None,
    act: Callable[[Table, dict[str, Any]], Any] = Table.ok,
) -> Table:
    """A match of ``game_id`` with the first ``upto`` actions (all by default) of example ``seed``.

    ``act`` sends each action (by default one that must be accepted).
    """

    def start(game_id: str, script: dict[str, Any]) -> Table:
        return table(game_id, script["players"], setup=script["setup"], options=script["options"])

    return play(start, act, game_id, seed, upto)


@pytest.fixture
def recorded(table: Callable[..., Table]) -> Callable[..., Table]:
    """Record (part of) a game's example match through the API."""
    return lambda game_id, seed=1, upto=None: record(table, game_id, seed, upto)


@pytest.fixture
def cli(store_env: dict[str, str]) -> Callable[..., Result]:
    """Run a `tabletape` command against the test's Redis and prefix (keywords add to its environment)."""
    return lambda *args, **extra: CliRunner().invoke(
        main, list(args), env=store_env | extra, catch_exceptions=False
    )


def lines(answer: Any) -> list[dict[str, Any]]:
    """The JSON values of an NDJSON answer."""
    return [json.loads(line) for line in answer.get_data(as_text=True).splitlines() if line.strip()]
