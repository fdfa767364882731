"""Folding The Hobbit Card Game's events into its state: one small function per event type.

``evolve`` is total and never validates: it records what the events say. It owns the state it is
given (changes it in place and returns it) but never the event, whose values it copies.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from games.contract import Event, State
from games.hobbit.table import cards_left, clockwise_from, colour, other_side, side_of

# ---------------------------------------------------------------------------------------------
# evolve
# ---------------------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    """The state after one event (unknown event types change nothing)."""
    handler = _HANDLERS.get(event.get("type", ""))
    if handler is None:
        return state
    handler(state, event.get("data", {}))
    return state


def _match_created(state: State, data: dict[str, Any]) -> None:
    players = list(data["players"])
    setup, options = data.get("setup", {}), data.get("options", {})
    state.clear()
    state.update(
        players=players,
        finished=False,
        disputes=[],
        options=copy.deepcopy(options),
        characters=copy.deepcopy(setup["characters"]),
        marks=copy.deepcopy(setup.get("marks", {})),
        marks_fixed="marks" in setup,
        damage={p: 0 for p in players},
        alive={p: True for p in players},
        pipes={p: 0 for p in players},
        tricks_won={p: 0 for p in players},
        damage_dealt={"good": 0, "evil": 0},
        eliminated=[],
        round=0,
        phase="round_start",
        dealt=[],
        hand_size=0,
        hands=None,
        played={},
        seen=[],
        void={},
        trick=None,
        result=None,
    )


def _round_started(state: State, data: dict[str, Any]) -> None:
    state["round"] = data["round"]
    state["dealt"] = list(data["dealt"])
    state["hand_size"] = data["hand_size"]
    hands = data.get("hands")
    state["hands"] = None if hands is None else copy.deepcopy(hands)
    state["played"] = {p: 0 for p in data["dealt"]}
    state["seen"] = []
    state["void"] = {}
    state["phase"] = "playing"
    _new_trick(state, 1, data["leader"])


def _card_played(state: State, data: dict[str, Any]) -> None:
    player, card, mark = data["player"], data["card"], data["mark"]
    trick = state["trick"]
    voids = state["void"].setdefault(player, {})
    voids.pop(colour(card), None)
    if not trick["plays"]:
        trick["led"] = colour(card)
    elif colour(card) != trick["led"]:
        voids.setdefault(trick["led"], trick["number"])
    trick["plays"].append({"player": player, "card": card, "mark": mark})
    state["seen"].append(card)
    state["played"][player] = state["played"].get(player, 0) + 1
    if state["hands"] is not None and card in state["hands"].get(player, []):
        state["hands"][player].remove(card)
    state["marks"][card] = mark


def _dispute_raised(state: State, data: dict[str, Any]) -> None:
    state["disputes"].append(copy.deepcopy(data))


def _trick_won(state: State, data: dict[str, Any]) -> None:
    state["trick"]["winner"] = data["player"]
    state["tricks_won"][data["player"]] += 1
    state["phase"] = "distributing"


def _cards_distributed(state: State, data: dict[str, Any]) -> None:
    state["trick"]["distribution"] = copy.deepcopy(data["cards"])
    state["phase"] = "resolving"


def _card_took_effect(state: State, data: dict[str, Any]) -> None:
    player = data["player"]
    if data["effect"] == "pipe":
        state["pipes"][player] += 1
    elif data["effect"] == "damage":
        state["damage_dealt"][other_side(side_of(state, player))] += 1


def _damage_changed(state: State, data: dict[str, Any]) -> None:
    state["damage"][data["player"]] = data["after"]


def _player_eliminated(state: State, data: dict[str, Any]) -> None:
    player = data["player"]
    state["alive"][player] = False
    state["eliminated"].append(player)
    if state["hands"] is not None and player in state["hands"]:
        state["hands"][player] = []


def _leader_chosen(state: State, data: dict[str, Any]) -> None:
    _new_trick(state, data["trick"], data["player"])
    state["phase"] = "playing"


def _round_ended(state: State, data: dict[str, Any]) -> None:
    state["phase"] = "round_start"


def _match_finished(state: State, data: dict[str, Any]) -> None:
    state["finished"] = True
    state["phase"] = "finished"
    state["result"] = copy.deepcopy(data)


_HANDLERS: dict[str, Callable[[State, dict[str, Any]], None]] = {
    "MatchCreated": _match_created,
    "RoundStarted": _round_started,
    "CardPlayed": _card_played,
    "DisputeRaised": _dispute_raised,
    "TrickWon": _trick_won,
    "CardsDistributed": _cards_distributed,
    "CardTookEffect": _card_took_effect,
    "DamageChanged": _damage_changed,
    "PlayerEliminated": _player_eliminated,
    "LeaderChosen": _leader_chosen,
    "RoundEnded": _round_ended,
    "MatchFinished": _match_finished,
}

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _new_trick(state: State, number: int, leader: str) -> None:
    order = [p for p in clockwise_from(state, leader) if state["alive"][p] and cards_left(state, p) > 0]
    state["trick"] = {
        "number": number,
        "leader": leader,
        "order": order,
        "led": None,
        "plays": [],
        "winner": None,
        "distribution": None,
    }
