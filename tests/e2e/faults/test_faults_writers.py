"""Concurrent writers and lost responses: every acknowledged action is in the log exactly once."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from games.registry import all_games
from tests.e2e.faults import driver
from tests.e2e.faults.conftest import Stack
from tests.recording import assert_agrees_with_its_log

pytestmark = pytest.mark.e2e

WRITERS = 8
PER_WRITER = 200


@dataclass
class Tally:
    """What one writer saw."""

    acked: list[dict[str, Any]] = field(default_factory=list)
    conflicts: int = 0
    retries: int = 0


def writer(match: driver.Match, plan: driver.Plan, wanted: int, tally: Tally) -> None:
    """Record ``wanted`` planned writes, each conditional on the version it was planned for."""
    version = match.version
    with requests.Session() as session:
        while len(tally.acked) < wanted:
            due = plan.next_at(version)
            assert due is not None, f"the plan has no write at version {version}"
            key = uuid.uuid4().hex
            while True:
                try:
                    answer = match.write(
                        session, plan.writes[due], **{"If-Match": str(version), "Idempotency-Key": key}
                    )
                except requests.RequestException:
                    # No answer (dropped or timed out): the same key makes the retry safe.
                    tally.retries += 1
                    continue
                if answer.status_code in (409, 503):
                    tally.retries += 1
                    time.sleep(0.05)
                    continue
                break
            if answer.status_code == 412:
                tally.conflicts += 1
                version = answer.json()["actual"]
                # A short random pause, as a real client's backoff, lets the winner's next write in.
                time.sleep(random.uniform(0, 0.06))
                continue
            assert answer.status_code == 201, answer.text
            tally.acked.append(answer.json())
            version = answer.json()["version"]


def assert_each_acknowledged_once(
    log: list[dict[str, Any]], acked: list[dict[str, Any]], plan: driver.Plan
) -> None:
    """The log has no gap, holds each acknowledged write's events once, and the writes in order."""
    assert driver.seqs_are_whole(log)
    assert len(log) == plan.before[len(acked)]
    for answer in acked:
        for event in answer["events"]:
            assert log[event["seq"] - 1] == event
    batches: dict[str, int] = {}
    for event in log:
        batches[event["meta"]["action_id"]] = batches.get(event["meta"]["action_id"], 0) + 1
    assert all(batches[a["events"][0]["meta"]["action_id"]] == len(a["events"]) for a in acked)
    sent = [e["meta"]["action"] for e in log if "action" in e["meta"]][1:]
    assert sent == plan.writes[: len(acked)]


def test_eight_concurrent_writers_leave_every_acknowledged_action_in_the_log_exactly_once(
    stack: Stack, figure: Callable[[str], None]
) -> None:
    game, script = driver.longest_example()
    plan = driver.plan(game, script, WRITERS * PER_WRITER)
    match = driver.create(stack.url, game.id, script)
    tallies = [Tally() for _ in range(WRITERS)]
    threads = [threading.Thread(target=writer, args=(match, plan, PER_WRITER, t)) for t in tallies]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.monotonic() - started

    acked = [answer for tally in tallies for answer in tally.acked]
    assert len(acked) == WRITERS * PER_WRITER
    log = stack.log(match.id)
    assert_each_acknowledged_once(log, acked, plan)

    stack.converged(match.id, len(log))
    assert_agrees_with_its_log(stack.parts(), match.id)
    figure(
        f"concurrent writers: {WRITERS} x {PER_WRITER} acknowledged writes of {game.id} in "
        f"{took:.1f} s; {sum(t.conflicts for t in tallies)} conflicts (412), "
        f"{sum(t.retries for t in tallies)} retries"
    )


def send_and_hang_up(url: str, path: str, body: bytes, headers: dict[str, str]) -> None:
    """Send a whole POST request, then close the connection without reading the answer."""
    parts = urlsplit(url)
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {parts.netloc}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Connection: close",
    ]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        sock.shutdown(socket.SHUT_WR)
    # Closed before the answer came back: the client cannot know whether it was recorded.


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_a_retry_after_a_lost_response_gets_the_first_answer_and_the_log_holds_the_action_once(
    stack: Stack, game_id: str
) -> None:
    game = all_games()[game_id]
    script = driver.script_of(game, 4)
    match = driver.create(stack.url, game_id, script)
    driver.play(match, script["actions"][:2])
    action = script["actions"][2]
    key = uuid.uuid4().hex
    headers = match.auth | {"Idempotency-Key": key}
    send_and_hang_up(stack.url, f"/v1/matches/{match.id}/actions", json.dumps(action).encode(), headers)
    driver.wait_for_version_beyond(match)
    with requests.Session() as session:
        retried = match.write(session, action, **{"Idempotency-Key": key})
        again = match.write(session, action, **{"Idempotency-Key": key})
    assert retried.status_code == 201, retried.text
    assert again.json() == retried.json()
    log = stack.log(match.id)
    assert driver.seqs_are_whole(log)
    action_id = retried.json()["events"][0]["meta"]["action_id"]
    assert [e for e in log if e["meta"]["action_id"] == action_id] == retried.json()["events"]
    assert sum(1 for e in log if e["meta"].get("action") == action) == 1
    assert log[-len(retried.json()["events"]) :] == retried.json()["events"]
    assert retried.json()["version"] == log[-1]["seq"]

    seen = uuid.uuid4().hex
    with requests.Session() as session:
        first = match.write(session, script["actions"][3], **{"Idempotency-Key": seen})
        repeated = match.write(session, script["actions"][3], **{"Idempotency-Key": seen})
    assert first.status_code == repeated.status_code == 201
    assert repeated.json() == first.json()
    assert stack.log(match.id)[-1]["seq"] == first.json()["version"]
