"""The Hobbit Card Game's table as data: characters and sides, the deck, the marks, the defaults.

Also the few pure helpers every part of the game reads the table through (card notation, sides,
player names), so a card or a character is spelled and understood in one place only.
"""

from __future__ import annotations

from typing import Any

from games.contract import N_

# --- constants -----------------------------------------------------------------------------------

GAME_ID = "hobbit"
TITLE = "The Hobbit Card Game"
MIN_PLAYERS = 2
MAX_PLAYERS = 5

COLOURS = ("red", "yellow", "green", "blue", "purple")
TRUMP = "purple"
VALUES = tuple(range(1, 13))
DECK = tuple(f"{colour}-{value}" for colour in COLOURS for value in VALUES)

MARKS = ("light", "dark", "pipe")
# Each mark in words, as a refusal names it (the ids are how an action writes it).
MARK_WORDS = {"light": N_("light"), "dark": N_("dark"), "pipe": N_("pipe")}
SIDES = ("good", "evil")
CHARACTERS = {
    "bilbo": "good",
    "thorin": "good",
    "gandalf": "good",
    "smaug": "evil",
    "bolg": "evil",
}
FULL_HEALTH = 2

DISCARD = "discard"
# What a given card does to its receiver, by (mark, receiver's side); pipes do nothing.
EFFECTS = {
    ("light", "good"): "heal",
    ("light", "evil"): "damage",
    ("dark", "good"): "damage",
    ("dark", "evil"): "heal",
    ("pipe", "good"): "pipe",
    ("pipe", "evil"): "pipe",
}

# Why a match ended the way it did (MatchFinished.reason).
REASONS = {
    "side_wiped_out": "the other side has no living character left",
    "more_survivors": "more living characters after the last round",
    "more_damage_dealt": "as many survivors, but more damage dealt to the other side",
    "draw": "as many survivors and as much damage dealt",
}

# --- private helpers -----------------------------------------------------------------------------

_CARDS = frozenset(DECK)


def canonical_card(text: Any) -> str | None:
    """The card in canonical notation (`purple-12`), or None when the text names no card."""
    if not isinstance(text, str):
        return None
    card = "-".join(part.strip() for part in text.strip().lower().split("-"))
    if card not in _CARDS:
        return None
    return card


def colour(card: str) -> str:
    """The colour of a canonical card."""
    return card.split("-")[0]


def value(card: str) -> int:
    """The number of a canonical card."""
    return int(card.split("-")[1])


def other_side(side: str) -> str:
    """The opposing side."""
    return "evil" if side == "good" else "good"


def side_of(state: dict[str, Any], player: str) -> str:
    """The side of a player's character."""
    return CHARACTERS[state["characters"][player]]


def health(damage: int) -> int:
    """The health shown for ``damage``: within 0..2, whatever the true damage."""
    return max(0, FULL_HEALTH - damage)


def living(state: dict[str, Any]) -> list[str]:
    """The players whose characters are not eliminated, in seat order."""
    return [p for p in state["players"] if state["alive"][p]]


def cards_left(state: dict[str, Any], player: str) -> int:
    """How many cards a player still holds this round."""
    if not state["alive"][player] or state["round"] == 0:
        return 0
    if state["hands"] is not None:
        return len(state["hands"].get(player, []))
    if player not in state["dealt"]:
        return 0
    return int(state["hand_size"]) - int(state["played"].get(player, 0))
