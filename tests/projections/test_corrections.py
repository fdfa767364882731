"""Undo, redo, rewinds and projections agree with an independent model of the effective history."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.contract import Game
from games.registry import all_games
from service.bootstrap import Services
from service.recording.answers import Recorded
from tests.recording import applied, assert_agrees_with_its_log, initial_state, record_example
from tests.support.folds import naive_at


def record_with_corrections(parts: Services, game: Game, seed: int) -> tuple[str, dict[int, Any]]:
    """Record an example match with random undos and redos, checking every write against a model.

    The model is a stack of game states, one per effective action: an undo pops it, a redo
    pushes the state it popped, a new action pushes the rules' next state. It returns the
    model's state at each version the writes reached.
    """
    rng = random.Random(seed)
    script = game.example(seed)
    made = parts.recorder.create(game.id, script["players"], script["setup"], script["options"])
    states = [initial_state(game, script)]
    popped: list[tuple[dict[str, Any], Any]] = []
    done: list[dict[str, Any]] = []
    todo = list(script["actions"])
    at_version = {made.recorded.version: states[-1]}
    while todo:
        roll = rng.random()
        if roll < 0.15 and done:
            answer = parts.recorder.undo(made.match_id, made.token, None, None)
            popped.append((done.pop(), states.pop()))
        elif roll < 0.25 and popped:
            answer = parts.recorder.redo(made.match_id, made.token, None, None)
            action, state = popped.pop()
            done.append(action)
            states.append(state)
        else:
            if popped:  # the table re-records what it took back, in order
                todo[:0] = [action for action, _ in reversed(popped)]
                popped.clear()
            action = todo.pop(0)
            answer = parts.recorder.act(made.match_id, made.token, action)
            done.append(action)
            states.append(applied(game, states[-1], action))
        if rng.random() < 0.2:
            parts.projector.project(made.match_id)
        at_version[answer.version] = states[-1]
        _, env = parts.positions.head(made.match_id)
        assert env["game"] == states[-1]
    return made.match_id, at_version


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("game", list(all_games().values()), ids=lambda g: g.id)
def test_undo_and_redo_leave_exactly_the_effective_actions(parts: Services, game: Game, seed: int) -> None:
    match_id, _ = record_with_corrections(parts, game, seed)
    parts.projector.project(match_id)
    assert_agrees_with_its_log(parts, match_id)
    board = parts.queries.scoreboard(match_id)
    assert board["projected"] and board["finished"] is True


@pytest.mark.parametrize("game", list(all_games().values()), ids=lambda g: g.id)
def test_a_rewind_from_snapshots_equals_folding_from_step_one(parts: Services, game: Game) -> None:
    match_id, at_version = record_with_corrections(parts, game, seed=7)
    parts.projector.project(match_id)
    assert parts.client.zcard(parts.keys.snap(match_id)) > 0
    versions = sorted(at_version)
    for version in versions[:: max(1, len(versions) // 30)]:
        assert parts.positions.position(game, match_id, version)["game"] == at_version[version]
    last = versions[-1]
    for step in range(1, last + 1, max(1, last // 15)):
        assert parts.positions.position(game, match_id, step) == naive_at(
            parts.store, game, match_id, step
        ), step


def test_projecting_twice_writes_the_same_projection(parts: Services) -> None:
    made = record_example(parts.recorder, "wizard", 2, upto=40)
    first = parts.projector.project(made.match_id)
    saved = parts.client.hgetall(parts.keys.proj(made.match_id))
    again = parts.projector.project(made.match_id)
    assert again.folded == 0 and again.checkpoint == first.checkpoint
    assert parts.client.hgetall(parts.keys.proj(made.match_id)) == saved
    assert first.caught_up and not parts.store.marks.marked(made.match_id)


def test_a_projection_written_over_one_of_an_earlier_release_drops_the_view_and_scores_it_held(
    parts: Services,
) -> None:
    """Projections once kept the game's view and scoreboard too (reads now take both from the
    position); the next projection of such a match leaves only what reads and verify use."""
    made = record_example(parts.recorder, "wizard", 2, upto=10)
    parts.projector.project(made.match_id)
    parts.client.hset(parts.keys.proj(made.match_id), "view", json.dumps({"old": True}))
    parts.client.hset(parts.keys.proj(made.match_id), "scores", json.dumps({"old": True}))
    parts.recorder.undo(made.match_id, made.token, None, None)
    parts.projector.project(made.match_id)
    kept = {k.decode() for k in parts.client.hkeys(parts.keys.proj(made.match_id))}
    assert kept == {"checkpoint", "env", "summary", "models"}
    assert parts.verifier.check(made.match_id) == []


def test_undoing_the_last_action_of_a_finished_match_retracts_its_statistics(parts: Services) -> None:
    def keep_up(answer: Recorded) -> None:
        if answer.version // 25 != (answer.version - len(answer.events)) // 25:
            parts.projector.project(answer.match_id)  # as a worker keeping up would

    made = record_example(parts.recorder, "wizard", 3, after=keep_up)
    parts.projector.project(made.match_id)
    player = all_games()["wizard"].example(3)["players"][0]
    assert parts.client.hexists(parts.keys.stats(player), made.match_id)
    assert parts.store.indexes.entry("status", "finished").score(made.match_id) is not None
    parts.recorder.undo(made.match_id, made.token, None, None)
    parts.projector.project(made.match_id)
    assert not parts.client.hexists(parts.keys.stats(player), made.match_id)
    assert parts.store.indexes.entry("status", "finished").score(made.match_id) is None
    summary = json.loads(parts.client.hget(parts.keys.proj(made.match_id), "summary"))
    assert summary["status"] == "in_progress"
