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
            "{name!r} is not a player of this match; the players are: {players}",
            name=name,
            players=players,
        )
    return player


def seats_from(players: list[str], first: str) -> list[str]:
    """Every player once, clockwise (seat order), starting with ``first``."""
    at = players.index(first)
    return players[at:] + players[:at]


def left_of(players: list[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats clockwise after ``player`` (1: the one to the left)."""
    return players[(players.index(player) + steps) % len(players)]
