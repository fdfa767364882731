"""The short example match that ``GET /v1/games/{id}`` shows, so a client can record one at once.

The games' ``example(seed)`` scripts are whole matches, some hundreds of actions long. The one
shown is picked among a fixed range of seeds: the script whose first ``MAX_ACTIONS`` actions use
the most kinds of action, preferring one that finishes within them, then the shortest. Every
prefix of a legal script is legal, so a script cut short still records cleanly (it leaves the
match in progress, and says so with ``finished: false``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.registry import get_game

SEEDS = range(64)
MAX_ACTIONS = 60


@cache
def short_example(game_id: str) -> dict[str, Any]:
    """A short script for the game: players, setup, options, actions, and whether it finishes."""
    game = get_game(game_id)
    candidates = [_cut(game.example(seed)) for seed in SEEDS]
    return min(candidates, key=_preference)


def _cut(script: dict[str, Any]) -> dict[str, Any]:
    actions = script["actions"]
    return {
        "players": script["players"],
        "setup": script["setup"],
        "options": script["options"],
        "actions": actions[:MAX_ACTIONS],
        "finished": len(actions) <= MAX_ACTIONS,
    }


def _preference(script: dict[str, Any]) -> tuple[int, bool, int]:
    """Most kinds of action first, then finished before cut short, then fewest actions."""
    kinds = len({action["type"] for action in script["actions"]})
    return (-kinds, not script["finished"], len(script["actions"]))
