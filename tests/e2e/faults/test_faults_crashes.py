"""Crashes: an RQ worker killed in the middle of a projection, and Redis killed between appends."""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import requests
from rq.registry import StartedJobRegistry

from games.registry import all_games
from projections.projecting.queueing import projection_queue
from tests.e2e.faults import driver
from tests.e2e.faults.conftest import Stack
from tests.e2e.faults.stack import wait_for
from tests.recording import assert_agrees_with_its_log

pytestmark = pytest.mark.e2e


def short_script(game_id: str) -> dict[str, Any]:
    """The game's example with the fewest actions among a few seeds (and at least four)."""
    game = all_games()[game_id]
    scripts = [s for s in map(game.example, range(4)) if len(s["actions"]) >= 4]
    return min(scripts, key=lambda s: len(s["actions"]))


def test_projections_converge_within_seconds_after_a_worker_is_killed_in_the_middle_of_a_job(
    fresh_stack: Stack, figure: Callable[[str], None]
) -> None:
    slow = fresh_stack.start_worker(slow=60)
    recorded = []
    for game_id in sorted(all_games()):
        script = short_script(game_id)
        match = driver.create(fresh_stack.url, game_id, script)
        driver.play(match, script["actions"])
        recorded.append(match)
    started = StartedJobRegistry(queue=projection_queue(fresh_stack.client(), fresh_stack.keys))
    wait_for(lambda: started.count > 0, "the slow worker starting a projection job")
    slow.kill()
    assert all(fresh_stack.checkpoint(m.id) < m.version for m in recorded)

    began = time.monotonic()
    fresh_stack.start_worker()
    fresh_stack.start_worker()
    for match in recorded:
        fresh_stack.converged(match.id, match.version, seconds=60)
    took = time.monotonic() - began
    parts = fresh_stack.parts()
    for match in recorded:
        assert_agrees_with_its_log(parts, match.id)
    figure(f"worker kill -9: {len(recorded)} matches projected {took:.1f} s after new workers started")


def write_until_accepted(
    match: driver.Match, action: dict[str, Any], key: str
) -> tuple[requests.Response, int]:
    """Send one action with an Idempotency-Key until it is accepted; return it and the retries."""
    retries = 0
    with requests.Session() as session:
        while True:
            answer = match.write(session, action, **{"Idempotency-Key": key})
            if answer.status_code == 201:
                return answer, retries
            assert answer.status_code == 503, answer.text
            retries += 1
            time.sleep(0.05)


@dataclass
class HalfPlayed:
    """A match with the first half of its script recorded, and the events acknowledged for it."""

    match: driver.Match
    script: dict[str, Any]
    half: int
    acked: list[dict[str, Any]]

    @property
    def next_action(self) -> dict[str, Any]:
        """The first action not yet recorded."""
        return dict(self.script["actions"][self.half])


def half_play_every_game(stack: Stack) -> list[HalfPlayed]:
    """A match of every game, half its script recorded."""
    played = []
    for game_id in sorted(all_games()):
        script = short_script(game_id)
        match = driver.create(stack.url, game_id, script)
        half = len(script["actions"]) // 2
        answers = driver.play(match, script["actions"][:half])
        played.append(HalfPlayed(match, script, half, [e for a in answers for e in a["events"]]))
    return played


def refused_while_down(stack: Stack, played: list[HalfPlayed]) -> float:
    """Check that writes and reads get 503 problems while Redis is down; the slowest answer's time."""
    slowest = 0.0
    for one in played:
        match = one.match
        for method, path, body in [
            ("post", f"/v1/matches/{match.id}/actions", one.next_action),
            ("get", f"/v1/matches/{match.id}/state", None),
        ]:
            asked = time.monotonic()
            answer = requests.request(method, stack.url + path, json=body, headers=match.auth, timeout=10)
            slowest = max(slowest, time.monotonic() - asked)
            assert answer.status_code == 503, answer.text
            assert answer.headers["Content-Type"] == "application/problem+json"
            assert answer.json()["code"] == "store_unavailable"
            assert answer.headers["Retry-After"] == "1"
    assert requests.get(f"{stack.url}/healthz", timeout=10).status_code == 503
    return slowest


def test_acknowledged_events_survive_a_redis_kill_and_everything_recovers_without_a_restart(
    fresh_stack: Stack, figure: Callable[[str], None]
) -> None:
    fresh_stack.start_worker()
    fresh_stack.start_worker()
    played = half_play_every_game(fresh_stack)
    fresh_stack.redis.kill()
    slowest = refused_while_down(fresh_stack, played)
    time.sleep(2)  # Redis stays away long enough for every worker to lose its connections.
    fresh_stack.redis.start()
    restarted = time.monotonic()
    _, retries = write_until_accepted(played[0].match, played[0].next_action, uuid.uuid4().hex)
    recovered = time.monotonic() - restarted
    played[0].half += 1
    for one in played:
        log = fresh_stack.log(one.match.id)
        assert all(log[e["seq"] - 1] == e for e in one.acked)
        driver.play(one.match, one.script["actions"][one.half :])
        assert driver.seqs_are_whole(fresh_stack.log(one.match.id))
    for one in played:
        fresh_stack.converged(one.match.id, one.match.version, seconds=60)
    projected = time.monotonic() - restarted
    assert fresh_stack.api.running and all(w.running for w in fresh_stack.workers)
    parts = fresh_stack.parts()
    for one in played:
        assert_agrees_with_its_log(parts, one.match.id)
    figure(
        f"redis kill -9: {sum(len(one.acked) for one in played)} acknowledged events kept; writes "
        f"answered 503 in at most {slowest:.2f} s while down; first write accepted {recovered:.2f} s "
        f"after the restart ({retries} retries); every projection caught up {projected:.1f} s after it"
    )


def test_a_write_to_a_stalled_redis_answers_503_and_its_retry_records_it_once(fresh_stack: Stack) -> None:
    fresh_stack.start_worker()
    game_id = sorted(all_games())[-1]
    script = short_script(game_id)
    match = driver.create(fresh_stack.url, game_id, script)
    driver.play(match, script["actions"][:1])
    action, key = script["actions"][1], uuid.uuid4().hex
    assert fresh_stack.redis.proc is not None
    os.kill(fresh_stack.redis.proc.pid, signal.SIGSTOP)
    try:
        with requests.Session() as session:
            stalled = match.write(session, action, **{"Idempotency-Key": key})
    finally:
        os.kill(fresh_stack.redis.proc.pid, signal.SIGCONT)
    assert stalled.status_code == 503 and stalled.json()["code"] == "store_unavailable"
    assert "Idempotency-Key" in stalled.json()["detail"]
    answer, _ = write_until_accepted(match, action, key)
    log = fresh_stack.log(match.id)
    assert driver.seqs_are_whole(log)
    assert sum(1 for e in log if e["meta"].get("action") == action) == 1
    assert log[-len(answer.json()["events"]) :] == answer.json()["events"]
