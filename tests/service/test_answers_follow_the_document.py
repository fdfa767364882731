"""The API's answers are what openapi.yaml publishes: a match created and recorded whole over HTTP,
for every game, answers its creation, each write, its state at several steps and its replay (with
the write token and without it) with bodies that fit their published schemas, ``state`` its
game's view."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.registry import all_games
from tests.service.conftest import SHORT, Table, record
from tests.support.document import problems


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_a_recorded_match_answers_as_the_document_says(
    table: Callable[..., Table], work: Callable[[], int], game_id: str
) -> None:
    written: list[dict[str, object]] = []

    def act(match: Table, action: dict[str, object]) -> None:
        written.append(match.ok(action))

    match = record(table, game_id, SHORT[game_id], act=act)
    assert problems("Created", match.created) == []
    for answer in written:
        assert problems("Recorded", answer) == [], answer
    work()
    last = match.log_length()
    for at in sorted({1, last // 2, last}):
        for headers in ({}, match.auth):
            shown = match.client.get(f"/v1/matches/{match.id}/state?at={at}", headers=headers)
            assert shown.status_code == 200 and problems("StateOut", shown.json) == [], at
    for headers in ({}, match.auth):
        replay = match.client.get(f"/v1/matches/{match.id}/replay?limit=1000", headers=headers)
        assert replay.status_code == 200 and replay.json["frames"]
        assert problems("ReplayPage", replay.json) == []
    assert problems("MatchOut", match.get().json) == []
