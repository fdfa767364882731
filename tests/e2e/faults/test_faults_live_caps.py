"""Spectators never lock out a scorekeeper: live feeds are capped per caller address and in all,
below the connection limit, with a 503 and Retry-After beyond; a write still goes through.

The caps are lowered through the settings (two feeds per address, three in all) rather than
opening two thousand sockets; the callers are told apart by their loopback source address.
"""

from __future__ import annotations

import http.client
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import requests

from games.registry import get_game
from tests.e2e.faults.stack import Api, RedisServer, service_env, wait_for

pytestmark = pytest.mark.e2e

# Seconds between a quiet feed's keep-alives (TABLETAPE_LIVE_KEEPALIVE_SECONDS; 15 by default).
KEEPALIVE = 1


@pytest.fixture
def capped_api(tmp_path: Path) -> Iterator[Api]:
    """The API in one gunicorn process, at most 2 live feeds per address and 3 in all."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    env = service_env(
        server.url,
        f"tt-livecap-{uuid.uuid4().hex[:8]}",
        TABLETAPE_LIVE_STREAMS="3",
        TABLETAPE_LIVE_STREAMS_PER_CLIENT="2",
        TABLETAPE_SYNC_PROJECTIONS="1",
        TABLETAPE_LIVE_KEEPALIVE_SECONDS=str(KEEPALIVE),
    )
    api = Api(tmp_path, env, processes=1)
    try:
        api.start()
        yield api
    finally:
        api.stop()
        server.stop()


def open_feed(api: Api, match_id: str, source: str) -> http.client.HTTPResponse:
    """A live feed of the match opened from the loopback address ``source``; its answer (headers read)."""
    conn = http.client.HTTPConnection("127.0.0.1", api.port, timeout=10, source_address=(source, 0))
    conn.request("GET", f"/v1/matches/{match_id}/live")
    return conn.getresponse()


def test_live_feeds_beyond_the_caps_are_refused_with_503_and_writes_still_go_through(
    capped_api: Api, figure: Callable[[str], None]
) -> None:
    url = capped_api.url
    script = get_game("wizard").example(0)
    body = {"game": "wizard", **{k: script[k] for k in ("players", "setup", "options")}}
    made = requests.post(f"{url}/v1/matches", json=body, timeout=10).json()
    with ExitStack() as feeds:
        statuses = []
        for source in ("127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.3"):
            answer = open_feed(capped_api, made["id"], source)
            feeds.callback(answer.close)
            statuses.append(answer.status)
            if answer.status != 200:
                problem = answer.read().decode()
                assert answer.getheader("Retry-After"), problem
                assert "too_many_streams" in problem and "TABLETAPE_LIVE_STREAMS" in problem, problem
        figure(f"live feeds 1-3 from one address, 4th and 5th from others (caps 2 and 3): {statuses}")
        assert statuses == [200, 200, 503, 200, 503]
        write = requests.post(
            f"{url}/v1/matches/{made['id']}/actions",
            json=script["actions"][0],
            headers={"Authorization": f"Bearer {made['token']}"},
            timeout=10,
        )
        assert write.status_code == 201, write.text
    # Feeds their spectators closed give their slots back, noticed at the feed's next keep-alive:
    # within a few of them, far sooner than the default 15 s.
    wait_for(lambda: _opens(capped_api, made["id"]), "a closed feed's slot given back", 8 * KEEPALIVE, 0.25)


def _opens(api: Api, match_id: str) -> bool:
    answer = open_feed(api, match_id, "127.0.0.1")
    answer.close()
    return answer.status == 200
