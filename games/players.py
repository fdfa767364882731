"""Seats: finding the player a name in an action means, the same way in every game."""

from __future__ import annotations

from typing import Any

from games.contract import fail


def match_player(players: list[str], name: Any) -> str | None:
    """The seated player ``name`` means: an exact match, else the only one equal ignoring case."""
    if not isinstance(name, str):
        return None
    if name in players:
        return name
    folded = [p for p in players if p.casefold() == name.strip().casefold()]
    return folded[0] if len(folded) == 1 else None


def find_player(players: list[str], name: Any) -> str:
    """The seated player ``name`` means, or a RuleViolation naming the players there are."""
    player = match_player(players, name)
    if player is None:
        fail(
            "unknown_player",
            f"{name!r} is not a player of this match; the players are: " + ", ".join(players),
        )
    return player
