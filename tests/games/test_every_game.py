"""The contract, checked the same way for every registered game through its example matches."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.contract import Game
from games.registry import all_games
from games.validation import validate_action, validate_match

GAMES = list(all_games().values())
SEEDS = range(6)


def play(game: Game, script: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Record a script through the contract; return every event and the state after each."""
    players, setup, options = validate_match(game, script["players"], script["setup"], script["options"])
    events = game.setup(players, setup, options)
    state: dict[str, Any] = {}
    states = []
    for ev in events:
        state = game.evolve(state, ev)
        states.append(copy.deepcopy(state))
    for action in script["actions"]:
        before = json.dumps(state, sort_keys=True)
        new = game.decide(state, validate_action(game, action))
        assert json.dumps(state, sort_keys=True) == before, f"decide changed the state: {action}"
        for ev in new:
            state = game.evolve(state, ev)
            states.append(copy.deepcopy(state))
        events += new
    return events, states


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_example_of_a_seed_is_always_the_same_match(game: Game) -> None:
    assert game.example(11) == game.example(11)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_an_example_match_plays_to_a_finished_scoreboard(game: Game, seed: int) -> None:
    events, states = play(game, game.example(seed))
    assert events[0]["type"] == "MatchCreated"
    board = game.scores(states[-1])
    assert board["finished"] is True and states[-1]["finished"] is True
    assert set(board["winners"]) <= set(states[-1]["players"])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_step_has_a_json_view_and_scoreboard(game: Game, seed: int) -> None:
    events, states = play(game, game.example(seed))
    for event, state in zip(events, states, strict=True):
        assert json.loads(json.dumps(event)) == event
        assert json.loads(json.dumps(state)) == state
        view, board = game.view(state), game.scores(state)
        assert json.loads(json.dumps(view)) == view
        assert {"finished", "winners"} <= set(board)
        assert {"players", "finished", "disputes"} <= set(state)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_folding_from_a_snapshot_at_any_step_equals_the_live_state(game: Game, seed: int) -> None:
    events, states = play(game, game.example(seed))
    for cut in range(0, len(events), max(1, len(events) // 25)):
        state = json.loads(json.dumps(states[cut]))
        for ev in events[cut + 1 :]:
            state = game.evolve(state, ev)
        assert state == states[-1]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_finished_match_is_described_with_json_schemas(game: Game) -> None:
    described = game.describe()
    assert described["actions"] and all(s.get("type") == "object" for s in described["actions"].values())
    assert json.loads(json.dumps(described)) == described
