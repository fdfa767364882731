"""The JSON Schemas (draft 2020-12) The Hobbit Card Game publishes: its actions, setup and options.

They are written for the author of a scorekeeping app: every field says what to send.
"""

from __future__ import annotations

from typing import Any

from games.hobbit.constants import CHARACTERS, MARKS
from games.schemas import schema

# --- constants -----------------------------------------------------------------------------------

_CARD = {
    "type": "string",
    "minLength": 1,
    "description": "A number card: colour (red, yellow, green, blue, purple) and number 1..12, "
    "written like purple-12 (any case).",
}
_PLAYER = {"type": "string", "minLength": 1, "description": "A player's name, as seated."}

ACTIONS: dict[str, dict[str, Any]] = {
    "start_round": schema(
        "A round begins: all 60 cards are dealt evenly among the living players. "
        "Send who leads the first trick; send the hands too if the app knows them (then "
        "following colour is checked at once).",
        {
            "leader": {**_PLAYER, "description": "The living player who leads the first trick."},
            "hands": {
                "type": "object",
                "description": "Optional: every living player's dealt cards, {player: [cards]}; "
                "each holds 60 / living players cards.",
                "additionalProperties": {
                    "type": "array",
                    "items": _CARD,
                    "minItems": 1,
                    "maxItems": 30,
                    "uniqueItems": True,
                },
            },
        },
        ["leader"],
    ),
    "play": schema(
        "A player puts a card on the trick, in turn from the leader, clockwise.",
        {
            "player": {**_PLAYER, "description": "The player whose turn it is."},
            "card": {**_CARD, "description": f"The card played. {_CARD['description']}"},
            "mark": {
                "type": "string",
                "enum": list(MARKS),
                "description": "The mark printed on the card. Required the first time a card is "
                "seen when the match has no mark table; it must always be the same for one card.",
            },
        },
        ["player", "card"],
    ),
    "distribute": schema(
        "The trick's winner hands out its cards by their character's power "
        "(or, with distribution: free, every card to a living player).",
        {
            "cards": {
                "type": "object",
                "description": 'Every card of the trick, {card: player or "discard"}.',
                "minProperties": 1,
                "maxProperties": 5,
                "additionalProperties": {
                    "type": "string",
                    "minLength": 1,
                    "description": 'The living player who receives the card, or "discard".',
                },
            }
        },
        ["cards"],
    ),
}

SETUP: dict[str, Any] = schema(
    "The starting position: each player's character, and the marks if known.",
    {
        "characters": {
            "type": "object",
            "description": "Each player's character, {player: character}: good bilbo, thorin, "
            "gandalf; evil smaug, bolg; all different, at least one per side.",
            "minProperties": 2,
            "maxProperties": 5,
            "additionalProperties": {"type": "string", "enum": list(CHARACTERS)},
        },
        "marks": {
            "type": "object",
            "description": "Optional: the full mark table, {card: mark} for all 60 cards. "
            "Without it, each play carries its card's mark.",
            "additionalProperties": {"type": "string", "enum": list(MARKS)},
        },
    },
    ["characters"],
)

OPTIONS: dict[str, Any] = schema(
    "Rule variants, fixed for the match.",
    {
        "distribution": {
            "type": "string",
            "enum": ["powers", "free"],
            "default": "powers",
            "description": "powers: each trick's winner distributes by their character's power; "
            "free: every card of the trick goes to some living player.",
        },
        "elimination": {
            "type": "string",
            "enum": ["immediate", "end_of_round"],
            "default": "immediate",
            "description": "immediate: a character is out as soon as its damage reaches 2; "
            "end_of_round: damage is checked only when the round ends.",
        },
        "rounds": {
            "type": "integer",
            "enum": [1, 2, 3],
            "default": 2,
            "description": "How many full rounds the match lasts unless a side is wiped out.",
        },
    },
)
