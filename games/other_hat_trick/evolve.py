"""The Other Hat Trick's evolve and view: folding events into the table, and showing it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.contract import JSON, Event
from games.other_hat_trick.constants import (
    CHOOSE,
    FINISHED,
    MIDDLE,
    MIDDLE_NAME,
    PERFORM,
    PLACES,
    PROP_COUNTS,
    REFILL,
    REVEAL,
    SWAP,
    TRICK_IDS,
    State,
    place_of,
)
from games.other_hat_trick.knowledge import (
    initial_worlds,
    known,
    possible,
    see,
    sleight_of_hand,
    swap_places,
)
from games.other_hat_trick.scoring import final_scores

Data = dict[str, Any]

# --- evolve ----------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    """The state after one event (changes ``state`` in place; never validates)."""
    handler = _EVOLVERS.get(event["type"])
    if event["type"] != "MatchCreated":
        state["step"] = state.get("step", 0) + 1
    if handler is not None:
        handler(state, event["data"])
    return state


def _created(state: State, data: Data) -> None:
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


def _trick_turned(state: State, data: Data) -> None:
    state["pile"].append(data["trick"])
    state["turned"].append(data["trick"])
    if state["phase"] == REFILL:
        _next_turn(state)
    else:
        state["phase"] = SWAP


def _props_swapped(state: State, data: Data) -> None:
    seats = state["players"].index
    mine = place_of(seats(data["player"]), data["slot"])
    theirs = place_of(seats(data["with_player"]), data["with_slot"])
    swap_places(state, mine, theirs, state["step"])
    state["phase"] = PERFORM


def _trick_performed(state: State, data: Data) -> None:
    seat = state["players"].index(data["player"])
    claims = [(place_of(seat, slot), data["props"][slot]) for slot in (0, 1)]
    see(state, claims, state["step"])
    if state["pile"] and state["pile"][-1] == data["trick"]:
        state["pile"].pop()
    state["performed"][data["player"]].append(data["trick"])
    state["failures"] = 0


def _sleight_of_hand(state: State, data: Data) -> None:
    sleight_of_hand(state, list(data["places"]))
    if state["pile"]:
        _next_turn(state)
    else:
        state["phase"] = REFILL


def _trick_failed(state: State, data: Data) -> None:
    if data["slot"] is not None:
        seat = state["players"].index(data["player"])
        see(state, [(place_of(seat, data["slot"]), data["prop"])], state["step"])
    state["failures"] = data["failures"]
    _next_turn(state)


def _match_ended(state: State, data: Data) -> None:
    state["ended_by"] = data["reason"]
    state["phase"] = REVEAL
    state["turn"] = None


def _props_revealed(state: State, data: Data) -> None:
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


def _match_finished(state: State, data: Data) -> None:
    state["finished"] = True
    state["phase"] = FINISHED


_EVOLVERS: dict[str, Callable[[State, Data], None]] = {
    "MatchCreated": _created,
    "TrickTurned": _trick_turned,
    "PropsSwapped": _props_swapped,
    "TrickPerformed": _trick_performed,
    "SleightOfHand": _sleight_of_hand,
    "TrickFailed": _trick_failed,
    "MatchEnded": _match_ended,
    "PropsRevealed": _props_revealed,
    "MatchFinished": _match_finished,
}

# --- view ------------------------------------------------------------------------------------


def view(state: State) -> JSON:
    """The table: trick pile and deck, whose turn and which step of it, and every prop's place."""
    pile = state["pile"]
    board = final_scores(state["players"], state["performed"], state["ended_by"], state["revealed"])
    return {
        "players": list(state["players"]),
        "phase": state["phase"],
        "turn": state["turn"],
        "to_act": to_act(state),
        "step": state["step"],
        "pile": list(pile),
        "top": pile[-1] if pile else None,
        "attempting": pile[-1] if pile and state["phase"] in (SWAP, PERFORM) else None,
        "deck": len(TRICK_IDS) - len(state["turned"]),
        "props": _props_view(state),
        "prop_set": dict(PROP_COUNTS),
        "arrangements": len(state["worlds"]),
        "performed": {p: list(tricks) for p, tricks in state["performed"].items()},
        "totals": board["totals"],
        "other_hat_trick_failures": state["failures"],
        "ended_by": state["ended_by"],
        "revealed": state["revealed"],
        "finished": state["finished"],
        "disputes": list(state["disputes"]),
    }


def to_act(state: State) -> list[str]:
    """The players who may act next: the player whose turn it is, or everyone at the reveal."""
    if state["phase"] == REVEAL:
        return list(state["players"])
    if state["phase"] == FINISHED or state["turn"] is None:
        return []
    return [state["turn"]]


# --- private helpers -------------------------------------------------------------------------


def _next_turn(state: State) -> None:
    players = state["players"]
    state["turn"] = players[(players.index(state["turn"]) + 1) % len(players)]
    state["phase"] = CHOOSE


def _props_view(state: State) -> dict[str, Any]:
    places = [_place_view(state, place) for place in range(PLACES)]
    shown: dict[str, Any] = {
        name: places[place_of(seat, 0) : place_of(seat, 0) + 2] for seat, name in enumerate(state["players"])
    }
    shown[MIDDLE_NAME] = places[MIDDLE]
    return shown


def _place_view(state: State, place: int) -> dict[str, Any]:
    note = state["shown"][place]
    return {
        "face_up": note is not None,
        "prop": known(state["worlds"], place),
        "possible": possible(state["worlds"], place),
        "seen_at_step": note["step"] if note is not None else None,
    }
