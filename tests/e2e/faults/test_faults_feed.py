"""The global feed followed by a consumer while every game is recorded, a worker is killed, Redis
restarts and the consumer itself restarts: every public event exactly once, in each match's order.

The issue's scale is 50 matches of every game; this runs MATCHES of each (the shortest examples),
which keeps the suite within CI time and still crosses every fault while matches are recorded.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests

from games.registry import all_games
from tests.e2e.faults import driver
from tests.e2e.faults.conftest import Stack
from tests.e2e.faults.stack import wait_for

pytestmark = pytest.mark.e2e
MATCHES = 10


def shortest(game_id: str, count: int) -> list[dict[str, Any]]:
    """The game's ``count`` shortest examples among twice as many seeds (at least four actions each)."""
    game = all_games()[game_id]
    scripts = [s for s in map(game.example, range(2 * count)) if len(s["actions"]) >= 4]
    return sorted(scripts, key=lambda s: len(s["actions"]))[:count]


class Consumer:
    """A feed consumer that keeps its position in a file, as a league site would, and may be
    stopped and started again from that file."""

    def __init__(self, url: str, saved: Path, handled: list[dict[str, Any]]) -> None:
        self.url = url
        self.saved = saved
        # What the consumer did with the events (a league site's own database): it outlives a restart.
        self.events = handled
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Follow the feed from the saved position (the beginning when none is saved)."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop following (what it has read and its position are kept)."""
        self._stop.set()
        assert self._thread is not None
        self._thread.join(timeout=30)

    def _follow(self) -> None:
        with requests.Session() as session:
            while not self._stop.is_set():
                after = self.saved.read_text() if self.saved.exists() else "0"
                try:
                    page = session.get(
                        f"{self.url}/v1/feed", params={"after": after, "limit": 100}, timeout=10
                    )
                except requests.RequestException:
                    time.sleep(0.2)  # the API or its Redis is away: try again
                    continue
                if page.status_code != 200:
                    time.sleep(0.2)
                    continue
                body = page.json()
                # Handled, then the position saved: a crash in between reads the page again, which
                # the consumer would then drop by (partition, position); here nothing crashes.
                self.events += body["events"]
                self.saved.write_text(body["position"])
                if not body["events"]:
                    time.sleep(0.1)


def steps_by_match(events: list[dict[str, Any]]) -> dict[str, list[int]]:
    steps: dict[str, list[int]] = defaultdict(list)
    for event in events:
        steps[event["match_id"]].append(event["seq"])
    return dict(steps)


def test_a_consumer_sees_every_public_event_once_through_worker_kills_redis_restarts_and_its_own_restart(
    fresh_stack: Stack, tmp_path: Path, figure: Callable[[str], None]
) -> None:
    fresh_stack.start_worker()
    fresh_stack.start_worker()
    handled: list[dict[str, Any]] = []
    consumer = Consumer(fresh_stack.url, tmp_path / "position", handled)
    consumer.start()
    scripts = [(game_id, s) for game_id in sorted(all_games()) for s in shortest(game_id, MATCHES)]
    recorded = []
    for n, (game_id, script) in enumerate(scripts):
        match = driver.create(fresh_stack.url, game_id, script)
        driver.play(match, script["actions"])
        recorded.append(match)
        if n == len(scripts) // 4:
            fresh_stack.workers[0].kill()  # kill -9, whatever it was doing
            fresh_stack.start_worker()
        if n == len(scripts) // 2:
            consumer.stop()
            consumer = Consumer(fresh_stack.url, tmp_path / "position", handled)  # a restart
            consumer.start()
        if n == 3 * len(scripts) // 4:
            fresh_stack.redis.kill()
            time.sleep(1)
            fresh_stack.redis.start()
    expected = {m.id: list(range(1, m.version + 1)) for m in recorded}
    began = time.monotonic()
    wait_for(lambda: steps_by_match(handled) == expected, "the consumer reading every step", 120)
    consumer.stop()
    seen = list(handled)
    places = [(e["partition"], e["position"]) for e in seen]
    assert len(places) == len(set(places)) == sum(len(v) for v in expected.values())
    figure(
        f"feed: {len(seen)} events of {len(recorded)} matches, each once and in order, through a worker "
        f"kill -9, a Redis restart and a consumer restart; caught up {time.monotonic() - began:.1f} s "
        "after the last write"
    )
