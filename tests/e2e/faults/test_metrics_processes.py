"""GET /metrics under gunicorn with two worker processes: with PROMETHEUS_MULTIPROC_DIR every
scrape counts every process's requests, whichever process answers it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.faults.conftest import start_stack

pytestmark = pytest.mark.e2e


def listed_games(text: str) -> float:
    """How many GET /v1/games a scrape says were answered 200."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = sample.labels
            if sample.name == "tabletape_http_requests_total" and labels.get("route") == "games.list_games":
                return float(sample.value)
    return 0.0


def test_every_scrape_adds_up_the_requests_of_every_gunicorn_process(tmp_path: Path) -> None:
    shared = tmp_path / "prometheus"
    shared.mkdir()
    stack = start_stack(tmp_path, workers=0, PROMETHEUS_MULTIPROC_DIR=str(shared))
    sent = 0
    try:
        # Bursts of parallel requests on new connections, until both processes have answered some.
        with ThreadPoolExecutor(max_workers=16) as pool:
            while len(writers(shared)) < 2 and sent < 2000:
                answers = list(
                    pool.map(lambda _: requests.get(f"{stack.url}/v1/games", timeout=10), range(40))
                )
                assert all(a.status_code == 200 for a in answers)
                sent += len(answers)
        scrapes = [requests.get(f"{stack.url}/metrics", timeout=10) for _ in range(6)]
    finally:
        stack.stop()
    assert len(writers(shared)) == 2, "both gunicorn processes answered"
    assert all(s.status_code == 200 for s in scrapes)
    assert [listed_games(s.text) for s in scrapes] == [float(sent)] * 6


def writers(shared: Path) -> set[str]:
    """The pids of the processes that have counted something."""
    return {path.stem.rsplit("_", 1)[-1] for path in shared.glob("counter_*.db")}
