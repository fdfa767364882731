"""A match in one line: what the indexes, the match list and player statistics are built from."""

from __future__ import annotations

import json
from collections.abc import Iterable
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
    } | ({"origin": header["origin_id"]} if header.get("origin_id") else {})


def once_per_origin(summaries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The summaries with one per origin: an imported copy of a match (``origin``: the match it
    was first recorded as) counts as that match, once, as its earliest summary."""
    kept: dict[str, dict[str, Any]] = {}
    for summary in sorted(summaries, key=lambda s: (s.get("created_ms", 0), str(s.get("id")))):
        origin = summary.get("origin") or summary.get("id")
        kept.setdefault(str(origin) if origin else f"#{len(kept)}", summary)
    return list(kept.values())


# What every summary holds, and of what kind: a stored one without them is not one.
_SHAPE = {"id": str, "game": str, "players": list, "status": str, "finished": bool}


def readable(raw: Any) -> dict[str, Any] | None:
    """A stored summary (JSON text) as a summary, or None when it is not one (not JSON, not an
    object, or without the fields every summary has): a read model that cannot be read is
    projected again from the log, never trusted."""
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict):
        return None
    if any(not isinstance(value.get(name), kind) for name, kind in _SHAPE.items()):
        return None
    return value
