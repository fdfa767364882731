"""Folding The Hobbit Card Game's events into its state: one small function per event type.

``evolve`` is total and never validates: it records what the events say. It owns the state it is
given (changes it in place and returns it) but never the event, whose values it copies.
"""

from __future__ import annotations

import copy
from typing import Any

from games.contract import State
from games.decider import Evolvers
from games.hobbit.constants import cards_left, colour, other_side, side_of
from games.players import seats_from

# --- evolve --------------------------------------------------------------------------------------


evolve = Evolvers()


@evolve.on("MatchCreated")
def _match_created(state: State, data: dict[str, Any]) -> State:
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
    return state


@evolve.on("RoundStarted")
def _round_started(state: State, data: dict[str, Any]) -> State:
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
    return state


@evolve.on("CardPlayed")
def _card_played(state: State, data: dict[str, Any]) -> State:
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
    return state


@evolve.on("DisputeRaised")
def _dispute_raised(state: State, data: dict[str, Any]) -> State:
    state["disputes"].append(copy.deepcopy(data["dispute"]))
    return state


@evolve.on("TrickWon")
def _trick_won(state: State, data: dict[str, Any]) -> State:
    state["trick"]["winner"] = data["player"]
    state["tricks_won"][data["player"]] += 1
    state["phase"] = "distributing"
    return state


@evolve.on("CardsDistributed")
def _cards_distributed(state: State, data: dict[str, Any]) -> State:
    state["trick"]["distribution"] = copy.deepcopy(data["cards"])
    state["phase"] = "resolving"
    return state


@evolve.on("CardTookEffect")
def _card_took_effect(state: State, data: dict[str, Any]) -> State:
    player = data["player"]
    if data["effect"] == "pipe":
        state["pipes"][player] += 1
    elif data["effect"] == "damage":
        state["damage_dealt"][other_side(side_of(state, player))] += 1
    return state


@evolve.on("DamageChanged")
def _damage_changed(state: State, data: dict[str, Any]) -> State:
    state["damage"][data["player"]] = data["after"]
    return state


@evolve.on("PlayerEliminated")
def _player_eliminated(state: State, data: dict[str, Any]) -> State:
    player = data["player"]
    state["alive"][player] = False
    state["eliminated"].append(player)
    if state["hands"] is not None and player in state["hands"]:
        state["hands"][player] = []
    return state


@evolve.on("LeaderChosen")
def _leader_chosen(state: State, data: dict[str, Any]) -> State:
    _new_trick(state, data["trick"], data["player"])
    state["phase"] = "playing"
    return state


evolve.sets("RoundEnded", phase="round_start")


@evolve.on("MatchFinished")
def _match_finished(state: State, data: dict[str, Any]) -> State:
    state["finished"] = True
    state["phase"] = "finished"
    state["result"] = copy.deepcopy(data)
    return state


# --- private helpers -----------------------------------------------------------------------------


def _new_trick(state: State, number: int, leader: str) -> None:
    order = [
        p for p in seats_from(state["players"], leader) if state["alive"][p] and cards_left(state, p) > 0
    ]
    state["trick"] = {
        "number": number,
        "leader": leader,
        "order": order,
        "led": None,
        "plays": [],
        "winner": None,
        "distribution": None,
    }


# --- upcasters -------------------------------------------------------------------------------


def _dispute_in_one_field(data: dict[str, Any]) -> dict[str, Any]:
    """DisputeRaised schema 1 held the dispute's fields flat; schema 2 holds them under "dispute",
    the shape every game's disputes share."""
    return {"dispute": dict(data)}


EVENT_SCHEMAS = {"DisputeRaised": 2}
UPCASTERS = {("DisputeRaised", 1): _dispute_in_one_field}
