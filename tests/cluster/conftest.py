"""A deployment past one machine, as real processes: a Redis Cluster, a standalone Redis for the job
queue, the API under gunicorn and `tabletape worker`s, all configured by the environment only."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis

from service.bootstrap import Services, build
from service.config import Settings
from tests.e2e.faults.stack import Api, Deployed, RedisServer, Worker, service_env
from tests.support.figures import figures_plugin
from tests.support.redis_cluster import Cluster, redis_cluster

SNAPSHOT_EVERY = 25


@dataclass
class Deployment(Deployed):
    """The processes of one deployment on a cluster, and how to look inside its store."""

    folder: Path
    cluster: Cluster
    queue: RedisServer
    api: Api
    prefix: str
    extra: dict[str, str]
    workers: list[Worker] = field(default_factory=list)

    def env(self) -> dict[str, str]:
        """The environment every process of the deployment is started with (every node named, so
        a process started while one is down finds the others)."""
        return service_env(
            ",".join(f"redis://127.0.0.1:{port}/0" for port in self.cluster.ports),
            self.prefix,
            TABLETAPE_REDIS_CLUSTER="1",
            RQ_REDIS_URL=self.queue.url,
            TABLETAPE_SNAPSHOT_EVERY=str(SNAPSHOT_EVERY),
            **self.extra,
        )

    def start_worker(self) -> Worker:
        """Start one more `tabletape worker`."""
        worker = Worker(self.folder, self.env(), len(self.workers) + 1)
        worker.start()
        self.workers.append(worker)
        return worker

    def parts(self) -> Services:
        """Every part over the deployment's store, as `tabletape verify` builds them."""
        settings = Settings.from_env(self.env(), redis_timeout=10, wait_replicas=0)
        return build(settings, notify=lambda match_id: None)

    def keys_per_master(self) -> dict[int, int]:
        """How many of the deployment's keys each master holds, by port."""
        return {port: _count(port, f"{self.prefix}*") for port in self.cluster.masters()}

    def matches_per_master(self) -> dict[int, int]:
        """How many matches (their headers) each master holds, by port."""
        return {port: _count(port, f"{self.prefix}:{{*}}:meta") for port in self.cluster.masters()}

    def feed_partitions_per_master(self) -> dict[int, int]:
        """How many of the global feed's partitions each master serves (by their keys' slots), by port."""
        parts = self.parts()
        try:
            keys = parts.keys
            ports = [parts.client.get_node_from_key(keys.feed(k)).port for k in range(keys.feed_partitions)]
        finally:
            parts.close()
        return {port: ports.count(port) for port in self.cluster.masters()}

    def logs(self) -> str:
        """What the API and the workers wrote."""
        return "\n".join(p.output() for p in (self.api, *self.workers))

    def stop(self) -> None:
        """Stop the workers, the API and the queue's Redis (the cluster is stopped by its owner)."""
        for worker in self.workers:
            worker.stop()
        self.api.stop()
        self.queue.stop()


def _count(port: int, pattern: str) -> int:
    client = redis.Redis(port=port, socket_timeout=5)
    try:
        return sum(1 for _ in client.scan_iter(match=pattern, count=1000))
    finally:
        client.close()


@contextmanager
def deployment(folder: Path, replicas: int = 0, workers: int = 2, **extra: str) -> Iterator[Deployment]:
    """A cluster of 3 masters (``replicas`` each), the queue's Redis, gunicorn and ``workers`` workers."""
    with redis_cluster(folder / "cluster", masters=3, replicas=replicas) as cluster:
        queue = RedisServer(folder / "queue")
        queue.start()
        prefix = f"tt-cluster-{uuid.uuid4().hex[:8]}"
        running = Deployment(folder, cluster, queue, Api(folder, {}), prefix, dict(extra))
        running.api.env = running.env()
        try:
            running.api.start()
            for _ in range(workers):
                running.start_worker()
            yield running
        finally:
            running.stop()


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """A deployment on a 3-master cluster, shared by one module's tests."""
    with deployment(tmp_path_factory.mktemp("deployment")) as running:
        yield running


figure, pytest_terminal_summary = figures_plugin("cluster figures")
