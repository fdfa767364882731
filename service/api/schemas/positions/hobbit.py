"""The Hobbit Card Game's view: characters, the trick on the table, whose turn, damage dealt per
side and the result (no points: a side wins)."""

from __future__ import annotations

from games.hobbit.constants import CHARACTERS, COLOURS, MARKS, REASONS, SIDES
from games.hobbit.schemas import OPTIONS
from service.api.schemas.positions.parts import (
    COUNT,
    DISPUTES,
    FLAG,
    NUMBER,
    PLAYER,
    PLAYERS,
    TEXT,
    TO_ACT,
    Schema,
    by_player,
    closed,
    described,
    either,
    filled,
    listed,
    nullable,
)

CARD: Schema = {"type": "string", "description": "A card, colour-value: 'purple-12'."}
HELD: Schema = {"type": ["string", "null"], "description": CARD["description"] + " Null: held back."}
SIDE: Schema = either(SIDES)
MARK: Schema = either(MARKS, "A card's mark: light, dark or a pipe.")
PER_SIDE: Schema = closed("A count per side.", {side: NUMBER for side in SIDES})
CHARACTER: Schema = closed(
    "A player's character and how it stands.",
    {
        "character": either(tuple(CHARACTERS)),
        "side": SIDE,
        "health": NUMBER,
        "damage": NUMBER,
        "alive": FLAG,
        "cards_left": COUNT,
        "pipes": COUNT,
        "tricks_won": COUNT,
    },
)
PLAY: Schema = closed(
    "A card played to the trick, with its mark.", {"player": PLAYER, "card": CARD, "mark": MARK}
)
TRICK: Schema = closed(
    "The trick on the table: who leads, the order of play, the cards played, the winner and where "
    "the winner gave each card (a player's name or 'discard').",
    {
        "number": COUNT,
        "leader": PLAYER,
        "order": PLAYERS,
        "led": nullable(either(COLOURS, "The colour led.")),
        "plays": listed(PLAY),
        "winner": nullable(PLAYER),
        "distribution": nullable(
            {"type": "object", "description": "Card to receiver.", "additionalProperties": PLAYER}
        ),
    },
)
RESULT: Schema = closed(
    "How the match ended: the winning side (null on a draw), its players, and why.",
    {
        "side": nullable(SIDE),
        "winners": PLAYERS,
        "reason": either(tuple(REASONS)),
        "explanation": TEXT,
        "rule": TEXT,
        "survivors": PER_SIDE,
        "damage_dealt": PER_SIDE,
        "round": COUNT,
    },
)

VIEW: Schema = closed(
    "A Hobbit Card Game table: characters, the trick on the table, whose turn, damage dealt per side.",
    {
        "players": described(PLAYERS, "Names in seat order."),
        "phase": either(("round_start", "playing", "distributing", "resolving", "finished")),
        "to_act": TO_ACT,
        "round": COUNT,
        "rounds": COUNT,
        "options": filled(OPTIONS, "The rule variants, defaults filled in."),
        "characters": by_player(CHARACTER, "Each player's character."),
        "trick": nullable(TRICK),
        "turn": nullable(described(PLAYER, "Who plays next to the trick.")),
        "damage_dealt": PER_SIDE,
        "survivors": PER_SIDE,
        "hands": nullable(by_player(listed(HELD), "The hands recorded (null: not recorded).")),
        "marks": {"type": "object", "description": "Each card's mark.", "additionalProperties": MARK},
        "eliminated": PLAYERS,
        "disputes": DISPUTES,
        "finished": FLAG,
        "result": nullable(RESULT),
    },
)
