"""A full disk under `tabletape serve`: writes are refused with a 503 that says so, reads go on,
/healthz says why, writes resume once there is room, and the serve still stops cleanly.

As root the data dir is a small tmpfs of the test's own, filled to the brim; otherwise the embedded
store is bounded with ``maxmemory`` and filled instead (the same promise, for a store out of room).
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from games.registry import get_game
from tests.e2e.faults.serving import Serve, serving
from tests.e2e.faults.stack import wait_for
from tests.e2e.faults.test_faults_serve import store_of

pytestmark = pytest.mark.e2e

ROOT = os.geteuid() == 0 and shutil.which("mount") is not None
MIB = 1024 * 1024


@contextmanager
def small_disk(folder: Path, mib: int) -> Iterator[Path]:
    """``folder`` as a tmpfs of ``mib`` MiB (root), unmounted at the end; else a plain folder."""
    folder.mkdir(parents=True)
    if not ROOT:
        yield folder
        return
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={mib}m", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path, leave: int) -> Path:
    """Write a file into ``folder`` until at most ``leave`` bytes are free; the file."""
    filler = folder / "filler"
    chunk = b"\0" * (256 * 1024)
    with filler.open("wb") as out:
        while True:
            stats = os.statvfs(folder)
            room = stats.f_bavail * stats.f_frsize - leave
            if room <= 0:
                break
            try:
                out.write(chunk[: min(room, len(chunk))])
                out.flush()
            except OSError as error:
                assert error.errno == errno.ENOSPC
                break
    return filler


def act(serve: Serve, match: dict[str, Any], action: dict[str, Any]) -> requests.Response:
    """Send one action to the match."""
    return requests.post(
        f"{serve.url}/v1/matches/{match['id']}/actions",
        json=action,
        headers={"Authorization": f"Bearer {match['token']}"},
        timeout=10,
    )


CASES = {
    # tabletape's own guard: writes refused while less than the reserve is free, Redis never fails.
    "below the reserve": ({"TABLETAPE_DISK_RESERVE_MB": "4"}, MIB),
    # No reserve: Redis itself fails to write its AOF (everysec: MISCONF; always would exit).
    "to the last byte": ({"TABLETAPE_DISK_RESERVE_MB": "0", "TABLETAPE_APPENDFSYNC": "everysec"}, 0),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_full_disk_refuses_writes_with_503_keeps_reads_and_the_serve_stops_cleanly(
    tmp_path: Path, case: str, figure: Callable[[str], None]
) -> None:
    options, leave = CASES[case]
    script = get_game("wizard").example(0)
    body = {"game": "wizard", **{k: script[k] for k in ("players", "setup", "options")}}
    with (
        small_disk(tmp_path / "var", 32) as data_dir,
        serving(data_dir, tmp_path / "serve.log", **options) as serve,
    ):
        fsync = options.get("TABLETAPE_APPENDFSYNC", "always")
        assert store_of(serve).config_get("appendfsync") == {"appendfsync": fsync}
        match = requests.post(f"{serve.url}/v1/matches", json=body, timeout=10).json()
        assert act(serve, match, script["actions"][0]).status_code == 201
        filler = _make_full(serve, data_dir, leave)
        expected = "disk_full" if ROOT else "store_full"

        # With everysec, the write whose AOF flush first fails was already acknowledged, and the
        # flush runs once a second: writes are sent for a few seconds until one is refused.
        pending = script["actions"][1:]
        refused = None
        for action in pending[:20]:
            answer = act(serve, match, action)
            if answer.status_code != 201:
                refused = answer
                break
            pending = pending[1:]
            time.sleep(0.25)
        assert refused is not None, "every write was taken on a full disk"
        assert refused.status_code == 503 and refused.json()["code"] == expected, refused.text
        assert int(refused.headers["Retry-After"]) > 0 and "reads still work" in refused.json()["detail"]
        created = requests.post(f"{serve.url}/v1/matches", json=body, timeout=10)
        assert (created.status_code, created.json()["code"]) == (503, expected), created.text
        assert requests.get(f"{serve.url}/v1/matches/{match['id']}/events", timeout=10).status_code == 200
        assert requests.get(f"{serve.url}/v1/matches/{match['id']}/state", timeout=10).status_code == 200
        health = requests.get(f"{serve.url}/healthz", timeout=10)
        assert (health.status_code, health.json()["code"]) == (503, expected), health.text
        figure(
            f"full disk ({case}): write {refused.status_code} {refused.json()['code']}, create "
            f"{created.status_code}, read 200, /healthz {health.status_code} {health.json()['code']}"
        )

        _make_room(serve, filler)
        try:
            wait_for(lambda: act(serve, match, pending[0]).status_code == 201, "writes resuming", 20, 0.5)
        except AssertionError as error:
            raise AssertionError(f"{error}; the serve's log ends:\n{serve.output()[-3000:]}") from None
        assert serve.stop(seconds=10) == 0, serve.output()[-3000:]
        assert serve.settle_leftovers(seconds=3) == []
        # No answer was a 500 (the API logs each with its traceback).
        assert "unexpected error" not in serve.output(), serve.output()[-3000:]


def _make_full(serve: Serve, data_dir: Path, leave: int) -> Path | None:
    if ROOT:
        return fill(data_dir, leave)
    store = store_of(serve)
    store.config_set("maxmemory", str(int(store.info("memory")["used_memory"]) + 64 * 1024))
    store.config_set("maxmemory-policy", "noeviction")
    filler = os.urandom(4096).hex()
    for n in range(1000):
        try:
            store.set(f"{serve.marker}:filler:{n}", filler)
        except redis.ResponseError:
            break
    # Full it stays: memory freed by the server itself (client buffers) makes no room.
    store.config_set("maxmemory", str(int(store.info("memory")["used_memory"]) // 2))
    return None


def _make_room(serve: Serve, filler: Path | None) -> None:
    if filler is not None:
        filler.unlink()
        return
    store_of(serve).config_set("maxmemory", "0")
