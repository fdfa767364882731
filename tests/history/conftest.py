"""Fixtures for the history tests: the API's fixtures, and a way to record a game's example match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.registry import all_games
from tests.service import conftest as api
from tests.service.conftest import Table

# The API's fixtures, shared with tests/service.
app, client, table, work = api.app, api.client, api.table, api.work


# Example seeds with short matches per game (the examples run from 4 to 700 actions), so that a
# test driving every game stays quick; two sets, so that tests see different matches.
SHORT = {"hat-trick": 1, "hats": 0, "hobbit": 1, "other-hat-trick": 6, "wizard": 7}
OTHER = {"hat-trick": 11, "hats": 3, "hobbit": 5, "other-hat-trick": 11, "wizard": 10}


def record(table: Callable[..., Table], game_id: str, seed: int, upto: int | None = None) -> Table:
    """A match of ``game_id`` with the first ``upto`` actions (all by default) of example ``seed``."""
    script = all_games()[game_id].example(seed)
    match = table(game_id, script["players"], setup=script["setup"], options=script["options"])
    for action in script["actions"][:upto]:
        match.ok(action)
    return match


@pytest.fixture
def recorded(table: Callable[..., Table]) -> Callable[..., Table]:
    """Record (part of) a game's example match through the API."""
    return lambda game_id, seed=1, upto=None: record(table, game_id, seed, upto)


def lines(answer: Any) -> list[dict[str, Any]]:
    """The JSON values of an NDJSON answer."""
    import json

    return [json.loads(line) for line in answer.get_data(as_text=True).splitlines() if line.strip()]
