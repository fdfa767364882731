"""The Other Hat Trick's view: the trick pile and deck, whose turn and which step of it, and what
is known of every prop's place."""

from __future__ import annotations

from games.other_hat_trick import constants as game
from service.api.schemas.positions import parts as p

PROP: p.Schema = p.either(game.PROPS, "A prop.")
TRICK: p.Schema = p.either(game.TRICK_IDS, "A trick's id.")
PLACE: p.Schema = p.closed(
    "A place of a prop: face up or not, the prop if known, the props it may be, and the step it "
    "was last seen at.",
    {
        "face_up": p.FLAG,
        "prop": p.nullable(PROP),
        "possible": p.listed(PROP),
        "seen_at_step": p.nullable(p.NUMBER),
    },
)


def by_seat(seat: p.Schema, middle: p.Schema, description: str) -> p.Schema:
    """An object with each player's ``seat`` and the middle place's ``middle``."""
    return {
        "type": "object",
        "description": f"{description}, and the {game.MIDDLE_NAME!r} one.",
        "properties": {game.MIDDLE_NAME: middle},
        "required": [game.MIDDLE_NAME],
        "additionalProperties": seat,
    }


VIEW: p.Schema = p.closed(
    "An Other Hat Trick table: trick pile and deck, whose turn and which step of it, and every prop's place.",
    {
        "players": p.described(p.PLAYERS, "Names in seat order."),
        "phase": p.either((game.CHOOSE, game.SWAP, game.PERFORM, game.REFILL, game.REVEAL, game.FINISHED)),
        "turn": p.nullable(p.described(p.TEXT, "Whose turn it is.")),
        "to_act": p.TO_ACT,
        "step": p.COUNT,
        "pile": p.listed(TRICK, "The trick pile, bottom first."),
        "top": p.nullable(TRICK),
        "attempting": p.nullable(p.described(TRICK, "The trick being attempted.")),
        "deck": p.COUNT,
        "props": by_seat(p.listed(PLACE), PLACE, "Each player's two places"),
        "prop_set": p.closed(
            "How many of each prop there are.", {prop: p.COUNT for prop in game.PROP_COUNTS}
        ),
        "arrangements": p.described(p.COUNT, "How many arrangements of the props fit what the table saw."),
        "performed": p.by_player(p.listed(TRICK), "The tricks each player performed."),
        "titles": p.closed("Each trick's printed name.", {trick: p.TEXT for trick in game.TRICK_IDS}),
        "totals": p.by_player(p.NUMBER, "Points so far."),
        "other_hat_trick_failures": p.COUNT,
        "ended_by": p.nullable(p.either(("performed", "three_failures"))),
        "revealed": p.nullable(by_seat(p.listed(PROP), PROP, "The props each player revealed at the end")),
        "finished": p.FLAG,
        "disputes": p.DISPUTES,
    },
)
