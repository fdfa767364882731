"""The global feed followed by a consumer while 50 matches of every game are recorded, a worker is
killed, Redis restarts and the consumer itself restarts: every public event exactly once, in each
match's order.

The matches are each game's shortest examples, recorded by several writers at once (as many
tables would), each write retried under its Idempotency-Key while Redis is away.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from games.registry import all_games
from tests.e2e.faults import driver
from tests.e2e.faults.conftest import Stack
from tests.e2e.faults.stack import wait_for
from tests.e2e.faults.test_faults_crashes import write_until_accepted

pytestmark = pytest.mark.e2e
MATCHES = 50
WRITERS = 4


def shortest(game_id: str, count: int) -> list[dict[str, Any]]:
    """The game's ``count`` shortest examples among six times as many seeds (four actions at least)."""
    game = all_games()[game_id]
    scripts = [s for s in map(game.example, range(6 * count)) if len(s["actions"]) >= 4]
    return sorted(scripts, key=lambda s: len(s["actions"]))[:count]


def created_until_accepted(url: str, game_id: str, script: dict[str, Any], key: str) -> driver.Match:
    """Create a match of ``script`` under an Idempotency-Key, again while the answer is a 503."""
    body = {"game": game_id, **{k: script[k] for k in ("players", "setup", "options")}}
    while True:
        made = requests.post(f"{url}/v1/matches", json=body, headers={"Idempotency-Key": key}, timeout=20)
        if made.status_code == 201:
            answer = made.json()
            return driver.Match(url, answer["id"], answer["token"], answer["version"])
        assert made.status_code == 503, made.text
        time.sleep(0.05)


def record(url: str, number: int, game_id: str, script: dict[str, Any]) -> tuple[driver.Match, int]:
    """One table recording a whole match, every write retried under its key while Redis is away;
    the match and how many of its writes were answered 503 first."""
    match = created_until_accepted(url, game_id, script, f"feed-{number}")
    refused = 0
    for step, action in enumerate(script["actions"]):
        answer, retries = write_until_accepted(match, action, f"feed-{number}-{step}")
        match.version, refused = answer.json()["version"], refused + bool(retries)
    return match, refused


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
    # The games taking turns, so that every game is being recorded when each fault comes.
    games = [[(game_id, s) for s in shortest(game_id, MATCHES)] for game_id in sorted(all_games())]
    scripts = [pair for turn in zip(*games, strict=True) for pair in turn]
    began = time.monotonic()
    with ThreadPoolExecutor(WRITERS) as writers:
        recording = [
            writers.submit(record, fresh_stack.url, n, game_id, script)
            for n, (game_id, script) in enumerate(scripts)
        ]
        wait_for(lambda: sum(f.done() for f in recording) >= len(scripts) // 4, "a quarter recorded", 300)
        fresh_stack.workers[0].kill()  # kill -9, whatever it was doing
        fresh_stack.start_worker()
        wait_for(lambda: sum(f.done() for f in recording) >= len(scripts) // 2, "half recorded", 300)
        consumer.stop()
        consumer = Consumer(fresh_stack.url, tmp_path / "position", handled)  # a restart
        consumer.start()
        wait_for(lambda: sum(f.done() for f in recording) >= 3 * len(scripts) // 4, "3/4 recorded", 300)
        fresh_stack.redis.kill()  # while the writers are recording
        time.sleep(1)
        fresh_stack.redis.start()
        recorded = [f.result()[0] for f in recording]
    wrote = time.monotonic() - began
    retried = sum(f.result()[1] for f in recording)
    expected = {m.id: list(range(1, m.version + 1)) for m in recorded}
    assert len(expected) == len(all_games()) * MATCHES
    caught_up = wait_for(lambda: steps_by_match(handled) == expected, "the consumer reading every step", 120)
    consumer.stop()
    seen = list(handled)
    places = [(e["partition"], e["position"]) for e in seen]
    assert len(places) == len(set(places)) == sum(len(v) for v in expected.values())
    figure(
        f"feed: {len(seen)} events of {len(recorded)} matches ({MATCHES} of each game, {WRITERS} writers, "
        f"{wrote:.1f} s), each once and in order, through a worker kill -9, a Redis restart ({retried} "
        f"writes retried) and a consumer restart; caught up {caught_up:.1f} s after the last write"
    )
