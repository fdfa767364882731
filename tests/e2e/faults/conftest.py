"""Fixtures of the fault-injection suite: Redis (AOF, appendfsync always), gunicorn and RQ workers."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis

from service.bootstrap import Services, build
from service.config import Settings
from tests.e2e.faults.stack import Api, Deployed, RedisServer, Worker, service_env, wait_for
from tests.support.figures import figures_plugin

SNAPSHOT_EVERY = 25


@dataclass
class Stack(Deployed):
    """A whole deployment on this machine: Redis, the API under gunicorn, and RQ workers."""

    folder: Path
    redis: RedisServer
    api: Api
    prefix: str
    workers: list[Worker] = field(default_factory=list)
    extra_env: dict[str, str] = field(default_factory=dict)

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of the deployment's processes."""
        return service_env(self.redis.url, self.prefix, **(self.extra_env | extra))

    def start_worker(self, slow: float = 0.0, **extra: str) -> Worker:
        """Start one more RQ worker process (one that sleeps ``slow`` seconds before each job)."""
        worker = Worker(self.folder, self.env(**extra), len(self.workers) + 1, slow)
        worker.start()
        self.workers.append(worker)
        return worker

    def client(self) -> redis.Redis:
        """A Redis client of the deployment's server."""
        return redis.Redis.from_url(self.redis.url, socket_timeout=10)

    def parts(self) -> Services:
        """Every part over the deployment's Redis and prefix, as `tabletape verify` builds them."""
        settings = Settings(
            redis_url=self.redis.url, prefix=self.prefix, snapshot_every=SNAPSHOT_EVERY, redis_timeout=10
        )
        return build(settings, notify=lambda match_id: None)

    def log(self, match_id: str) -> list[dict[str, Any]]:
        """The match's whole log as Redis holds it (reads over HTTP may hold back secret facts)."""
        return [event.as_dict() for event in self.parts().store.iter_events(match_id)]

    def checkpoint(self, match_id: str) -> int:
        """How far the workers have projected the match."""
        raw = self.client().hget(self.keys.proj(match_id), "checkpoint")
        return int(raw) if raw is not None else 0

    def converged(self, match_id: str, version: int, seconds: float = 60) -> float:
        """Wait until the match is projected to ``version``; return how long that took."""
        return wait_for(
            lambda: self.checkpoint(match_id) == version,
            f"the projection of {match_id} reaching step {version}",
            seconds,
            0.02,
        )

    def logs(self) -> str:
        """Everything the processes wrote, access log included."""
        parts = [p.output() for p in (self.redis, self.api, *self.workers)]
        if self.api.access_log.exists():
            parts.append(self.api.access_log.read_text(encoding="utf-8", errors="replace"))
        return "\n".join(parts)

    def stop(self) -> None:
        """Stop every process (workers, API, then Redis)."""
        for worker in self.workers:
            worker.stop()
        self.api.stop()
        self.redis.stop()


def start_stack(folder: Path, workers: int = 2, redis_options: tuple[str, ...] = (), **extra: str) -> Stack:
    """Start Redis, gunicorn with 2 workers and ``workers`` RQ workers."""
    server = RedisServer(folder / "redis", *redis_options)
    server.start()
    prefix = f"tt-faults-{uuid.uuid4().hex[:8]}"
    env = service_env(server.url, prefix, TABLETAPE_SNAPSHOT_EVERY=str(SNAPSHOT_EVERY), **extra)
    api = Api(folder, env)
    stack = Stack(
        folder, server, api, prefix, extra_env={"TABLETAPE_SNAPSHOT_EVERY": str(SNAPSHOT_EVERY), **extra}
    )
    try:
        api.start()
        for _ in range(workers):
            stack.start_worker()
    except Exception:
        stack.stop()
        raise
    return stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A deployment shared by the tests of one module (tests that inject no fault)."""
    running = start_stack(tmp_path_factory.mktemp("stack"))
    yield running
    running.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis server of the test's own, nothing else started."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def fresh_stack(tmp_path: Path) -> Iterator[Stack]:
    """A deployment of the test's own, without RQ workers (the test starts them), for faults."""
    running = start_stack(tmp_path, workers=0)
    yield running
    running.stop()


figure, pytest_terminal_summary = figures_plugin("fault-injection figures")
