"""Hat Trick's JSON Schemas (draft 2020-12): each action's fields, the setup and the options.

What a scorekeeping app sends; ``games.validation`` checks it before the rules see it.
"""

from __future__ import annotations

from games.hat_trick.constants import PROPS, STAR_RULES, TABLE
from games.schemas import Schema, schema

# --- constants -------------------------------------------------------------------------------

_PROP: Schema = {
    "type": "string",
    "enum": list(PROPS),
    "description": "A prop, in lower case: coin, rabbit, tube, goblet or hat.",
}


def _props(what: str) -> Schema:
    return {
        "type": "array",
        "items": _PROP,
        "uniqueItems": True,
        "default": [],
        "description": what,
    }


_PLAYER: Schema = {
    "type": "string",
    "minLength": 1,
    "description": "A player's name as given at match creation (case is ignored when unambiguous).",
}

_PLACEMENT: Schema = {
    "type": "object",
    "description": (
        'Where one prop of the stack is: {"prop": "rabbit", "in": "tube"} (inside the tube or '
        'covered by it, wholly or partly) or {"prop": "coin", "on": "hat"} (resting on top of '
        'it); exactly one prop stands "on": "table". Give exactly one of "in" and "on".'
    ),
    "additionalProperties": False,
    "required": ["prop"],
    "minProperties": 2,
    "maxProperties": 2,
    "properties": {
        "prop": {**_PROP, "description": "The prop placed."},
        "in": {
            **_PROP,
            "description": "The container it is in or under: tube, goblet or hat, larger than it.",
        },
        "on": {
            "type": "string",
            "enum": [*PROPS, TABLE],
            "description": "The prop it rests on top of, or table for the one prop at the bottom.",
        },
    },
}

REVEAL: Schema = schema(
    "A challenge card is turned over: a new round starts.",
    {
        "card": {
            "type": "integer",
            "minimum": 1,
            "maximum": 55,
            "description": "The card's number, 1..55; each number is revealed once per match.",
        },
        "colour": _props("Props the card shows in colour: they must stand fully visible."),
        "grey": _props("Props the card shows in grey: they must be in the stack, hidden."),
        "starred": _props(
            "Props with a yellow star (only when options.stars is not off); each is also "
            "listed in colour or grey."
        ),
    },
    ["card"],
)

DECLARE: Schema = schema(
    "A player says they are done. With a stack, tabletape judges it when its turn in the "
    "queue comes; without one, the table's verdict is recorded with judge.",
    {
        "player": _PLAYER,
        "stack": {
            "type": "array",
            "minItems": 1,
            "maxItems": 5,
            "items": _PLACEMENT,
            "description": "The stack the player built: one placement per prop used.",
        },
    },
    ["player"],
)

JUDGE: Schema = schema(
    "The table's verdict on the first waiting declaration made without a stack.",
    {
        "player": _PLAYER,
        "verdict": {
            "type": "string",
            "enum": ["pass", "fail"],
            "description": "pass: the player takes the card; fail: the player is out this round.",
        },
        "reason": {
            "type": "string",
            "maxLength": 500,
            "description": "Optional: why, in the table's words (recorded as given).",
        },
    },
    ["player", "verdict"],
)

ABANDON_ROUND: Schema = schema(
    "The table gives up on the card in play: it is discarded, scoring for nobody.", {}
)

ACTIONS: dict[str, Schema] = {
    "reveal": REVEAL,
    "declare": DECLARE,
    "judge": JUDGE,
    "abandon_round": ABANDON_ROUND,
}

SETUP: Schema = schema("Hat Trick needs no facts of the starting position: send {} or leave it out.", {})

OPTIONS: Schema = schema(
    "Rule variants, fixed for the match.",
    {
        "target": {
            "type": "integer",
            "minimum": 1,
            "maximum": 55,
            "default": 5,
            "description": ("Cards a player needs to win at once (standard game). Not used with full_deck."),
        },
        "full_deck": {
            "type": "boolean",
            "default": False,
            "description": "Play until all 55 cards are revealed; most cards wins, ties share.",
        },
        "stars": {
            "type": "string",
            "enum": list(STAR_RULES),
            "default": "off",
            "description": (
                "off: cards carry no stars; contain: a starred prop must hold another prop; "
                "empty: a starred prop must hold nothing."
            ),
        },
    },
)
