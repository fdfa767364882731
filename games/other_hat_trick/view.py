"""The Other Hat Trick's view and scores: the table as the API shows it, and the scoreboard
(trick points, -3 penalties after three failures, winners)."""

from __future__ import annotations

from typing import Any

from games.contract import JSON
from games.other_hat_trick.constants import (
    MIDDLE,
    MIDDLE_NAME,
    PENALISED_PROPS,
    PENALTY,
    PERFORM,
    PLACES,
    PROP_COUNTS,
    SWAP,
    TRICK_IDS,
    State,
    place_of,
    trick_points,
    trick_title,
)
from games.other_hat_trick.knowledge import known, possible
from games.other_hat_trick.turns import to_act

# Each trick's printed name by its id, for the tables and sentences that show one.
TITLES = {trick: trick_title(trick) for trick in TRICK_IDS}

# --- view and scores ----------------------------------------------------------------------------------


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
        "titles": TITLES,
        "totals": board["totals"],
        "other_hat_trick_failures": state["failures"],
        "ended_by": state["ended_by"],
        "revealed": state["revealed"],
        "finished": state["finished"],
        "disputes": list(state["disputes"]),
    }


def final_scores(
    players: list[str],
    performed: dict[str, list[str]],
    ended_by: str | None,
    revealed: dict[str, Any] | None,
) -> dict[str, Any]:
    """Points, penalties (negative), totals and winners from the tricks and the revealed props."""
    points = {p: sum(trick_points(trick) for trick in performed[p]) for p in players}
    penalties = {p: 0 for p in players}
    if ended_by == "three_failures" and revealed is not None:
        for p in players:
            penalties[p] = -PENALTY * sum(1 for prop in revealed[p] if prop in PENALISED_PROPS)
    totals = {p: points[p] + penalties[p] for p in players}
    best = max(totals.values())
    return {
        "points": points,
        "penalties": penalties,
        "totals": totals,
        "winners": [p for p in players if totals[p] == best],
    }


def scores(state: State) -> JSON:
    """The scoreboard: tricks and points per player, penalties, totals and the winners."""
    board = final_scores(state["players"], state["performed"], state["ended_by"], state["revealed"])
    return {
        "finished": state["finished"],
        "winners": board["winners"] if state["finished"] else [],
        "totals": board["totals"],
        "points": board["points"],
        "penalties": board["penalties"],
        "tricks": {p: list(tricks) for p, tricks in state["performed"].items()},
        "ended_by": state["ended_by"],
    }


# --- private helpers -------------------------------------------------------------------------


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
