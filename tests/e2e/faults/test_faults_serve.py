"""`tabletape serve` as one unit on a bad day: killed, stopped, restarted on a pid someone took, a
worker killed, no worker at all. Every process it starts must go with it, and it must come back."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
import redis
import requests

from games.registry import get_game
from service.run.embedded_redis import RUN_DIR
from tests.e2e.faults.serving import Serve, serving
from tests.e2e.faults.stack import wait_for

pytestmark = pytest.mark.e2e

NS_LAST_PID = Path("/proc/sys/kernel/ns_last_pid")


def create(url: str) -> dict[str, str]:
    """A Wizard match of three; its id and token."""
    made = requests.post(
        f"{url}/v1/matches",
        json={"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    return {"id": made.json()["id"], "token": made.json()["token"]}


def store_of(serve: Serve) -> redis.Redis:
    """A client of the serve's embedded Redis, found as the other commands find it (serve.json)."""
    record = json.loads((serve.data_dir / "serve.json").read_text())
    return redis.Redis.from_url(record["redis_url"], socket_timeout=5)


def children_named(serve: Serve, word: str) -> list[psutil.Process]:
    """The serve's direct children whose command line holds ``word``."""
    assert serve.proc is not None
    return [p for p in psutil.Process(serve.proc.pid).children() if word in " ".join(p.cmdline())]


def test_a_serve_killed_with_its_process_group_leaves_no_redis_and_the_next_one_has_every_match(
    tmp_path: Path, figure: Callable[[str], None]
) -> None:
    with serving(tmp_path / "var", tmp_path / "serve.log") as first:
        match = create(first.url)
        assert first.redis_servers(), "the serve runs its embedded Redis"
        # The embedded Redis's socket folder, in the system's temp dir.
        sockets = Path((tmp_path / "var" / RUN_DIR).read_text(encoding="utf-8").strip())
        first.kill_group()
        left = first.settle_leftovers(seconds=5)
        figure(f"serve killed with its process group: {len(left)} process(es) left running")
        assert left == [], [p.cmdline() for p in left]
        assert sockets.is_dir(), "nobody was left to remove it"
        with serving(tmp_path / "var", tmp_path / "serve-2.log", marker=first.marker) as second:
            again = requests.get(f"{second.url}/v1/matches/{match['id']}", timeout=10)
            assert again.status_code == 200, again.text
            # The next serve of the data dir removed the killed one's socket folder.
            assert not sockets.exists()


def test_a_serve_killed_alone_takes_its_redis_its_api_and_its_workers_with_it(
    tmp_path: Path, figure: Callable[[str], None]
) -> None:
    with serving(tmp_path / "var", tmp_path / "serve.log") as serve:
        create(serve.url)
        assert serve.proc is not None
        os.kill(serve.proc.pid, signal.SIGKILL)
        serve.proc.wait(timeout=10)
        left = serve.settle_leftovers(seconds=10)
        figure(f"serve killed alone (kill -9 of its pid): {len(left)} process(es) left running")
        assert left == [], [p.cmdline() for p in left]


def test_one_sigterm_stops_the_serve_and_its_redis_within_seconds_while_a_spectator_watches(
    tmp_path: Path, figure: Callable[[str], None]
) -> None:
    with serving(tmp_path / "var", tmp_path / "serve.log") as serve:
        # An acknowledged write is on disk (TABLETAPE_APPENDFSYNC chooses otherwise).
        assert store_of(serve).config_get("appendfsync") == {"appendfsync": "always"}
        match = create(serve.url)
        with requests.get(f"{serve.url}/v1/matches/{match['id']}/live", stream=True, timeout=10) as feed:
            assert feed.status_code == 200
            next(feed.iter_lines())
            assert serve.proc is not None
            sent = time.monotonic()
            serve.proc.send_signal(signal.SIGTERM)
            try:
                status = serve.proc.wait(timeout=8)
            except subprocess.TimeoutExpired:
                status = None
            took = time.monotonic() - sent
        figure(f"serve stopped by SIGTERM with a live feed open: exit {status} after {took:.1f} s")
        assert status == 0, serve.output()[-2000:]
        assert "tabletape stopped" in serve.output()
        assert serve.settle_leftovers(seconds=2) == []


def take_pid(pid: int, tries: int = 200) -> subprocess.Popen[bytes] | None:
    """A process that holds ``pid`` (made the kernel's next pid), as pid reuse after a crash would."""
    wait_for(lambda: not psutil.pid_exists(pid), f"the dead Redis (pid {pid}) reaped", 30, 0.1)
    for _ in range(tries):
        NS_LAST_PID.write_text(str(pid - 1))
        holder = subprocess.Popen(["sleep", "120"])
        if holder.pid == pid:
            return holder
        holder.kill()
        holder.wait()
    return None


