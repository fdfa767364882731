"""Workers against a Redis that refuses or goes away: they live on, and one SIGTERM stops them."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from games.registry import get_game
from service.bootstrap import build
from service.config import Settings
from tests.e2e.faults.stack import RedisServer, Worker, service_env, wait_for

pytestmark = pytest.mark.e2e


def start_worker(tmp_path: Path, redis_server: RedisServer, prefix: str) -> Worker:
    """One `tabletape worker` process on the server, under ``prefix``."""
    worker = Worker(tmp_path, service_env(redis_server.url, prefix), 1)
    worker.start()
    return worker


def terminate_once(worker: Worker, seconds: float = 15.0) -> float:
    """Send one SIGTERM to the worker process; how long it took to exit (fails if it did not)."""
    assert worker.proc is not None
    sent = time.monotonic()
    os.kill(worker.proc.pid, signal.SIGTERM)
    try:
        worker.proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        worker.kill()
        raise AssertionError(f"one SIGTERM did not stop the worker:\n{worker.output()[-2000:]}") from None
    return time.monotonic() - sent


def test_a_worker_outlives_a_redis_out_of_memory_and_projects_once_it_has_room(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    prefix = f"tt-oom-{uuid.uuid4().hex[:8]}"
    parts = build(Settings(redis_url=redis_server.url, prefix=prefix), notify=lambda m: None)
    worker = start_worker(tmp_path, redis_server, prefix)
    client = parts.client
    try:
        script = get_game("wizard").example(0)
        made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
        client.config_set("maxmemory-policy", "noeviction")
        client.config_set("maxmemory", "1")
        time.sleep(4)  # the worker's loop, its heartbeats and its sweep are refused meanwhile
        assert worker.running, worker.output()[-2000:]
        client.config_set("maxmemory", "0")
        answer = parts.recorder.act(made.match_id, made.token, script["actions"][0])
        parts.queue.enqueue("workers.jobs.project_dirty", args=(prefix, 100))
        wait_for(lambda: parts.stored.checkpoint(made.match_id) == answer.version, "the projection", 30)
        assert terminate_once(worker) < 15
    finally:
        client.config_set("maxmemory", "0")
        worker.kill()
        parts.close()


def test_one_sigterm_stops_a_worker_while_redis_is_away(tmp_path: Path, redis_server: RedisServer) -> None:
    worker = start_worker(tmp_path, redis_server, f"tt-term-{uuid.uuid4().hex[:8]}")
    try:
        time.sleep(2)  # connected, swept, waiting for jobs
        redis_server.kill()
        time.sleep(1.5)  # the worker has seen the connection go and is trying again
        assert worker.running
        assert terminate_once(worker) < 15
    finally:
        worker.kill()
