"""The Hobbit Card Game's view: characters, the trick on the table, whose turn, damage dealt per
side and the result (no points: a side wins)."""

from __future__ import annotations

from games.hobbit.constants import CHARACTERS, COLOURS, MARKS, REASONS, SIDES
from games.hobbit.schemas import OPTIONS
from service.api.schemas.positions import parts as p

CARD: p.Schema = {"type": "string", "description": "A card, colour-value: 'purple-12'."}
HELD: p.Schema = {"type": ["string", "null"], "description": CARD["description"] + " Null: held back."}
SIDE: p.Schema = p.either(SIDES)
MARK: p.Schema = p.either(MARKS, "A card's mark: light, dark or a pipe.")
PER_SIDE: p.Schema = p.closed("A count per side.", {side: p.NUMBER for side in SIDES})
CHARACTER: p.Schema = p.closed(
    "A player's character and how it stands.",
    {
        "character": p.either(tuple(CHARACTERS)),
        "side": SIDE,
        "health": p.NUMBER,
        "damage": p.NUMBER,
        "alive": p.FLAG,
        "cards_left": p.COUNT,
        "pipes": p.COUNT,
        "tricks_won": p.COUNT,
    },
)
PLAY: p.Schema = p.closed(
    "A card played to the trick, with its mark.", {"player": p.PLAYER, "card": CARD, "mark": MARK}
)
TRICK: p.Schema = p.closed(
    "The trick on the table: who leads, the order of play, the cards played, the winner and where "
    "the winner gave each card (a player's name or 'discard').",
    {
        "number": p.COUNT,
        "leader": p.PLAYER,
        "order": p.PLAYERS,
        "led": p.nullable(p.either(COLOURS, "The colour led.")),
        "plays": p.listed(PLAY),
        "winner": p.nullable(p.PLAYER),
        "distribution": p.nullable(
            {"type": "object", "description": "Card to receiver.", "additionalProperties": p.PLAYER}
        ),
    },
)
RESULT: p.Schema = p.closed(
    "How the match ended: the winning side (null on a draw), its players, and why.",
    {
        "side": p.nullable(SIDE),
        "winners": p.PLAYERS,
        "reason": p.either(tuple(REASONS)),
        "explanation": p.TEXT,
        "rule": p.TEXT,
        "survivors": PER_SIDE,
        "damage_dealt": PER_SIDE,
        "round": p.COUNT,
        "said": p.SAID,
    },
    optional=("said",),
)

VIEW: p.Schema = p.closed(
    "A Hobbit Card Game table: characters, the trick on the table, whose turn, damage dealt per side.",
    {
        "players": p.described(p.PLAYERS, "Names in seat order."),
        "phase": p.either(("round_start", "playing", "distributing", "resolving", "finished")),
        "to_act": p.TO_ACT,
        "round": p.COUNT,
        "rounds": p.COUNT,
        "options": p.filled(OPTIONS, "The rule variants, defaults filled in."),
        "characters": p.by_player(CHARACTER, "Each player's character."),
        "trick": p.nullable(TRICK),
        "turn": p.nullable(p.described(p.PLAYER, "Who plays next to the trick.")),
        "damage_dealt": PER_SIDE,
        "survivors": PER_SIDE,
        "hands": p.nullable(p.by_player(p.listed(HELD), "The hands recorded (null: not recorded).")),
        "marks": {"type": "object", "description": "Each card's mark.", "additionalProperties": MARK},
        "eliminated": p.PLAYERS,
        "disputes": p.DISPUTES,
        "finished": p.FLAG,
        "result": p.nullable(RESULT),
    },
)
