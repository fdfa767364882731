"""Building and playing matches through the games' public contract, for every game's tests.

Every game test does the same three things: create a match the way the service does (options and
setup checked and filled in by ``games.validation``), record an action (validate, decide, fold)
and check that the rules refuse one without changing the state. These helpers do them for any
registered game; a game's test module binds them to its game once:

    from tests.support import games as support

    GAME = get_game("wizard")
    create = support.creator(GAME, first_dealer="ann")
    act, run, refused = support.actor(GAME)

``act`` returns a new state (the one given is left as it was); ``Recording`` keeps one state and
the whole event list, for tests that follow a match step by step.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable
from typing import Any

import pytest

from games.contract import Game, InvalidAction, RuleViolation
from games.validation import validate_action, validate_match

State = dict[str, Any]
Event = dict[str, Any]


def copied(value: Any) -> Any:
    """A deep copy of a state, an event or a view: what ``copy.deepcopy`` gives, through pickle,
    which copies the games' plain dicts and lists several times faster (the random playouts keep
    a copy of every state they pass)."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


Action = dict[str, Any]


def fold(game: Game, events: Iterable[Event], state: State | None = None) -> State:
    """The state after folding ``events`` (from an empty state unless one is given)."""
    state = {} if state is None else state
    for event in events:
        state = game.evolve(state, event)
    return state


def setup_events(
    game: Game, players: list[str], setup: dict[str, Any], options: dict[str, Any]
) -> list[Event]:
    """Setup's events for a table, after the shape checks the service runs first."""
    names, checked, filled = validate_match(game, players, setup, options)
    return game.setup(names, checked, filled)


def create(game: Game, players: list[str], setup: dict[str, Any], options: dict[str, Any]) -> State:
    """A new match folded from setup's events."""
    return fold(game, setup_events(game, players, setup, options))


def act(game: Game, state: State, action: Action) -> tuple[State, list[Event]]:
    """Validate, decide and fold one action on a copy of ``state``; the new state and its events.

    The contract's ownership rule is checked on the way: ``decide`` leaves the state it is given
    as it was."""
    checked = validate_action(game, action)
    before = copied(state)
    events = game.decide(state, checked)
    assert state == before, "decide changed the state it was given"
    return fold(game, events, before), events


def run(game: Game, state: State, actions: Iterable[Action]) -> State:
    """The state after several actions."""
    for action in actions:
        state, _ = act(game, state, action)
    return state


def refused(game: Game, state: State, action: Action, code: str | None = None) -> RuleViolation:
    """The RuleViolation an action meets (its code asserted when given); the state is unchanged."""
    before = copied(state)
    with pytest.raises(RuleViolation) as caught:
        act(game, state, action)
    assert state == before, "a refused action changed the state it was refused on"
    if code is not None:
        assert caught.value.code == code, caught.value.message
    return caught.value


def refused_setup(
    game: Game, players: list[str], setup: dict[str, Any], options: dict[str, Any]
) -> RuleViolation:
    """The RuleViolation (or shape error) creating this match meets."""
    with pytest.raises(RuleViolation) as caught:
        setup_events(game, players, setup, options)
    return caught.value


def shape_error(game: Game, action: Action) -> InvalidAction:
    """The shape error validation finds in an action."""
    with pytest.raises(InvalidAction) as caught:
        validate_action(game, action)
    return caught.value


def types(events: Iterable[Event]) -> list[str]:
    """The events' types, in order."""
    return [e["type"] for e in events]


def of_type(events: Iterable[Event], type_: str) -> list[dict[str, Any]]:
    """The data of every event of one type."""
    return [e["data"] for e in events if e["type"] == type_]


def action(type_: str, **fields: Any) -> Action:
    """An action value from its type and fields."""
    return {"type": type_, **fields}


class Recording:
    """One match being recorded: its state now and every event so far."""

    def __init__(
        self, game: Game, players: list[str], setup: dict[str, Any], options: dict[str, Any]
    ) -> None:
        self.game = game
        self.events: list[Event] = setup_events(game, players, setup, options)
        self.state: State = fold(game, self.events)

    def act(self, type_: str, **fields: Any) -> list[Event]:
        """Record one action; its events."""
        self.state, events = act(self.game, self.state, action(type_, **fields))
        self.events.extend(events)
        return events

    def refused(self, type_: str, code: str | None = None, **fields: Any) -> RuleViolation:
        """The refusal of one action; nothing is recorded."""
        return refused(self.game, self.state, action(type_, **fields), code)

    @property
    def view(self) -> dict[str, Any]:
        """What the API shows now."""
        return dict(self.game.view(self.state))

    @property
    def scores(self) -> dict[str, Any]:
        """The scoreboard now."""
        return dict(self.game.scores(self.state))


def play_script(game: Game, script: dict[str, Any]) -> tuple[list[Event], State]:
    """Every event of an ``example(seed)`` script recorded from its start, and the final state."""
    events = setup_events(game, script["players"], script.get("setup", {}), script.get("options", {}))
    state = fold(game, events)
    for step in script["actions"]:
        state, new = act(game, state, step)
        events.extend(new)
    return events, state
