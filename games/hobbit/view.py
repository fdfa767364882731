"""What the API shows of a Hobbit match: the table's view and the scoreboard (no points: a side
wins, and the result says why)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.contract import JSON, State
from games.hidden import DEAL, hold_back, masked
from games.hobbit.constants import CHARACTERS, SIDES, cards_left, health, living, side_of

# --- view and scores -----------------------------------------------------------------------------


def view(state: State) -> JSON:
    """Characters, the trick on the table, whose turn, damage dealt per side and the result."""
    return {
        "players": list(state["players"]),
        "phase": state["phase"],
        "to_act": _to_act(state),
        "round": state["round"],
        "rounds": state["options"]["rounds"],
        "options": state["options"],
        "characters": _characters(state),
        "trick": state["trick"],
        "turn": _turn(state),
        "damage_dealt": dict(state["damage_dealt"]),
        "survivors": _survivors(state),
        "hands": state["hands"],
        "marks": state["marks"],
        "eliminated": list(state["eliminated"]),
        "disputes": state["disputes"],
        "finished": state["finished"],
        "result": state["result"],
    }


def scores(state: State) -> JSON:
    """Who won (every player of the winning side; none on a draw or while unfinished) and why."""
    result = state["result"] or {}
    return {
        "finished": state["finished"],
        "winners": list(result.get("winners", [])),
        "side": result.get("side"),
        "reason": result.get("reason"),
        "explanation": result.get("explanation"),
        "survivors": _survivors(state),
        "damage_dealt": dict(state["damage_dealt"]),
        "characters": {
            p: {k: v for k, v in c.items() if k not in ("cards_left", "tricks_won")}
            for p, c in _characters(state).items()
        },
    }


# --- hidden information --------------------------------------------------------------------------


def announced(state: State) -> list[str]:
    """What the table has been shown beyond the cards played: the whole deal, once it is over."""
    return [DEAL] if state["finished"] else []


def public(now: State, shown: Sequence[str], event: dict[str, Any], effective: bool = True) -> dict[str, Any]:
    """A logged event as a reader without the write token sees it: recorded hands stay hidden
    until the match is over (an eliminated character's hand is discarded unseen: its events give
    only how many cards it held)."""
    if now["finished"] or DEAL in shown:
        return event
    return hold_back(event, ["hands"] if event.get("type") == "RoundStarted" else [], ["hands"])


def public_view(now: State, shown: Sequence[str], view: JSON) -> JSON:
    """The view at any step as a reader without the write token sees it: recorded hands as null
    cards until the match is over."""
    if now["finished"] or DEAL in shown or not view["hands"]:
        return view
    return dict(view) | {"hands": masked(view["hands"])}


# --- private helpers -----------------------------------------------------------------------------


def _characters(state: State) -> dict[str, dict[str, Any]]:
    return {
        p: {
            "character": state["characters"][p],
            "side": CHARACTERS[state["characters"][p]],
            "health": health(state["damage"][p]),
            "damage": state["damage"][p],
            "alive": state["alive"][p],
            "cards_left": cards_left(state, p),
            "pipes": state["pipes"][p],
            "tricks_won": state["tricks_won"][p],
        }
        for p in state["players"]
    }


def _survivors(state: State) -> dict[str, int]:
    counts = {side: 0 for side in SIDES}
    for player in living(state):
        counts[side_of(state, player)] += 1
    return counts


def _turn(state: State) -> str | None:
    trick = state["trick"]
    if state["phase"] != "playing" or len(trick["plays"]) >= len(trick["order"]):
        return None
    return str(trick["order"][len(trick["plays"])])


def _to_act(state: State) -> list[str]:
    if state["phase"] == "playing":
        turn = _turn(state)
        return [] if turn is None else [turn]
    if state["phase"] == "distributing":
        return [state["trick"]["winner"]]
    return []
