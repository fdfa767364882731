"""Crowds and slow clients: spectators and trickling bodies never take what the table's writes need.

One gunicorn process with the production settings (service.run.gunicorn_conf), as the README runs it:
200 spectators follow a match live and 64 clients send their bodies a byte at a time, while the
table keeps recording. Every write must be answered, every spectator must see every step, and the
slow clients must be cut off with a 408 once their time is up.
"""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from games.registry import all_games
from tests.e2e.faults import driver
from tests.e2e.faults.stack import Api, RedisServer, Worker, service_env

pytestmark = pytest.mark.e2e

SPECTATORS = 200
SLOW_BODIES = 64
# The deployment gives a body this long (TABLETAPE_BODY_SECONDS, its default): the slow bodies
# are cut off after it, however long the writes take. The spectators' opening and the writes must
# fit in it: about 6 s on a slow 2-core machine with nothing else running, so 8 s left a test run
# beside others too little room.
BODY_SECONDS = 15


@pytest.fixture
def one_process(tmp_path: Path) -> Iterator[Api]:
    """Redis, one RQ worker and the API as one gunicorn process with the production settings."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    env = service_env(server.url, f"tt-crowd-{time.monotonic_ns()}", TABLETAPE_BODY_SECONDS=str(BODY_SECONDS))
    api = Api(tmp_path, env, processes=1)
    worker = Worker(tmp_path, env, 1)
    try:
        api.start()
        worker.start()
        yield api
    finally:
        worker.stop()
        api.stop()
        server.stop()


def connect(api: Api, head: bytes) -> socket.socket:
    """A connection that has sent ``head`` and reads without blocking."""
    sock = socket.create_connection(("127.0.0.1", api.port), timeout=10)
    sock.sendall(head)
    sock.setblocking(False)
    return sock


def answered(sock: socket.socket) -> bool:
    """Whether the server has answered (or closed) the connection: something to read, or its end."""
    try:
        return sock.recv(1, socket.MSG_PEEK) is not None
    except BlockingIOError:
        return False


def drain(
    socks: dict[socket.socket, bytearray], seconds: float, done: Callable[[], bool] = lambda: False
) -> None:
    """Read whatever the connections have for ``seconds``, or until ``done()``."""
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0 and not done():
            for key, _ in selector.select(min(left, 0.2)):
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    selector.unregister(key.fileobj)
                socks[key.fileobj] += chunk  # type: ignore[index]


def test_spectators_and_slow_bodies_do_not_stop_the_tables_writes(
    one_process: Api, figure: Callable[[str], None]
) -> None:
    script = max(map(all_games()["hats"].example, range(4)), key=lambda s: len(s["actions"]))
    match = driver.create(one_process.url, "hats", script)
    live = f"GET /v1/matches/{match.id}/live HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n"
    spectators = {connect(one_process, live.encode()): bytearray() for _ in range(SPECTATORS)}
    slow_head = (
        f"POST /v1/matches/{match.id}/actions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {match.token}\r\nContent-Length: 4000\r\n\r\n{{"
    )
    slow = {connect(one_process, slow_head.encode()): bytearray() for _ in range(SLOW_BODIES)}

    def opened() -> bool:
        return all(b"event: state" in seen for seen in spectators.values())

    drain(spectators, 60.0, opened)
    assert opened(), [bytes(seen[:200]) for seen in spectators.values() if b"event: state" not in seen][:3]

    began = time.monotonic()
    slowest = 0.0
    writes = script["actions"][:60]
    with requests.Session() as session:
        for action in writes:
            for sock in slow:
                sock.send(b" ")  # a byte each, so that they stay busy but never finish
            asked = time.monotonic()
            answer = match.write(session, action)
            slowest = max(slowest, time.monotonic() - asked)
            assert answer.status_code == 201, answer.text
            match.version = answer.json()["version"]
    took = time.monotonic() - began
    # Every write was answered while all the slow bodies still held their connections.
    assert not [sock for sock in slow if answered(sock)], (
        f"slow bodies answered within {took:.1f} s of writes"
    )
    steps = match.version - 1
    drain(spectators, 30.0, lambda: all(s.count(b"event: frame") >= steps for s in spectators.values()))
    frames = [seen.count(b"event: frame") for seen in spectators.values()]
    assert frames == [steps] * SPECTATORS

    drain(slow, BODY_SECONDS + 5 - (time.monotonic() - began))
    answers = [bytes(seen).split(b"\r\n", 1)[0] for seen in slow.values()]
    assert [a.split(b" ")[1] for a in answers] == [b"408"] * SLOW_BODIES
    assert all(b"request_timeout" in seen for seen in slow.values())
    assert requests.get(f"{one_process.url}/healthz", timeout=5).status_code == 200
    for sock in [*spectators, *slow]:
        sock.close()
    figure(
        f"crowd: one gunicorn process, {SPECTATORS} live spectators + {SLOW_BODIES} slow bodies; "
        f"{len(writes)} writes all answered (slowest {slowest:.2f} s, {took:.1f} s in all), every "
        f"spectator saw all {steps} steps, every slow body cut off with 408 after {BODY_SECONDS:g} s"
    )
