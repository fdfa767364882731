"""Wizard actions written short, for tests that record a round: ``bids(bob=1, cy=0)``,
``plays(bob="AS", cy="2S")``, each in the order its keywords are given."""

from __future__ import annotations

from typing import Any

Action = dict[str, Any]


def bids(**tricks: int) -> list[Action]:
    """One bid action a player, in the order given."""
    return [{"type": "bid", "player": player, "tricks": n} for player, n in tricks.items()]


def plays(**cards: str) -> list[Action]:
    """One play action a player, in the order given."""
    return [{"type": "play", "player": player, "card": card} for player, card in cards.items()]
