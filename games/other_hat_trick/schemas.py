"""The JSON Schemas (draft 2020-12) The Other Hat Trick publishes: actions, setup, options."""

from __future__ import annotations

from games.other_hat_trick.constants import PROPS, TRICK_IDS
from games.schemas import Schema, schema

# --- pieces ----------------------------------------------------------------------------------

_PROP: Schema = {
    "enum": list(PROPS),
    "description": "A prop: rabbit, other-rabbit (the red one), hat, lettuce or carrot.",
}
_SLOT: Schema = {
    "type": "integer",
    "minimum": 0,
    "maximum": 1,
    "description": "A player's prop slot: 0 (their first prop) or 1 (their second).",
}
_TWO_PROPS: Schema = {
    "type": "array",
    "items": _PROP,
    "minItems": 2,
    "maxItems": 2,
}


def _player(description: str) -> Schema:
    return {"type": "string", "minLength": 1, "description": description}


# --- actions ---------------------------------------------------------------------------------

TURN_TRICK = schema(
    "Turn the next trick from the deck onto the pile: at the start of a turn to attempt it "
    "instead of the top one, or when a perform left the pile empty.",
    {"trick": {"enum": TRICK_IDS, "description": "The trick that appeared from the deck."}},
    ["trick"],
)
SWAP = schema(
    "The compulsory swap, unseen: one of the player's props for one of another player's. "
    "A swap at the start of a turn attempts the trick on top of the pile.",
    {
        "player": _player("The player whose turn it is."),
        "slot": {**_SLOT, "description": "Which of their own props they gave away: 0 or 1."},
        "with_player": _player("The other player they swapped with (never the middle prop)."),
        "with_slot": {**_SLOT, "description": "Which of the other player's props they took."},
    },
    ["player", "slot", "with_player", "with_slot"],
)
PERFORM = schema(
    "The player performs the trick attempted this turn; the sleight of hand follows by itself.",
    {
        "player": _player("The player whose turn it is."),
        "props": {
            **_TWO_PROPS,
            "description": "The two props turned face up: slot 0's, then slot 1's.",
        },
    },
    ["player", "props"],
)
FAIL = schema(
    "The player fails the trick and turns one face-down prop face up.",
    {
        "player": _player("The player whose turn it is."),
        "slot": {
            **_SLOT,
            "description": "The slot turned face up; may be left out when only one is face down. "
            "Leave it and prop out when both were already face up.",
        },
        "prop": {**_PROP, "description": "What the turned prop showed."},
    },
    ["player"],
)
REVEAL_ALL = schema(
    "At the end everyone reveals everything; the scores follow.",
    {
        "props": {
            "type": "object",
            "description": 'Every prop after the match has ended: {"ann": ["hat", "carrot"], '
            '..., "middle": "lettuce"}, each player\'s slot 0 then slot 1.',
            "properties": {"middle": {**_PROP, "description": "The prop in the middle."}},
            "required": ["middle"],
            "additionalProperties": {
                **_TWO_PROPS,
                "description": "A player's props: slot 0's, then slot 1's.",
            },
        }
    },
    ["props"],
)
ACTIONS: dict[str, Schema] = {
    "turn_trick": TURN_TRICK,
    "swap": SWAP,
    "perform": PERFORM,
    "fail": FAIL,
    "reveal_all": REVEAL_ALL,
}

# --- setup and options -----------------------------------------------------------------------

SETUP = schema(
    "The starting position: who begins and which trick lies face up on the pile.",
    {
        "first_player": _player("The youngest player, who takes the first turn."),
        "first_trick": {
            "enum": TRICK_IDS,
            "description": "The trick turned from the top of the shuffled deck at setup "
            "(never other-hat-trick, which lies at the bottom).",
        },
    },
    ["first_player", "first_trick"],
)
OPTIONS = schema("The Other Hat Trick has no rule variants.", {}, [])
