"""Live follow against `tabletape serve`: a spectator listens while the table records, drops, resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from games.registry import all_games
from tests.e2e.conftest import Served, free_port, wait_until_healthy
from tests.e2e.faults import driver

pytestmark = pytest.mark.e2e
Message = tuple[str, Any, str | None]


def sse(response: requests.Response) -> Iterator[Message]:
    """(event, data, id) of each message of a Server-Sent Events response."""
    fields: dict[str, str] = {}
    for raw in response.iter_lines(decode_unicode=True):
        if raw:
            if not raw.startswith(":") and ": " in raw:
                name, value = raw.split(": ", 1)
                fields[name] = value
            continue
        if "event" in fields:
            yield fields["event"], json.loads(fields["data"]), fields.get("id")
        fields = {}


class Table:
    """The scorekeeping app: sends a script's actions from a thread of its own."""

    def __init__(self, url: str, game_id: str, seed: int) -> None:
        self.script = all_games()[game_id].example(seed)
        self.match = driver.create(url, game_id, self.script)
        self.id = self.match.id
        self.created = self.match.version
        self.sent = 0

    @property
    def version(self) -> int:
        """The match's version after the last action sent."""
        return self.match.version

    def send(self, count: int) -> threading.Thread:
        """Send the next ``count`` actions in the background."""
        actions = self.script["actions"][self.sent : self.sent + count]
        self.sent += len(actions)
        thread = threading.Thread(target=driver.play, args=(self.match, actions))
        thread.start()
        return thread


def listen(
    url: str, match_id: str, last_event_id: str | None = None, token: str | None = None
) -> requests.Response:
    """Follow a match live; with its write token, nothing held back."""
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    answer = requests.get(f"{url}/v1/matches/{match_id}/live", headers=headers, stream=True, timeout=(5, 60))
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/event-stream")
    return answer


def test_a_spectator_follows_a_match_live_and_resumes_after_a_disconnect_without_gaps_or_repeats(
    shared_serve: Served,
) -> None:
    table = Table(shared_serve.url, "hats", 0)
    total = len(table.script["actions"])
    first = listen(shared_serve.url, table.id)
    messages = sse(first)
    kind, state, event_id = next(messages)
    assert kind == "state" and event_id == str(table.version) and state["finished"] is False
    steps: list[int] = []
    sender = table.send(total // 3)
    for kind, frame, event_id in messages:
        assert kind == "frame" and frame["step"] == int(event_id or 0)
        steps.append(frame["step"])
        if len(steps) == 5:
            break
    first.close()
    sender.join()
    table.send(total // 3).join()
    resumed = listen(shared_serve.url, table.id, last_event_id=str(steps[-1]))
    sender = table.send(total)
    ending: list[Message] = []
    for message in sse(resumed):
        if message[0] == "end":
            ending.append(message)
            break
        assert message[0] == "frame"
        steps.append(message[1]["step"])
    sender.join()
    resumed.close()
    assert steps == list(range(table.created + 1, table.version + 1))
    assert ending and ending[0][1]["finished"] is True and ending[0][1]["version"] == table.version
    final = requests.get(f"{shared_serve.url}/v1/matches/{table.id}/state", timeout=5).json()["state"]
    assert ending[0][1]["state"] == final


def test_many_spectators_of_one_match_each_see_every_step(shared_serve: Served) -> None:
    table = Table(shared_serve.url, "hat-trick", 1)
    streams = [listen(shared_serve.url, table.id) for _ in range(8)]
    seen: list[list[int]] = [[] for _ in streams]

    def follow(i: int) -> None:
        for kind, data, _ in sse(streams[i]):
            if kind == "end":
                return
            if kind == "frame":
                seen[i].append(data["step"])

    readers = [threading.Thread(target=follow, args=(i,)) for i in range(len(streams))]
    for reader in readers:
        reader.start()
    table.send(len(table.script["actions"])).join()
    for reader in readers:
        reader.join(timeout=60)
    for stream in streams:
        stream.close()
    assert all(steps == list(range(table.created + 1, table.version + 1)) for steps in seen)


def test_following_an_unknown_match_is_a_404_problem(shared_serve: Served) -> None:
    answer = requests.get(f"{shared_serve.url}/v1/matches/nope/live", timeout=5)
    assert answer.status_code == 404 and answer.json()["code"] == "unknown_match"


def test_a_spectator_on_a_second_api_process_follows_what_the_first_one_records(
    served: Served, tmp_path: Path
) -> None:
    table = Table(served.url, "hats", 3)
    port = free_port()
    env = dict(os.environ, **served.store_env())
    log = tmp_path / "second.log"
    with log.open("wb") as out:
        second = subprocess.Popen(
            [sys.executable, "-m", "service.cli.main", "serve", "--port", str(port), "--workers", "0"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        other = f"http://127.0.0.1:{port}"
        wait_until_healthy(other, second, log)
        stream = listen(other, table.id)
        sender = table.send(len(table.script["actions"]))
        steps: list[int] = []
        for kind, data, _ in sse(stream):
            if kind == "end":
                break
            if kind == "frame":
                steps.append(data["step"])
        stream.close()
        sender.join()
        assert steps == list(range(table.created + 1, table.version + 1))
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=20)
