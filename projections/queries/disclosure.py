"""What open reads show of a log: every event, less what the game says its table cannot see yet."""

from __future__ import annotations

from typing import Any

from games.contract import Game, State


def disclosed(game: Game, now: State, event: dict[str, Any]) -> dict[str, Any]:
    """One logged event as an open read may show it, given the match's state now."""
    return game.public(now, event) if game.public is not None else event
