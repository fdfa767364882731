"""Webhooks delivered by real RQ workers to a receiver on 127.0.0.1: every finish, signed; a 500
retried with the same delivery id; the hook's log says what happened; a receiver that keeps
failing pauses its hook, which says so, and gets what it missed once resumed; addresses the
operator has not allowed are refused by the running API."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.e2e.faults import driver
from tests.e2e.faults.conftest import Stack, start_stack
from tests.e2e.faults.stack import wait_for
from tests.e2e.faults.test_faults_feed import shortest

pytestmark = pytest.mark.e2e
KEY = "operator-key-for-tests"


class Receiver:
    """A webhook receiver: keeps every request, and answers 500 to the first one it gets (and to
    every one while ``down``)."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes, int]] = []
        self.lock = threading.Lock()
        self.down = False
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    status = 500 if receiver.down or not receiver.received else 200
                    receiver.received.append((dict(self.headers), body, status))
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def verified(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """A receiver's check, with the standard library only (as docs/integrations.md shows it)."""
    signed = headers["X-Tabletape-Timestamp"].encode() + b"." + body
    expected = "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers["X-Tabletape-Signature"])


def create(url: str, game_id: str, script: dict[str, Any]) -> driver.Match:
    """Create a match on a deployment whose creating writes need its key."""
    body = {"game": game_id, **{k: script[k] for k in ("players", "setup", "options")}}
    made = requests.post(f"{url}/v1/matches", json=body, headers={"X-API-Key": KEY}, timeout=20)
    assert made.status_code == 201, made.text
    return driver.Match(url, made.json()["id"], made.json()["token"], made.json()["version"])


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    """A deployment with an API key that allows hooks to point at loopback, and two workers."""
    running = start_stack(tmp_path, workers=2, TABLETAPE_API_KEYS=KEY, TABLETAPE_HOOKS_ALLOW="127.0.0.0/8")
    yield running
    running.stop()


def test_a_receiver_gets_every_finish_signed_and_a_500_is_retried_with_the_same_delivery_id(
    stack: Stack,
) -> None:
    receiver = Receiver()
    try:
        made = requests.post(
            f"{stack.url}/v1/hooks",
            json={"url": receiver.url, "events": ["match.finished"]},
            headers={"X-API-Key": KEY},
            timeout=10,
        )
        assert made.status_code == 201, made.text
        hook = made.json()
        finished = []
        for game_id in ("hat-trick", "hobbit", "wizard"):
            script = shortest(game_id, 1)[0]
            match = create(stack.url, game_id, script)
            driver.play(match, script["actions"])
            finished.append(match.id)

        def acknowledged() -> set[str]:
            with receiver.lock:
                return {
                    json.loads(b)["event"]["match_id"] for _, b, status in receiver.received if status == 200
                }

        wait_for(lambda: acknowledged() == set(finished), "every finish acknowledged", 90)
        with receiver.lock:
            received = list(receiver.received)
        assert all(verified(hook["secret"], h, b) for h, b, _ in received)
        assert {json.loads(b)["event"]["type"] for _, b, _ in received} == {"MatchFinished"}
        failed_headers, failed_body, _ = received[0]
        again = [
            h for h, b, status in received[1:] if json.loads(b)["event"] == json.loads(failed_body)["event"]
        ]
        assert again and all(
            h["X-Tabletape-Delivery"] == failed_headers["X-Tabletape-Delivery"] for h in again
        )

        def attempts() -> set[tuple[bool, int | None]]:
            log = requests.get(
                f"{stack.url}/v1/hooks/{hook['id']}/deliveries", headers={"X-API-Key": KEY}, timeout=10
            )
            return {
                (e["ok"], e.get("status"))
                for e in log.json()["deliveries"]
                if e["delivery_id"] == failed_headers["X-Tabletape-Delivery"]
            }

        # The worker notes an attempt once the receiver's answer is in: a moment after it answered.
        wait_for(lambda: (True, 200) in attempts(), "the retry's success in the delivery log", 10)
        assert attempts() == {(False, 500), (True, 200)}
    finally:
        receiver.server.shutdown()


def operator(method: str, url: str, **request: Any) -> requests.Response:
    """A request of the operator's, with the deployment's key."""
    return requests.request(method, url, headers={"X-API-Key": KEY}, timeout=10, **request)


@pytest.mark.parametrize("refused", ["http://169.254.169.254/latest/meta-data", "http://10.1.2.3/x"])
def test_the_running_api_refuses_a_hook_to_an_address_the_operator_has_not_allowed(
    stack: Stack, refused: str
) -> None:
    answer = operator("post", f"{stack.url}/v1/hooks", json={"url": refused, "events": ["*"]})
    assert answer.status_code == 422 and answer.json()["code"] == "hook_refused"
    assert "address" in answer.json()["detail"]
    listed = operator("get", f"{stack.url}/v1/hooks").json()["hooks"]
    assert refused not in {h["url"] for h in listed}


def test_a_hook_that_keeps_failing_is_paused_says_so_and_gets_what_it_missed_once_resumed(
    stack: Stack,
) -> None:
    receiver = Receiver()
    receiver.down = True
    try:
        hook = operator("post", f"{stack.url}/v1/hooks", json={"url": receiver.url, "events": ["*"]}).json()
        script = shortest("hats", 1)[0]
        match = create(stack.url, "hats", script)
        driver.play(match, script["actions"])

        def listed() -> dict[str, Any]:
            hooks = operator("get", f"{stack.url}/v1/hooks").json()["hooks"]
            return next(dict(h) for h in hooks if h["id"] == hook["id"])

        wait_for(lambda: listed()["paused"], "the failing hook paused", 60)
        assert "failed attempts" in listed()["paused_reason"]
        log = operator("get", f"{stack.url}/v1/hooks/{hook['id']}/deliveries").json()["deliveries"]
        assert log and all(not e["ok"] for e in log) and {e.get("status") for e in log} <= {500, None}
        with receiver.lock:
            tried = len(receiver.received)
        more = shortest("hat-trick", 1)[0]
        later = create(stack.url, "hat-trick", more)
        driver.play(later, more["actions"])
        time.sleep(3)  # a sweep and more: a paused hook is sent nothing
        with receiver.lock:
            assert len(receiver.received) == tried
        receiver.down = False
        assert operator("post", f"{stack.url}/v1/hooks/{hook['id']}/resume").json()["paused"] is False

        def acknowledged() -> set[tuple[str, int]]:
            with receiver.lock:
                events = [json.loads(b)["event"] for _, b, status in receiver.received if status == 200]
            return {(e["match_id"], e["seq"]) for e in events}

        # What the feed published while it was paused comes once it is resumed.
        wanted = {(later.id, seq) for seq in range(1, later.version + 1)}
        wait_for(lambda: wanted <= acknowledged(), "the resumed hook getting the later match", 90)
        with receiver.lock:
            assert all(verified(hook["secret"], h, b) for h, b, _ in receiver.received)
    finally:
        receiver.server.shutdown()
