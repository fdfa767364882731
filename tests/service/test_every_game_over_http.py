"""Every game recorded whole over the HTTP API: the worker's scoreboard equals the rules' own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.contract import Game
from games.registry import all_games
from tests.recording import rules_state
from tests.service.conftest import Table


def scripts_of(game: Game) -> list[dict[str, Any]]:
    """Two example matches, a 3-player one first where the game allows 3 players."""
    examples = [game.example(seed) for seed in range(30)]
    three = [s for s in examples if len(s["players"]) == 3]
    others = [s for s in examples if len(s["players"]) != 3]
    return (three[:1] + others[:1]) if three and others else examples[:2]


CASES = [(g, i) for g in all_games().values() for i in range(2)]


@pytest.mark.parametrize(("game", "which"), CASES, ids=lambda v: getattr(v, "id", str(v)))
def test_a_whole_match_over_http_is_scored_by_the_worker_as_the_rules_score_it(
    table: Callable[..., Table], work: Callable[[], int], game: Game, which: int
) -> None:
    script = scripts_of(game)[which]
    match = table(game.id, script["players"], setup=script["setup"], options=script["options"])
    for i, action in enumerate(script["actions"]):
        match.ok(action)
        if i % 50 == 0:
            work()
    work()
    board = match.get("scores").json
    assert board["projected"] is True and board["version"] == board["log_version"]
    expected = game.scores(rules_state(game, script))
    assert {k: board[k] for k in expected} == expected
    assert board["finished"] is True
    shown = match.get().json
    assert shown["status"] == "finished" and shown["winners"] == expected["winners"]
