"""`tabletape serve` and its data dir, as a new user meets them: the other commands find its
embedded store, a second serve on the same folder refuses, a serve that cannot start leaves
nothing running."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests

from tests.e2e.conftest import Served, free_port
from tests.e2e.test_serve import projected_scores, record

pytestmark = pytest.mark.e2e


def tabletape(*args: str, prefix: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run a `tabletape` command as a separate process, REDIS_URL unset."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    if prefix:
        env["TABLETAPE_PREFIX"] = prefix
    return subprocess.run(
        [sys.executable, "-m", "service.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def alive_with(marker: str) -> list[int]:
    """Pids of the processes whose environment holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_export_verify_and_rebuild_use_the_embedded_store_of_the_running_serve(
    served: Served, tmp_path: Path
) -> None:
    from games.registry import all_games

    prefix = served.prefix
    match_id, version = record(served.url, "hats", all_games()["hats"].example(0))
    projected_scores(served.url, match_id, version)
    data_dir = str(served.data_dir)
    exported = tabletape(
        "export", "--all", "--data-dir", data_dir, "-o", str(tmp_path / "all.ndjson"), prefix=prefix
    )
    assert exported.returncode == 0, exported.stderr
    assert "store: the embedded Redis of tabletape serve" in exported.stderr
    assert match_id in (tmp_path / "all.ndjson").read_text()
    verified = tabletape("verify", "--data-dir", data_dir, prefix=prefix)
    assert verified.returncode == 0 and "verified 1 matches" in verified.stdout, verified.stderr
    rebuilt = tabletape("rebuild", "--all", "--data-dir", data_dir, prefix=prefix)
    assert rebuilt.returncode == 0 and "rebuilt 1 of 1 matches" in rebuilt.stdout


def test_a_second_serve_on_the_same_data_dir_refuses_and_leaves_the_first_one_serving(served: Served) -> None:
    second = tabletape("serve", "--port", str(free_port()), "--data-dir", str(served.data_dir), timeout=60)
    assert second.returncode == 5
    assert f"tabletape serve (pid {served.process.pid}" in second.stderr
    assert "already using the data dir" in second.stderr and "Traceback" not in second.stderr
    time.sleep(0.5)
    assert requests.get(f"{served.url}/healthz", timeout=5).status_code == 200
    made = requests.post(
        f"{served.url}/v1/matches",
        json={"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}},
        timeout=10,
    )
    assert made.status_code == 201


def test_a_serve_whose_port_is_taken_exits_5_and_leaves_nothing_running(tmp_path: Path) -> None:
    marker = f"tt-e2e-taken-{uuid.uuid4().hex[:8]}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        answer = tabletape("serve", "--port", str(port), "--data-dir", str(tmp_path / "var"), prefix=marker)
    assert answer.returncode == 5 and f"cannot listen on 127.0.0.1:{port}" in answer.stderr
    assert "Traceback" not in answer.stderr
    deadline = time.monotonic() + 10
    while alive_with(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert alive_with(marker) == []
    assert not (tmp_path / "var" / "serve.json").exists()
