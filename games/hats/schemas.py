"""The JSON Schemas (draft 2020-12) Hats publishes for its actions, setup and options."""

from __future__ import annotations

from typing import Any

from games.hats.constants import HAND_SIZE, TYPES
from games.schemas import schema

_CARD_PATTERN = "^[A-Za-z]+-[0-9]{1,2}$"
_CARD_WORDS = f"written type-value in any letter case, e.g. 'blue-4'; types {', '.join(TYPES)}, values 1 to 6"


def _player(what: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "description": what}


def _card(what: str) -> dict[str, Any]:
    return {"type": "string", "pattern": _CARD_PATTERN, "description": f"{what}, {_CARD_WORDS}."}


def _hidden_card(what: str) -> dict[str, Any]:
    return {
        "type": ["string", "null"],
        "pattern": _CARD_PATTERN,
        "description": f"{what}, {_CARD_WORDS}. Optional hidden fact: leave it out (or null) "
        "when the table does not see it; when given it is checked against everything recorded.",
    }


_ACTING = _player("The player acting, as named when the match was created (any letter case).")

ACTIONS: dict[str, dict[str, Any]] = {
    "swap": schema(
        "The turn's main action: a card from the hand goes face up onto a tea-table space, and the "
        "card there goes face up into the player's collection.",
        {
            "player": _ACTING,
            "card": _card(
                "The card played face up from the hand onto the tea table; it must have the type of "
                "the card on that space or a higher value"
            ),
            "space": {
                "type": "integer",
                "minimum": 1,
                "maximum": 6,
                "description": "The tea-table space (1 to 6; 1 to 5 with 2 players) whose card "
                "goes face up into the player's collection.",
            },
        },
        ["player", "card", "space"],
    ),
    "black_hat": schema(
        "The turn's main action instead of a swap: a card from the hand goes face down into the "
        "player's collection as a black hat.",
        {
            "player": _ACTING,
            "card": _hidden_card("The card put face down into the player's collection as a black hat"),
        },
        ["player"],
    ),
    "redraw": schema(
        "At most once a turn, before or after the main action: a card from the hand is discarded face"
        " down and one is drawn.",
        {
            "player": _ACTING,
            "discarded": _hidden_card("The card discarded face down"),
            "drawn": _hidden_card("The card drawn from the draw pile"),
        },
        ["player"],
    ),
    "partner_trade": schema(
        "With 4 players as partners, instead of the turn's redraw: the player and the partner "
        "opposite swap one card face down.",
        {
            "player": _ACTING,
            "given": _hidden_card("With 4 players as partners: the card handed face down to the partner"),
            "received": _hidden_card("The card received face down from the partner"),
        },
        ["player"],
    ),
    "favourite": schema(
        "After the last play, each player reveals the card left in hand as their favourite hat; the "
        "last reveal ends the match.",
        {
            "player": _ACTING,
            "card": _card(
                "After every player has played 8 cards: the last card in the player's hand, revealed "
                "as the favourite hat"
            ),
        },
        ["player", "card"],
    ),
}

SETUP: dict[str, Any] = schema(
    "Facts of the starting position: who starts, the tea table's first cards, the removed types and, "
    "if known, the hands.",
    {
        "start_player": _player("The player who takes the first turn (any letter case)."),
        "table": {
            "type": "array",
            "items": _card("A card dealt face up onto the tea table"),
            "minItems": 5,
            "maxItems": 6,
            "description": "The tea table's first cards, space 1 first: 5 cards with 2 players, "
            "6 with 3 or 4.",
        },
        "removed_types": {
            "type": "array",
            "items": {
                "type": "string",
                "pattern": "^[A-Za-z]+$",
                "description": f"A hat type: one of {', '.join(TYPES)} (any letter case).",
            },
            "minItems": 2,
            "maxItems": 2,
            "description": "With 2 players only (and then required): the two hat types taken "
            "out of the game.",
        },
        "hands": {
            "type": "object",
            "additionalProperties": {
                "type": "array",
                "items": _card("A card dealt to the player"),
                "minItems": HAND_SIZE,
                "maxItems": HAND_SIZE,
            },
            "description": "Optional hidden facts: the 9 cards dealt to some or all players, keyed "
            "by player name. Recorded hands make every later play of theirs checked at once.",
        },
    },
    ["start_player", "table"],
)

OPTIONS: dict[str, Any] = schema(
    "Rule variants, fixed for the match.",
    {
        "partners": {
            "type": "boolean",
            "default": True,
            "description": "With 4 players: play as two teams of partners sitting opposite "
            "(seats 1+3 and 2+4), with partner trades and team totals. false: everyone for "
            "themselves. No effect with 2 or 3 players.",
        },
    },
)
