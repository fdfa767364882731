"""A match in one line: what the indexes, the match list and player statistics are built from."""

from __future__ import annotations

from typing import Any

from games.contract import Game, State

IN_PROGRESS = "in_progress"
FINISHED = "finished"
STATUSES = (IN_PROGRESS, FINISHED)


def summary_of(
    match_id: str, header: dict[str, str], game: Game, state: State, scores: Any, version: int
) -> dict[str, Any]:
    """The match's summary at ``version``: players, status, winners and totals."""
    finished = bool(scores.get("finished"))
    return {
        "id": match_id,
        "game": game.id,
        "players": list(state.get("players", [])),
        "status": FINISHED if finished else IN_PROGRESS,
        "finished": finished,
        "winners": list(scores.get("winners", [])),
        "totals": scores.get("totals"),
        "created_ms": int(float(header.get("created_ms", 0))),
        "version": version,
        "disputes": len(state.get("disputes", [])),
        "figures": game.figures(state) if finished and game.figures is not None else {},
    }
