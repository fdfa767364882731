"""GET /metrics under gunicorn with two worker processes: with PROMETHEUS_MULTIPROC_DIR every
scrape counts every process's requests, whichever process answers it."""

from __future__ import annotations

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
    try:
        for _ in range(40):
            # A new connection each time, so that both processes take some of them.
            assert requests.get(f"{stack.url}/v1/games", timeout=10).status_code == 200
        scrapes = [requests.get(f"{stack.url}/metrics", timeout=10) for _ in range(6)]
    finally:
        stack.stop()
    assert all(s.status_code == 200 for s in scrapes)
    assert [listed_games(s.text) for s in scrapes] == [40.0] * 6
    writers = {path.stem.rsplit("_", 1)[-1] for path in shared.glob("counter_*.db")}
    assert len(writers) == 2, f"both gunicorn processes answered: {sorted(writers)}"
