"""Undo, redo, rewinds and projections agree with an independent model of the effective history."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.contract import Game
from games.registry import all_games
from games.validation import validate_action, validate_match
from tests.projections.conftest import Parts


def model_state(game: Game, script: dict[str, Any], effective: list[dict[str, Any]]) -> Any:
    """The game state after the effective actions, folded from scratch by the rules alone."""
    players, setup, options = validate_match(game, script["players"], script["setup"],
                                             script["options"])
    state: dict[str, Any] = {}
    for event in game.setup(players, setup, options):
        state = game.evolve(state, event)
    for action in effective:
        for event in game.decide(copy.deepcopy(state), validate_action(game, action)):
            state = game.evolve(state, event)
    return state


def record_with_corrections(parts: Parts, game: Game, seed: int) -> tuple[str, Any]:
    """Record an example match with random undos and redos; check each step against the model."""
    rng = random.Random(seed)
    script = game.example(seed)
    made = parts.recorder.create(game.id, script["players"], script["setup"], script["options"])
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    todo = list(script["actions"])
    while todo:
        roll = rng.random()
        if roll < 0.15 and done:
            parts.recorder.undo(made.match_id, made.token, None, None)
            undone.append(done.pop())
        elif roll < 0.25 and undone:
            parts.recorder.redo(made.match_id, made.token, None, None)
            done.append(undone.pop())
        else:
            if undone:  # the table re-records what it took back, in order
                todo[:0] = undone[::-1]
                undone.clear()
            action = todo.pop(0)
            parts.recorder.act(made.match_id, made.token, action)
            done.append(action)
        if rng.random() < 0.2:
            parts.projector.project(made.match_id)
        _, env = parts.reader.head(made.match_id)
        assert env["game"] == model_state(game, script, done)
    return made.match_id, script


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("game", list(all_games().values()), ids=lambda g: g.id)
def test_undo_and_redo_leave_exactly_the_effective_actions(
    parts: Parts, game: Game, seed: int
) -> None:
    match_id, _ = record_with_corrections(parts, game, seed)
    parts.projector.project(match_id)
    board = parts.cache.field(match_id, "scores")
    assert board is not None and board[1]["finished"] is True


@pytest.mark.parametrize("game", list(all_games().values()), ids=lambda g: g.id)
def test_a_rewind_from_snapshots_equals_folding_from_step_one(parts: Parts, game: Game) -> None:
    match_id, _ = record_with_corrections(parts, game, seed=7)
    parts.projector.project(match_id)
    assert parts.client.zcard(parts.keys.snap(match_id)) > 0
    version = parts.store.version(match_id)
    for step in range(1, version + 1, max(1, version // 40)):
        fast = parts.reader.envelope(game, match_id, step)
        slow = parts.reader.naive_at(game, match_id, step)
        assert fast == slow, step


def test_projecting_twice_writes_the_same_projection(parts: Parts) -> None:
    game = all_games()["wizard"]
    script = game.example(2)
    made = parts.recorder.create(game.id, script["players"], script["setup"], script["options"])
    for action in script["actions"][:40]:
        parts.recorder.act(made.match_id, made.token, action)
    first = parts.projector.project(made.match_id)
    saved = parts.client.hgetall(parts.keys.proj(made.match_id))
    again = parts.projector.project(made.match_id)
    assert again.folded == 0 and again.checkpoint == first.checkpoint
    assert parts.client.hgetall(parts.keys.proj(made.match_id)) == saved
    assert first.caught_up and not parts.client.sismember(parts.keys.dirty(), made.match_id)


def test_undoing_the_last_action_of_a_finished_match_retracts_its_statistics(parts: Parts) -> None:
    game = all_games()["wizard"]
    script = game.example(3)
    made = parts.recorder.create(game.id, script["players"], script["setup"], script["options"])
    for action in script["actions"]:
        parts.recorder.act(made.match_id, made.token, action)
    parts.projector.project(made.match_id)
    player = script["players"][0]
    assert parts.client.hexists(parts.keys.stats(player), made.match_id)
    assert parts.client.zscore(parts.keys.index("status", "finished"), made.match_id) is not None
    parts.recorder.undo(made.match_id, made.token, None, None)
    parts.projector.project(made.match_id)
    assert not parts.client.hexists(parts.keys.stats(player), made.match_id)
    assert parts.client.zscore(parts.keys.index("status", "finished"), made.match_id) is None
    summary = json.loads(parts.client.hget(parts.keys.proj(made.match_id), "summary"))
    assert summary["status"] == "in_progress"
