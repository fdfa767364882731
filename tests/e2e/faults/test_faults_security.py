"""Security: tokens random, stored hashed, never logged or echoed; CORS closed unless configured."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.e2e.faults import driver
from tests.e2e.faults.conftest import Stack
from tests.e2e.faults.stack import Api

pytestmark = pytest.mark.e2e

WEB_APP = "https://score.example"


@pytest.fixture(scope="module")
def matches(stack: Stack) -> list[driver.Match]:
    """A match of every game, three actions in, plus refused writes with wrong and missing tokens."""
    made = driver.one_of_each(stack.url, 3, lambda actions: actions[:3])
    first, second = made[0], made[1]
    for match, token in [(first, second.token), (second, first.token), (first, first.token + "x")]:
        refused = requests.post(
            f"{stack.url}/v1/matches/{match.id}/undo",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert refused.status_code == 403
    for match in made:
        stack.converged(match.id, match.version)
    return made


def test_tokens_are_long_random_and_different_for_every_match(matches: list[driver.Match]) -> None:
    tokens = [m.token for m in matches]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 40 for t in tokens)
    assert len({t[:8] for t in tokens}) == len(tokens)


def test_redis_holds_only_the_hash_of_a_token(stack: Stack, matches: list[driver.Match]) -> None:
    client = stack.client()
    stored = []
    for key in client.scan_iter(match=f"{stack.prefix}*", count=1000):
        kind = client.type(key)
        if kind == b"hash":
            stored += [*client.hkeys(key), *client.hvals(key)]
        elif kind == b"stream":
            stored += [v for _id, fields in client.xrange(key) for v in fields.values()]
        elif kind in (b"zset", b"set"):
            stored += list(client.zrange(key, 0, -1) if kind == b"zset" else client.smembers(key))
        elif kind == b"string":
            stored.append(client.get(key))
    everything = b"\n".join(stored)
    for match in matches:
        assert match.token.encode() not in everything
        digest = hashlib.sha256(match.token.encode()).hexdigest()
        assert client.hget(stack.keys.meta(match.id), "token_hash") == digest.encode()


def test_no_log_of_any_process_holds_a_token(stack: Stack, matches: list[driver.Match]) -> None:
    logs = stack.logs()
    assert "POST /v1/matches/" in logs  # the access log is on, and read here
    for match in matches:
        assert match.token not in logs


def test_no_read_echoes_a_token(stack: Stack, matches: list[driver.Match]) -> None:
    for match in matches:
        for path in ("", "/events", "/state", "/scores", "/replay"):
            answer = requests.get(f"{stack.url}/v1/matches/{match.id}{path}", timeout=10)
            assert answer.status_code == 200 and match.token not in answer.text
        refused = requests.post(
            f"{stack.url}/v1/matches/{match.id}/undo",
            headers={"Authorization": f"Bearer {match.token}x"},
            timeout=10,
        )
        assert match.token not in refused.text
    listed = requests.get(f"{stack.url}/v1/matches", params={"limit": 200}, timeout=10).text
    assert not any(m.token in listed for m in matches)


@pytest.fixture(scope="module")
def web_api(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """A second API process on the same store, configured for one web scorekeeping app."""
    folder: Path = tmp_path_factory.mktemp("cors")
    api = Api(folder, stack.env(TABLETAPE_CORS_ORIGINS=WEB_APP))
    api.start()
    yield api
    api.stop()


def preflight(url: str, origin: str) -> requests.Response:
    """A browser's CORS preflight for a write."""
    return requests.options(
        f"{url}/v1/matches/x/actions",
        timeout=10,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key",
        },
    )


def test_cors_is_closed_by_default(stack: Stack) -> None:
    for answer in (
        preflight(stack.url, WEB_APP),
        requests.get(f"{stack.url}/v1/games", headers={"Origin": WEB_APP}, timeout=10),
    ):
        assert "Access-Control-Allow-Origin" not in answer.headers


def test_cors_lets_the_configured_web_app_write_and_read(web_api: Api) -> None:
    answer = preflight(web_api.url, WEB_APP)
    assert answer.headers["Access-Control-Allow-Origin"] == WEB_APP
    allowed = answer.headers["Access-Control-Allow-Headers"].lower()
    assert all(h in allowed for h in ("authorization", "if-match", "idempotency-key"))
    read = requests.get(f"{web_api.url}/v1/games", headers={"Origin": WEB_APP}, timeout=10)
    assert read.headers["Access-Control-Allow-Origin"] == WEB_APP
    assert "etag" in read.headers["Access-Control-Expose-Headers"].lower()


def test_cors_turns_other_origins_away(web_api: Api) -> None:
    for answer in (
        preflight(web_api.url, "https://evil.example"),
        requests.get(f"{web_api.url}/v1/games", headers={"Origin": "https://evil.example"}, timeout=10),
    ):
        assert "Access-Control-Allow-Origin" not in answer.headers
