"""The upcasters of every registered game, gathered for the event store."""

from __future__ import annotations

from events.upcasting import Upcasters
from games.registry import all_games


def game_upcasters() -> Upcasters:
    """Every registered game's upcasters, as the event store wants them."""
    found = Upcasters()
    for game in all_games().values():
        for (event_type, from_schema), fn in game.upcasters.items():
            found.register(game.id, event_type, from_schema, fn)
    return found