@pytest.mark.skipif(
    not (NS_LAST_PID.exists() and os.access(NS_LAST_PID, os.W_OK)),
    reason="choosing the next pid (ns_last_pid) needs root",
)
def test_a_serve_starts_after_a_crash_even_when_its_dead_redis_pid_belongs_to_another_process(
    tmp_path: Path, figure: Callable[[str], None]
) -> None:
    holder = None
    try:
        with serving(tmp_path / "var", tmp_path / "serve.log") as first:
            match = create(first.url)
            dead_redis = first.redis_servers()[0].pid
            first.kill_group()
            for process in first.settle_leftovers(seconds=5):
                process.kill()  # the Redis dies too, as on a machine that crashed
            holder = take_pid(dead_redis)
            assert holder is not None, f"no process could take the pid {dead_redis}"
        with serving(tmp_path / "var", tmp_path / "serve-2.log", start=False, marker=first.marker) as second:
            second.spawn()
            started = _started_or_exited(second)
            figure(f"serve restarted while the dead Redis's pid is alive again: {started}")
            assert started == "answering", second.output()[-2000:]
            assert requests.get(f"{second.url}/v1/matches/{match['id']}", timeout=10).status_code == 200
        assert holder.poll() is None, "the process that took the pid was left alone"
    finally:
        if holder is not None:
            holder.kill()
            holder.wait()


def _started_or_exited(serve: Serve) -> str:
    assert serve.proc is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if serve.proc.poll() is not None:
            return f"exited {serve.proc.returncode}"
        try:
            if requests.get(f"{serve.url}/healthz", timeout=2).status_code == 200:
                return "answering"
        except requests.RequestException:
            pass
        time.sleep(0.1)
    return "neither answering nor exited"


def test_a_killed_worker_is_started_again_and_the_projections_catch_up(
    tmp_path: Path, figure: Callable[[str], None]
) -> None:
    with serving(tmp_path / "var", tmp_path / "serve.log") as serve:
        [worker] = children_named(serve, " worker")
        worker.kill()
        script = get_game("hats").example(0)
        body = {"game": "hats", **{k: script[k] for k in ("players", "setup", "options")}}
        made = requests.post(f"{serve.url}/v1/matches", json=body, timeout=10).json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        for action in script["actions"]:
            answer = requests.post(
                f"{serve.url}/v1/matches/{made['id']}/actions", json=action, headers=auth, timeout=10
            )
            assert answer.status_code == 201, answer.text
        version = answer.json()["version"]

        def projected() -> bool:
            board = requests.get(f"{serve.url}/v1/matches/{made['id']}/scores", timeout=5).json()
            return bool(board["projected"]) and board["version"] == version

        took = wait_for(projected, "the projection of a match recorded after the worker was killed", 30, 0.2)
        figure(f"worker killed with -9: projected again {took:.1f} s after the match's last write")
        assert f"(pid {worker.pid}) was killed by SIGKILL" in serve.output()


def test_projections_lagging_past_the_limit_turn_healthz_503_and_show_in_metrics(
    tmp_path: Path, figure: Callable[[str], None]
) -> None:
    with serving(
        tmp_path / "var", tmp_path / "serve.log", workers=0, TABLETAPE_PROJECTION_LAG_LIMIT="1"
    ) as serve:
        create(serve.url)  # a creation is projected by a worker, and none runs

        def lagging() -> bool:
            return requests.get(f"{serve.url}/healthz", timeout=5).status_code != 200

        wait_for(lagging, "/healthz noticing the projections lag", 15, 0.2)
        health = requests.get(f"{serve.url}/healthz", timeout=5)
        assert health.status_code == 503 and health.json()["code"] == "projections_lagging", health.text
        assert "TABLETAPE_PROJECTION_LAG_LIMIT" in health.json()["detail"]
        assert health.headers["Retry-After"]
        scraped = requests.get(f"{serve.url}/metrics", timeout=5).text
        [lag] = [
            line for line in scraped.splitlines() if line.startswith("tabletape_projection_lag_seconds ")
        ]
        assert float(lag.split()[1]) > 1
        figure(f"no worker: /healthz {health.status_code} {health.json()['code']}, {lag}")


def test_an_embedded_redis_that_dies_is_started_again_with_every_acknowledged_write(
    tmp_path: Path, figure: Callable[[str], None]
) -> None:
    with serving(tmp_path / "var", tmp_path / "serve.log") as serve:
        match = create(serve.url)
        [server] = serve.redis_servers()
        server.kill()
        sent = time.monotonic()

        def answering() -> bool:
            try:
                return requests.get(f"{serve.url}/v1/matches/{match['id']}", timeout=5).status_code == 200
            except requests.RequestException:
                return False

        wait_for(answering, "the match readable again after its Redis was killed", 30, 0.2)
        figure(
            f"embedded Redis killed with -9: the match readable again after {time.monotonic() - sent:.1f} s"
        )
        assert f"the embedded Redis (pid {server.pid}) exited" in serve.output()
        assert requests.get(f"{serve.url}/healthz", timeout=5).status_code == 200
