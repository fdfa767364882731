"""Floods by anonymous callers: rate limits, a deployment credential, and a store that fills up."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from games.registry import all_games
from tests.e2e.faults import driver
from tests.e2e.faults.conftest import Stack, start_stack

pytestmark = pytest.mark.e2e

KEY = "club-key-" + uuid.uuid4().hex


@pytest.fixture
def small_store(tmp_path: Path) -> Iterator[Stack]:
    """A deployment whose Redis holds at most 8 MB, with no eviction, as production runs it.

    No RQ worker runs, so nothing frees memory (a finished job's keys expire) while it fills.
    """
    running = start_stack(
        tmp_path, workers=0, redis_options=("--maxmemory", "8mb", "--maxmemory-policy", "noeviction")
    )
    yield running
    running.stop()


def long_match(stack: Stack) -> driver.Match:
    """The longest of a few Wizard examples, recorded whole."""
    wizard = all_games()["wizard"]
    script = max(map(wizard.example, range(6)), key=lambda s: len(s["actions"]))
    match = driver.create(stack.url, "wizard", script)
    driver.play(match, script["actions"])
    return match


def test_a_store_filled_by_anonymous_forks_answers_503_store_full_and_keeps_what_it_has(
    small_store: Stack, figure: Callable[[str], None]
) -> None:
    match = long_match(small_store)
    statuses: dict[int, int] = {}
    forks = 0
    with requests.Session() as session:
        for _ in range(3000):
            answer = session.post(f"{small_store.url}/v1/matches/{match.id}/fork", json={"at": match.version})
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
            if answer.status_code == 503:
                assert answer.headers["Content-Type"] == "application/problem+json"
                assert answer.json()["code"] == "store_full" and int(answer.headers["Retry-After"]) >= 1
                break
            assert answer.status_code == 201, answer.text
            forks += 1
    assert 503 in statuses, f"8 MB never filled: {statuses}"
    # A big write (a fork carries the whole log) is refused first; small ones fill the rest.
    small = 0
    with requests.Session() as session:
        for word in [driver.UNDO, driver.REDO] * 2000:
            write = match.write(session, word)
            if write.status_code == 503:
                break
            assert write.status_code == 201, write.text
            small += 1
    assert write.status_code == 503 and write.json()["code"] == "store_full"
    before = small_store.log(match.id)
    health = requests.get(f"{small_store.url}/healthz", timeout=10)
    assert health.status_code == 503 and health.json()["code"] == "store_full"
    assert requests.get(f"{small_store.url}/v1/matches/{match.id}/state", timeout=10).status_code == 200
    assert small_store.log(match.id) == before
    assert "Traceback" not in small_store.api.output()
    figure(
        f"store full: {forks} anonymous forks and {small} small writes filled an 8 MB Redis; "
        "then 503 store_full, "
        "/healthz 503, reads 200"
    )


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Stack]:
    """A deployment with an API key and the default rate limits."""
    running = start_stack(
        tmp_path,
        workers=1,
        TABLETAPE_API_KEYS=KEY,
        TABLETAPE_RATE_LIMIT_CREATE="20/minute",
        TABLETAPE_RATE_LIMIT_CREATE_BURST="20",
        TABLETAPE_RATE_LIMIT_WRITE="600/minute",
    )
    yield running
    running.stop()


def test_with_a_key_configured_anonymous_floods_create_nothing_and_the_key_is_rate_limited(
    guarded: Stack, figure: Callable[[str], None]
) -> None:
    body = {"game": "wizard", "players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}}
    with requests.Session() as session:
        anonymous = [session.post(f"{guarded.url}/v1/matches", json=body).status_code for _ in range(50)]
        keyed = [
            session.post(f"{guarded.url}/v1/matches", json=body, headers={"X-API-Key": KEY})
            for _ in range(25)
        ]
    # Refused for want of a key, then (the address's budget spent) before the key is even read.
    assert anonymous == [401] * 20 + [429] * 30
    codes = [answer.status_code for answer in keyed]
    assert codes.count(201) == 20 and codes[20:] == [429] * 5
    assert int(keyed[-1].headers["Retry-After"]) > 0
    listed = requests.get(f"{guarded.url}/v1/matches", params={"limit": 200}, timeout=10).json()
    assert listed["total"] == 20 == len(listed["matches"])
    figure(
        "credential: 50 anonymous creates refused (20 × 401, then 30 × 429), the key's 21st create "
        "in a minute refused (429), 20 matches made"
    )
