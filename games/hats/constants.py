"""Hats as data: the cards and their notation, the tea table's size, the points."""

from __future__ import annotations

from typing import Any

from games.contract import fail

# --- constants --------------------------------------------------------------------------------

GAME_ID = "hats"
TITLE = "Hats"
MIN_PLAYERS = 2
MAX_PLAYERS = 4

TYPES = ["red", "orange", "yellow", "green", "blue", "purple", "pink"]
VALUES = [1, 2, 3, 4, 5, 6]
ALL_CARDS = [f"{kind}-{value}" for kind in TYPES for value in VALUES]
HAND_SIZE = 9
PLAYS_EACH = 8
COOKIE_POINTS = 5
REMOVED_WITH_TWO = 2


def table_size(players: int) -> int:
    """How many tea-table spaces are used: 5 with 2 players, else 6."""
    return 5 if players == 2 else 6


def card_count(players: int) -> int:
    """How many hat cards are in play: 30 with 2 players (two types removed), else 42."""
    return len(VALUES) * (len(TYPES) - (REMOVED_WITH_TWO if players == 2 else 0))


# --- cards ------------------------------------------------------------------------------------


def card_type(card: str) -> str:
    """The type of a canonical card: ``blue`` of ``blue-4``."""
    return card.rsplit("-", 1)[0]


def card_value(card: str) -> int:
    """The printed value of a canonical card: 4 of ``blue-4``."""
    return int(card.rsplit("-", 1)[1])


def canon_card(text: str) -> str:
    """The canonical spelling of a card written in any letter case, or RuleViolation."""
    card = text.strip().lower().replace(" ", "")
    if card not in ALL_CARDS:
        fail(
            "unknown_card",
            "{text!r} is not a hat card: a card is written type-value, the types are {TYPES} and the "
            "values 1 to 6 (e.g. 'blue-4')",
            text=text,
            TYPES=", ".join(TYPES),
        )
    return card


def canon_type(text: str) -> str:
    """The canonical spelling of a hat type written in any letter case, or RuleViolation."""
    kind = text.strip().lower()
    if kind not in TYPES:
        fail(
            "unknown_type",
            "{text!r} is not a hat type: the types are {TYPES}",
            text=text,
            TYPES=", ".join(TYPES),
        )
    return kind


def maybe_card(text: Any) -> str | None:
    """The canonical card of an optional field (absent or null: not recorded)."""
    return None if text is None else canon_card(text)
