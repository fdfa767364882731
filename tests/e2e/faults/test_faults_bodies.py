"""Bodies under real gunicorn: a malformed chunked body is a 400 with a sentence, never a 500 with
a traceback; a body far over the limit is answered 413, and the client reads that answer instead
of a reset connection."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.e2e.faults.conftest import Stack, start_stack

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A deployment without workers: these requests are refused before anything is recorded."""
    running = start_stack(tmp_path_factory.mktemp("bodies"), workers=0)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def table(api: Stack) -> dict[str, Any]:
    """A Wizard match: its id and token."""
    body = {"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}}
    made = requests.post(f"{api.url}/v1/matches", json=body, timeout=10)
    assert made.status_code == 201, made.text
    return dict(made.json())


def _chunked(table: dict[str, Any], body: bytes) -> bytes:
    head = (
        f"POST /v1/matches/{table['id']}/actions HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {table['token']}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    return head.encode() + body


def _version(api: Stack, table: dict[str, Any]) -> int:
    return int(requests.get(f"{api.url}/v1/matches/{table['id']}", timeout=10).json()["version"])


@pytest.mark.parametrize(
    "body",
    [
        b"zz\r\n{}\r\n0\r\n\r\n",
        b"2;\x01bad\r\n{}\r\n0\r\n\r\n",
        b"2\r\n{}XX0\r\n\r\n",
        b"-2\r\n{}\r\n0\r\n\r\n",
    ],
    ids=["size-not-hex", "bad-extension", "no-terminator", "negative-size"],
)
def test_a_malformed_chunked_body_is_a_400_with_a_sentence_and_no_traceback(
    api: Stack, table: dict[str, Any], body: bytes
) -> None:
    before = _version(api, table)
    status, headers, answer = api.exchange(_chunked(table, body))
    assert status == 400, answer
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(answer)
    assert problem["status"] == 400 and "chunk" in problem["detail"], problem
    assert _version(api, table) == before
    assert "Traceback" not in api.logs() and "internal_error" not in api.logs()


@pytest.mark.parametrize(
    "version, connection", [("HTTP/1.1", "close"), ("HTTP/1.0", "close"), ("HTTP/1.1", "keep-alive")]
)
def test_a_5_mb_body_sent_at_a_networks_pace_reads_its_413_not_a_reset(
    api: Stack, table: dict[str, Any], version: str, connection: str
) -> None:
    """The answer comes while the body is still on its way: the server reads on (a bounded amount)
    before it closes, so the client sends the rest and reads the 413."""
    huge = b'{"type": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    head = (
        f"POST /v1/matches/{table['id']}/actions {version}\r\nHost: x\r\n"
        f"Authorization: Bearer {table['token']}\r\nContent-Type: application/json\r\n"
        f"Connection: {connection}\r\nContent-Length: {len(huge)}\r\n\r\n"
    ).encode()
    host, port = api.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as sock:
        sock.sendall(head)
        for at in range(0, len(huge), 65536):
            sock.sendall(huge[at : at + 65536])
            time.sleep(0.002)
        if connection == "keep-alive":
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.split(b" ")[1] == b"413", answer[:200]
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["code"] == "body_too_large"
