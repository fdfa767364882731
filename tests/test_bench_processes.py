"""`make bench` runs to its end, its whole-process parts too: the position sizes, the projection lag
(real `tabletape worker`s and writer processes), HTTP under gunicorn (real gunicorn, a real
projection worker and wrk) and the masters' shares (a real 3-master Redis Cluster), each on a small
run, print their figures and leave nothing running, no key and no file behind. Nothing here looks
at a timing: the figures are the benchmark's to judge."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
import pytest
import redis

from bench import harness, http, lag, masters, sizes
from games.registry import all_games

pytestmark = pytest.mark.e2e


@pytest.fixture
def used(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The (Redis URL, key prefix) of every bench_parts the benchmark opens."""
    opened: list[tuple[str, str]] = []
    real = harness.bench_parts

    @contextmanager
    def noted() -> Iterator[Any]:
        with real() as parts:
            opened.append((parts.settings.redis_url, parts.keys.prefix))
            yield parts

    for module in (lag, http):
        monkeypatch.setattr(module, "bench_parts", noted)
    return opened


@pytest.fixture
def running() -> set[int]:
    """The processes this test process runs before the benchmark starts (another test file's
    server or browser, kept for its session): not the benchmark's to stop."""
    return {child.pid for child in psutil.Process().children(recursive=True)}


def left_behind(used: list[tuple[str, str]], running: set[int]) -> list[str]:
    """Keys still under the benchmark's prefixes, and processes it started that still run."""
    keys = [
        key.decode()
        for url, prefix in used
        for key in redis.Redis.from_url(url).scan_iter(match=f"*{prefix}*", count=1000)
    ]
    started = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.pid not in running and child.status() != psutil.STATUS_ZOMBIE:
                started.append(" ".join(child.cmdline()))
        except psutil.NoSuchProcess:
            pass  # ended meanwhile
    return keys + started


def shows_every(printed: str, *figures: str) -> None:
    """Each of ``figures`` (a pattern) is somewhere in what the benchmark printed."""
    for figure in figures:
        assert re.search(figure, printed), f"{figure!r} not in:\n{printed}"


def test_the_sizes_benchmark_prints_every_games_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    sizes.main(small=100, large=400)
    printed = capsys.readouterr().out
    assert re.search(r"state: position at step 400 against step 100 \(goal <= 2x\): ", printed), printed
    for game in all_games():
        assert re.search(rf"\b{game} \d+\.\d\dx", printed), f"{game} not in:\n{printed}"


def test_the_lag_benchmark_measures_with_real_workers_and_stops_them(
    used: list[tuple[str, str]], running: set[int], capsys: pytest.CaptureFixture[str]
) -> None:
    lag.main(matches=6, seconds=1, rates=(30,))
    printed = capsys.readouterr().out
    shows_every(
        printed,
        r"projection lag while the workers are cold \(their first 1 s, \d+ actions/s\): "
        r"p50 \d+ ms, p99 \d+ ms",
        r"projection lag at 30 actions/s \(\d+ achieved\) over 6 matches, 2 workers: p50 \d+ ms, p99 \d+ ms; "
        r"p99 / 250 ms goal = \d+\.\d\dx",
        r"projection lag of a single match at 5 actions/s \(\d+\.\d achieved\), 2 workers: p50 \d+ ms",
    )
    assert used and left_behind(used, running) == []


def test_the_http_benchmark_loads_gunicorn_with_wrk_and_stops_every_server(
    used: list[tuple[str, str]], running: set[int], capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("wrk") is None:
        pytest.fail("the HTTP benchmark's load comes from wrk: apt-get install -y wrk")
    http.main([], matches=24, rounds=1, seconds=1)
    printed = capsys.readouterr().out
    shows_every(
        printed,
        r"http: served in process .* ratio of rates \d+\.\d\dx",
        r"http: anchor CPU per request: gunicorn \d+ us",
        r"http: tabletape CPU per request: gunicorn \d+ us",
        r"http: CPU per request, all parts together: .* ratio \d+\.\d\dx",
        # Every request of the load was a write tabletape recorded (a refused one is no figure).
        r"http: tabletape under gunicorn \d+ requests/s \(0 not 2xx\); minimal Flask \+ one EVALSHA \d+ "
        r"requests/s \(1 rounds of 1 s each, taking turns\); ratio \d+\.\d\dx",
    )
    assert "some answers were not 2xx" not in printed
    assert len(used) == 2 and left_behind(used, running) == []


def test_the_masters_benchmark_runs_on_a_cluster_of_its_own_and_removes_it_with_its_logs(
    running: set[int], capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its servers' folders and its MONITOR logs (about 50 MB a master on a full run) go here.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    masters.main(["--matches", "6"])
    printed = capsys.readouterr().out
    shows_every(
        printed,
        r"6 matches, \d+ actions recorded, reads: ",
        r"commands per master: \[\d+, \d+, \d+\]",
        r"busiest master's share of every command: \d+\.\d% \(even: 33\.3%; goal <= 40%\)",
        r"busiest master's share while recording alone: \d+\.\d%",
        r"dirty marks, a shard \| 32 \|",
    )
    assert list(tmp_path.iterdir()) == []
    assert left_behind([], running) == []
