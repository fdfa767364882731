"""Recording a game's example match through the public API of the layer under test.

``play`` is the one way tests record an example: it is given how to start a match and how to
send one action, so the same helper drives the recorder in process, the HTTP API through Flask's
client, and a whole deployment over the network. ``rules_state`` is the independent answer: the
game's state after an example's actions, folded by the rules alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from games.contract import Game
from games.registry import all_games
from games.validation import validate_action, validate_match
from service.bootstrap import Services
from service.recording.answers import Created, Recorded
from service.recording.recorder import Recorder
from tests.support.games import copied

Match = TypeVar("Match")
Script = dict[str, Any]


def play(
    start: Callable[[str, Script], Match],
    act: Callable[[Match, dict[str, Any]], Any],
    game_id: str,
    seed: int,
    upto: int | None = None,
) -> Match:
    """A match of ``game_id`` with the first ``upto`` actions (all by default) of example ``seed``."""
    script = all_games()[game_id].example(seed)
    match = start(game_id, script)
    for action in script["actions"][:upto]:
        act(match, action)
    return match


def record_example(
    recorder: Recorder,
    game_id: str,
    seed: int,
    upto: int | None = None,
    after: Callable[[Recorded], Any] | None = None,
) -> Created:
    """An example match recorded in process, through the service's recorder; ``after`` sees each answer."""

    def start(game_id: str, script: Script) -> Created:
        return recorder.create(game_id, script["players"], script["setup"], script["options"])

    def act(made: Created, action: dict[str, Any]) -> None:
        answer = recorder.act(made.match_id, made.token, action)
        if after is not None:
            after(answer)

    return play(start, act, game_id, seed, upto)


def assert_agrees_with_its_log(parts: Services, match_id: str) -> None:
    """The match's projection, and its position read now, equal a fold of its log from step 1."""
    assert parts.verifier.check(match_id) == []
    _, head = parts.positions.head(match_id)
    assert head == parts.verifier.expected(match_id).pos


def initial_state(game: Game, script: Script) -> Any:
    """The game state right after the match's creation, folded by the rules alone."""
    players, setup, options = validate_match(game, script["players"], script["setup"], script["options"])
    state: dict[str, Any] = {}
    for event in game.setup(players, setup, options):
        state = game.evolve(state, event)
    return state


def applied(game: Game, state: Any, action: dict[str, Any]) -> Any:
    """The game state after one more action, by the rules alone (``state`` itself is not changed)."""
    state = copied(state)
    for event in game.decide(state, validate_action(game, action)):
        state = game.evolve(state, event)
    return state


def rules_state(game: Game, script: Script, upto: int | None = None) -> Any:
    """The game state after the first ``upto`` actions (all by default), by the rules alone."""
    state = initial_state(game, script)
    for action in script["actions"][:upto]:
        state = applied(game, state, action)
    return state
