"""The Other Hat Trick's scoreboard: trick points, -3 penalties after three failures, winners."""

from __future__ import annotations

from typing import Any

from games.contract import JSON
from games.other_hat_trick.constants import PENALISED_PROPS, PENALTY, State, trick_points

# --- scores ----------------------------------------------------------------------------------


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
