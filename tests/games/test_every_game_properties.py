"""Properties every game keeps over random legal matches (the example of any seed hypothesis
draws), written once and run over every registered game, as open_spiel's random-playout test is.

Per-game property files keep only what is that game's own (cards conserved, scores by its formula).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.contract import Game
from games.registry import all_games, get_game
from games.validation import schema_validators, validate_action, validate_match
from tests.support.games import copied

# Random playouts and hypothesis searches: the quick run (`make test-quick`) leaves them out.
pytestmark = pytest.mark.slow

GAMES = list(all_games().values())
SEEDS = st.integers(min_value=0, max_value=299)
FEW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
State = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class Recording:
    """A whole match: every event in order, the state after each, and the events of each action."""

    events: list[Event]
    states: list[State]
    batches: list[list[Event]]


@cache
def recorded(game_id: str, seed: int) -> Recording:
    """The example match of ``seed`` recorded through the contract (cached by game and seed)."""
    return record(get_game(game_id), seed)


def record(game: Game, seed: int) -> Recording:
    """The example match of ``seed``, recorded action by action; decide must not touch its state."""
    script = game.example(seed)
    players, setup, options = validate_match(game, script["players"], script["setup"], script["options"])
    events = game.setup(players, setup, options)
    states: list[State] = []
    state: State = {}
    for each in events:
        state = game.evolve(state, each)
        states.append(copied(state))
    batches = []
    for action in script["actions"]:
        batch = game.decide(state, validate_action(game, action))
        # The last state kept is a deep copy of the one decide was given.
        assert state == states[-1], f"decide changed its state: {action}"
        for each in batch:
            state = game.evolve(state, each)
            states.append(copied(state))
        events = events + batch
        batches.append(batch)
    return Recording(events, states, batches)


def fold(game: Game, events: list[Event], state: State | None = None) -> State:
    """``state`` (or a new match) after ``events``."""
    state = {} if state is None else state
    for each in events:
        state = game.evolve(state, each)
    return state


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@FEW
@given(seed=SEEDS, data=st.data())
def test_rewinding_to_any_step_and_folding_forward_equals_the_live_state(
    game: Game, seed: int, data: st.DataObject
) -> None:
    match = recorded(game.id, seed)
    cut = data.draw(st.integers(min_value=1, max_value=len(match.events)), label="step")
    snapshot = json.loads(json.dumps(fold(game, match.events[:cut])))
    assert snapshot == match.states[cut - 1]
    assert fold(game, match.events[cut:], snapshot) == match.states[-1]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@FEW
@given(seed=SEEDS)
def test_every_event_state_view_and_scoreboard_is_its_own_json_round_trip(game: Game, seed: int) -> None:
    match = recorded(game.id, seed)
    for each, state in zip(match.events, match.states, strict=True):
        for value in (each, state, game.view(state), game.scores(state)):
            assert json.loads(json.dumps(value)) == value
        # What the contract promises every state and scoreboard hold, at every step.
        assert {"players", "finished", "disputes"} <= set(state)
        assert {"finished", "winners"} <= set(game.scores(state))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@FEW
@given(seed=SEEDS)
def test_the_view_names_only_seated_players_as_those_to_act(game: Game, seed: int) -> None:
    match = recorded(game.id, seed)
    for state in match.states:
        assert set(game.view(state).get("to_act", [])) <= set(state["players"])
    assert game.view(match.states[-1]).get("to_act", []) == []


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@FEW
@given(seed=SEEDS)
def test_a_match_ends_exactly_at_its_last_event_and_its_winners_are_players(game: Game, seed: int) -> None:
    match = recorded(game.id, seed)
    assert match.events[0]["type"] == "MatchCreated"
    assert [s["finished"] for s in match.states] == [False] * (len(match.states) - 1) + [True]
    board = game.scores(match.states[-1])
    assert board["finished"] is True and set(board["winners"]) <= set(match.states[-1]["players"])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@FEW
@given(seed=SEEDS)
def test_every_action_of_a_random_match_fits_its_published_schema(game: Game, seed: int) -> None:
    for action in game.example(seed)["actions"]:
        assert validate_action(game, action) == action


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@FEW
@given(seed=SEEDS)
def test_deciding_the_same_actions_again_gives_the_same_events(game: Game, seed: int) -> None:
    assert record(game, seed).events == recorded(game.id, seed).events


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, data=st.data())
def test_the_fast_schema_check_agrees_with_the_reference_validator(
    game: Game, seed: int, data: st.DataObject
) -> None:
    """Actions are checked by a compiled validator first; a value it lets through must be one
    the reference validator (whose messages the API gives) finds nothing wrong with, and back."""
    action = data.draw(st.sampled_from(game.example(seed)["actions"]))
    fields = {k: v for k, v in action.items() if k != "type"}
    names = sorted(set(fields) | set(game.actions[action["type"]].get("properties", {})) | {"extra"})
    for name in data.draw(st.lists(st.sampled_from(names), max_size=2)):
        if data.draw(st.booleans()):
            fields.pop(name, None)
        else:
            fields[name] = data.draw(JSON_VALUES)
    reference, compiled = schema_validators(game.actions[action["type"]])
    assert compiled.is_valid(fields) == (not list(reference.iter_errors(fields))), fields
