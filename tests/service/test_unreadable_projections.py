"""A read model that cannot be read is rebuilt from the log: never trusted, never a 500."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import redis
from click.testing import Result
from flask import Flask
from flask.testing import FlaskClient

from events.keys import Keys
from tests.service.conftest import SHORT, Table
from workers.sweep import sweep_dirty

CORRUPT = ["{not json", "[]", '{"id": 1}', '"text"']


@pytest.fixture
def store_env(store_env: dict[str, str]) -> dict[str, str]:
    """The test's store, with a snapshot every ten events."""
    return store_env | {"TABLETAPE_SNAPSHOT_EVERY": "10"}


@pytest.fixture
def rework(app: Flask, work: Callable[[], int]) -> Callable[[], None]:
    """What the workers do within seconds: the sweep enqueues the dirty matches, a worker projects them."""
    parts = app.extensions["tabletape"]

    def sweep_and_work() -> None:
        sweep_dirty(parts.client, parts.keys, parts.queue, 10)
        work()

    return sweep_and_work


@pytest.fixture
def finished(recorded: Callable[..., Table], work: Callable[[], int]) -> Table:
    """A finished Hats match, projected."""
    match = recorded("hats", SHORT["hats"])
    work()
    assert match.get("scores").json["finished"] is True
    return match


@pytest.fixture
def spoil(redis_client: redis.Redis, keys: Keys) -> Callable[[str, str, str], None]:
    """Overwrite one field of a match's projection with what cannot be read as it."""

    def write(match_id: str, field: str, raw: str) -> None:
        redis_client.hset(keys.proj(match_id), field, raw)

    return write


@pytest.mark.parametrize("raw", CORRUPT)
def test_a_corrupt_summary_lists_its_match_and_the_workers_project_it_again(
    finished: Table,
    client: FlaskClient,
    rework: Callable[[], None],
    spoil: Callable[[str, str, str], None],
    raw: str,
) -> None:
    match = finished
    want = client.get("/v1/matches").json["matches"]
    ranked = client.get("/v1/leaderboards/hats").json
    spoil(match.id, "summary", raw)
    listed = client.get("/v1/matches")
    assert listed.status_code == 200, listed.json
    assert [m["id"] for m in listed.json["matches"]] == [match.id]
    board = client.get("/v1/leaderboards/hats")
    assert board.status_code == 200, board.json
    player = want[0]["players"][0]
    assert client.get(f"/v1/players/{player}").status_code == 200
    # Handed back to the workers, who rebuild it from the log.
    rework()
    assert client.get("/v1/matches").json["matches"] == want
    assert client.get("/v1/leaderboards/hats").json == ranked


def test_a_corrupt_statistics_entry_is_no_500_and_is_written_again(
    finished: Table,
    cli: Callable[..., Result],
    client: FlaskClient,
    rework: Callable[[], None],
    redis_client: redis.Redis,
    keys: Keys,
) -> None:
    match = finished
    player = client.get("/v1/matches").json["matches"][0]["players"][0]
    want = client.get(f"/v1/players/{player}").json
    redis_client.hset(keys.stats(player), match.id, "{not json")
    assert client.get(f"/v1/players/{player}").status_code == 200
    checked = cli("verify")
    assert f"stats of {player}" in checked.output and "(0 unreadable)" in checked.output
    assert client.get("/v1/leaderboards/hats").status_code == 200
    rework()
    assert client.get(f"/v1/players/{player}").json == want


@pytest.mark.parametrize("raw", CORRUPT[:2])
def test_verify_reports_a_corrupt_summary_and_rebuild_all_mends_it(
    finished: Table,
    client: FlaskClient,
    spoil: Callable[[str, str, str], None],
    cli: Callable[..., Result],
    raw: str,
) -> None:
    match = finished
    spoil(match.id, "summary", raw)
    found = cli("verify")
    assert found.exit_code == 1
    assert f"{match.id}: summary:" in found.output and "(0 unreadable)" in found.output
    rebuilt = cli("rebuild", "--all")
    assert rebuilt.exit_code == 0, rebuilt.output
    assert cli("verify").exit_code == 0
    assert client.get("/v1/matches").json["matches"][0]["finished"] is True


@pytest.mark.parametrize("raw", CORRUPT[:2])
def test_a_corrupt_projected_position_is_no_500_and_is_projected_again(
    finished: Table, rework: Callable[[], None], spoil: Callable[[str, str, str], None], raw: str
) -> None:
    match = finished
    scores, replay = match.get("scores").json, match.get("replay").json
    spoil(match.id, "env", raw)
    folded = match.get("scores")
    assert folded.status_code == 200 and folded.json["totals"] == scores["totals"]
    assert match.get("replay").json == replay
    rework()
    assert match.get("scores").json == scores
