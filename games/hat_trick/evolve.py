"""Hat Trick's evolve: folds events into the state; total, never validates.

Rules' source: shared/games/hat-trick.md (from 000_541fe7a985f596f8.txt). The state holds the
options, the cards revealed so far, the round in play (its card, the declaration queue, who is
out, the judgements made) and every finished round, with the cards each player won.
"""

from __future__ import annotations

import copy
from typing import Any

from games.contract import State
from games.decider import Evolvers

# --- evolve ----------------------------------------------------------------------------------


evolve = Evolvers()


@evolve.on("MatchCreated")
def _created(state: State, data: dict[str, Any]) -> State:
    players = list(data["players"])
    return {
        "players": players,
        "setup": copy.deepcopy(data.get("setup", {})),
        "options": copy.deepcopy(data["options"]),
        "finished": False,
        "winners": [],
        "end": None,
        "disputes": [],
        "revealed": [],
        "round": None,
        "won": {player: [] for player in players},
        "discarded": [],
        "rounds": [],
    }


@evolve.on("CardRevealed")
def _revealed(state: State, data: dict[str, Any]) -> State:
    card = {key: copy.deepcopy(data[key]) for key in ("card", "colour", "grey", "starred")}
    state["revealed"].append(data["card"])
    state["round"] = {"card": card, "queue": [], "out": [], "judgements": []}
    return state


@evolve.on("DeclarationMade")
def _declared(state: State, data: dict[str, Any]) -> State:
    entry = {"player": data["player"], "stack": copy.deepcopy(data["stack"])}
    _current(state)["queue"].append(entry)
    return state


@evolve.on("DeclarationJudged")
def _judged(state: State, data: dict[str, Any]) -> State:
    round_ = _current(state)
    round_["queue"] = [entry for entry in round_["queue"] if entry["player"] != data["player"]]
    round_["judgements"].append(copy.deepcopy(data))
    if data["verdict"] == "fail":
        round_["out"].append(data["player"])
    return state


@evolve.on("CardWon")
def _card_won(state: State, data: dict[str, Any]) -> State:
    state["won"].setdefault(data["player"], []).append(data["card"])
    return _close_round(state, data["card"], "won", data["player"])


@evolve.on("CardDiscarded")
def _card_discarded(state: State, data: dict[str, Any]) -> State:
    state["discarded"].append(data["card"])
    return _close_round(state, data["card"], data["reason"], None)


@evolve.on("MatchFinished")
def _match_finished(state: State, data: dict[str, Any]) -> State:
    state["finished"] = True
    state["winners"] = list(data["winners"])
    state["end"] = data["reason"]
    return state


# --- working copies ---------------------------------------------------------------------------


def working_copy(state: State) -> State:
    """A copy evolve may change without touching the original, in O(players + round), not
    O(history): evolve replaces the round and appends to the lists, never edits what they hold."""
    work = dict(state)
    work["round"] = copy.deepcopy(state["round"])
    work["won"] = {player: list(cards) for player, cards in state["won"].items()}
    for key in ("revealed", "discarded", "rounds", "winners", "disputes"):
        work[key] = list(state[key])
    return work


# --- private helpers -------------------------------------------------------------------------


def _close_round(state: State, card: int, outcome: str, winner: str | None) -> State:
    judgements = _current(state)["judgements"]
    record = {"card": card, "outcome": outcome, "winner": winner, "judgements": judgements}
    state["rounds"].append(record)
    state["round"] = None
    return state


def _current(state: State) -> dict[str, Any]:
    """The round in play; a detached empty one when there is none (evolve never fails)."""
    return state.get("round") or {"card": {}, "queue": [], "out": [], "judgements": []}
