"""The Other Hat Trick's evolve: folding events into the table; total, never validates."""

from __future__ import annotations

from typing import Any

from games.contract import Event
from games.decider import Evolvers, evolve_with
from games.other_hat_trick.constants import (
    CHOOSE,
    FINISHED,
    MIDDLE,
    MIDDLE_NAME,
    PERFORM,
    PLACES,
    REFILL,
    REVEAL,
    SWAP,
    State,
    place_of,
)
from games.other_hat_trick.knowledge import (
    initial_worlds,
    see,
    sleight_of_hand,
    swap_places,
)
from games.players import left_of

Data = dict[str, Any]

# --- evolve ----------------------------------------------------------------------------------


_EVOLVERS = Evolvers()


def evolve(state: State, event: Event) -> State:
    """The state after one event (changes ``state`` in place; never validates)."""
    if event["type"] != "MatchCreated":
        # Steps count the events after MatchCreated, so a view can say when a prop was seen.
        state["step"] = state.get("step", 0) + 1
    return evolve_with(_EVOLVERS, state, event)


@_EVOLVERS.on("MatchCreated")
def _created(state: State, data: Data) -> State:
    players = list(data["players"])
    state.clear()
    state.update(
        players=players,
        setup=dict(data["setup"]),
        options=dict(data["options"]),
        finished=False,
        disputes=[],
        step=1,
        phase=CHOOSE,
        turn=data["setup"]["first_player"],
        pile=[data["setup"]["first_trick"]],
        turned=[data["setup"]["first_trick"]],
        performed={p: [] for p in players},
        failures=0,
        ended_by=None,
        worlds=initial_worlds(),
        shown=[None] * PLACES,
        revealed=None,
    )
    return state


@_EVOLVERS.on("TrickTurned")
def _trick_turned(state: State, data: Data) -> State:
    state["pile"].append(data["trick"])
    state["turned"].append(data["trick"])
    if state["phase"] == REFILL:
        _end_turn(state)
    else:
        state["phase"] = SWAP
    return state


@_EVOLVERS.on("PropsSwapped")
def _props_swapped(state: State, data: Data) -> State:
    seats = state["players"].index
    mine = place_of(seats(data["player"]), data["slot"])
    theirs = place_of(seats(data["with_player"]), data["with_slot"])
    swap_places(state, mine, theirs, state["step"])
    state["phase"] = PERFORM
    return state


@_EVOLVERS.on("TrickPerformed")
def _trick_performed(state: State, data: Data) -> State:
    seat = state["players"].index(data["player"])
    claims = [(place_of(seat, slot), data["props"][slot]) for slot in (0, 1)]
    see(state, claims, state["step"])
    if state["pile"] and state["pile"][-1] == data["trick"]:
        state["pile"].pop()
    state["performed"][data["player"]].append(data["trick"])
    state["failures"] = 0
    return state


@_EVOLVERS.on("SleightOfHand")
def _sleight_of_hand(state: State, data: Data) -> State:
    sleight_of_hand(state, list(data["places"]))
    _end_turn(state)
    return state


@_EVOLVERS.on("TrickFailed")
def _trick_failed(state: State, data: Data) -> State:
    if data["slot"] is not None:
        seat = state["players"].index(data["player"])
        see(state, [(place_of(seat, data["slot"]), data["prop"])], state["step"])
    state["failures"] = data["failures"]
    _next_turn(state)
    return state


@_EVOLVERS.on("MatchEnded")
def _match_ended(state: State, data: Data) -> State:
    state["ended_by"] = data["reason"]
    state["phase"] = REVEAL
    state["turn"] = None
    return state


@_EVOLVERS.on("PropsRevealed")
def _props_revealed(state: State, data: Data) -> State:
    props = data["props"]
    claims = [
        (place_of(seat, slot), props[name][slot])
        for seat, name in enumerate(state["players"])
        for slot in (0, 1)
    ]
    see(state, [*claims, (MIDDLE, props[MIDDLE_NAME])], state["step"])
    state["revealed"] = {
        name: list(value) if isinstance(value, list) else value for name, value in props.items()
    }
    return state


_EVOLVERS.sets("MatchFinished", finished=True, phase=FINISHED)


# --- private helpers -------------------------------------------------------------------------


def _end_turn(state: State) -> None:
    """The turn ends after a trick: it passes to the left once the pile holds a trick to choose
    from; an empty pile is refilled first (``REFILL``), and the turn passes when it is."""
    if state["pile"]:
        _next_turn(state)
    else:
        state["phase"] = REFILL


def _next_turn(state: State) -> None:
    state["turn"] = left_of(state["players"], state["turn"])
    state["phase"] = CHOOSE
