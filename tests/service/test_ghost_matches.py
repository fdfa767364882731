"""No ghost matches: a failed create lists nothing; verify and rebuild step over what they cannot read."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import redis
from click.testing import Result
from flask import Flask
from flask.testing import FlaskClient

from events.envelope import NewEvent
from events.indexes import Indexes
from events.keys import Keys
from tests.service.conftest import Table


@pytest.fixture
def store_env(store_env: dict[str, str]) -> dict[str, str]:
    """The test's store, with a snapshot every ten events."""
    return store_env | {"TABLETAPE_SNAPSHOT_EVERY": "10"}


def test_a_create_that_fails_lists_nothing(
    app: Flask, client: FlaskClient, recorded: Callable[..., Table]
) -> None:
    recorded("hats", 0, upto=1)
    store = app.extensions["tabletape"].store
    unwritable = NewEvent("MatchCreated", {"players": float("nan")}, {})
    with pytest.raises(ValueError):
        store.create("0123456789abcdef", {"game": "hats"}, [unwritable], 1)
    listed = client.get("/v1/matches").json
    assert listed["total"] == len(listed["matches"]) == 1


def test_verify_and_rebuild_find_a_match_the_registry_misses_and_list_it_again(
    recorded: Callable[..., Table],
    client: FlaskClient,
    work: Callable[[], int],
    redis_client: redis.Redis,
    keys: Keys,
    cli: Callable[..., Result],
) -> None:
    match = recorded("hats", 0, upto=4)
    work()
    # As a process lost between a match's creation and its registration leaves it.
    Indexes(redis_client, keys).registry().remove([match.id])
    assert client.get("/v1/matches").json["total"] == 0
    found = cli("verify")
    assert found.exit_code == 1
    assert f"{match.id}: registry:" in found.output and "verified 1 matches" in found.output
    repaired = cli("rebuild")
    assert repaired.exit_code == 0, repaired.output
    assert "1 registered" in repaired.output
    assert [m["id"] for m in client.get("/v1/matches").json["matches"]] == [match.id]
    assert cli("verify").exit_code == 0


def test_verify_and_rebuild_step_over_a_registry_entry_without_a_match_and_an_unreadable_log(
    recorded: Callable[..., Table],
    work: Callable[[], int],
    redis_client: redis.Redis,
    keys: Keys,
    cli: Callable[..., Result],
) -> None:
    good = recorded("hats", 0, upto=4)
    broken = recorded("wizard", 7, upto=3)
    work()
    Indexes(redis_client, keys).registry().add({"feedfacefeedface": 1})
    redis_client.xadd(keys.log(broken.id), {"type": "Junk", "data": "{not json", "meta": "{}"}, id="99-0")

    checked = cli("verify")
    assert checked.exit_code == 1
    assert "feedfacefeedface: registry: listed, but there is no such match" in checked.output
    assert f"{broken.id}: unreadable:" in checked.output
    assert good.id not in checked.output
    assert "verified 3 matches: 2 with differences, 2 differences in all (1 unreadable)" in checked.output

    rebuilt = cli("rebuild", "--all")
    assert rebuilt.exit_code == 1
    assert f"{broken.id}: unreadable:" in rebuilt.output and "(left as it was)" in rebuilt.output
    assert "rebuilt 1 of 3 matches" in rebuilt.output
    assert "1 registry entries without a match dropped, 1 unreadable" in rebuilt.output
    assert Indexes(redis_client, keys).registry().score("feedfacefeedface") is None
    assert Indexes(redis_client, keys).registry().score(broken.id) is not None
