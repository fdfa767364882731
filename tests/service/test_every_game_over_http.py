"""Every game recorded whole over the HTTP API: the worker's scoreboard equals the rules' own."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from games.contract import Game
from games.registry import all_games
from tests.recording import rules_state
from tests.service.conftest import Table, record


def seeds_of(game: Game) -> list[int]:
    """Two example matches' seeds, a 3-player one first where the game allows 3 players."""
    players = {seed: len(game.example(seed)["players"]) for seed in range(30)}
    three = [seed for seed, count in players.items() if count == 3]
    others = [seed for seed, count in players.items() if count != 3]
    return (three[:1] + others[:1]) if three and others else [0, 1]


CASES = [(g, i) for g in all_games().values() for i in range(2)]


@pytest.mark.parametrize(("game", "which"), CASES, ids=lambda v: getattr(v, "id", str(v)))
def test_a_whole_match_over_http_is_scored_by_the_worker_as_the_rules_score_it(
    table: Callable[..., Table], work: Callable[[], int], game: Game, which: int
) -> None:
    seed = seeds_of(game)[which]
    script = game.example(seed)
    sent = itertools.count()

    def act(match: Table, action: dict[str, Any]) -> None:
        match.ok(action)
        if next(sent) % 50 == 0:
            work()  # a worker keeping up while the table plays

    match = record(table, game.id, seed, act=act)
    work()
    board = match.get("scores").json
    assert board["projected"] is True and board["version"] == board["log_version"]
    expected = game.scores(rules_state(game, script))
    assert {k: board[k] for k in expected} == expected
    assert board["finished"] is True
    shown = match.get().json
    assert shown["status"] == "finished" and shown["winners"] == expected["winners"]
