"""Whole-process fixtures: `tabletape serve` started as a real process.

On one Redis it starts its own embedded one (no REDIS_URL), as a user's first run does; with
``--redis-cluster`` it stores the matches on the session's cluster and its queue on the
standalone Redis, as a deployment past one machine does.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from service.config import Settings
from tests.support.serving import free_port, wait_until_healthy
from workers.jobs import forget


@dataclass
class Served:
    """A running `tabletape serve`."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path
    data_dir: Path
    prefix: str
    env: dict[str, str]

    def store_env(self) -> dict[str, str]:
        """The environment another process uses to reach the same store (and prefix)."""
        if "REDIS_URL" in self.env:
            return dict(self.env)
        found = re.search(r"embedded Redis at (\S+)", self.log.read_text())
        assert found, self.log.read_text()
        return dict(self.env, REDIS_URL=found.group(1))


@contextmanager
def serve_process(tmp_path: Path, store_settings: Settings) -> Iterator[Served]:
    """`tabletape serve` with one worker on a free port: its own embedded Redis (no REDIS_URL), or
    the session's cluster; stopped with SIGTERM afterwards."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL" and not k.startswith("TABLETAPE_")}
    env["TABLETAPE_PREFIX"] = f"tt-e2e-{uuid.uuid4().hex[:8]}"
    if store_settings.redis_cluster:
        env |= {
            "REDIS_URL": store_settings.redis_url,
            "TABLETAPE_REDIS_CLUSTER": "1",
            "RQ_REDIS_URL": store_settings.rq_redis_url or "",
        }
    # Whole matches are recorded from one address, faster than any table would.
    env["TABLETAPE_RATE_LIMIT_WRITE"] = env["TABLETAPE_RATE_LIMIT_CREATE"] = "off"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "service.cli.main",
                "serve",
                "--port",
                str(port),
                "--data-dir",
                str(tmp_path / "var"),
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process, log)
        yield Served(url, process, log, tmp_path / "var", env["TABLETAPE_PREFIX"], env)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        if store_settings.rq_redis_url:
            # On the session's cluster the job queue is the machine's Redis: leave nothing there.
            forget(redis.Redis.from_url(store_settings.rq_redis_url), env["TABLETAPE_PREFIX"])


@pytest.fixture
def served(tmp_path: Path, store_settings: Settings) -> Iterator[Served]:
    """A serve of the test's own, for tests that stop it or read its data dir."""
    with serve_process(tmp_path, store_settings) as running:
        yield running


@pytest.fixture(scope="module")
def shared_serve(tmp_path_factory: pytest.TempPathFactory, store_settings: Settings) -> Iterator[Served]:
    """A serve shared by one module's tests that only record and read their own new matches
    (starting a serve costs seconds; each test still makes its own matches)."""
    with serve_process(tmp_path_factory.mktemp("serve"), store_settings) as running:
        yield running
