"""The Other Hat Trick's view: the trick pile and deck, whose turn and which step of it, and what
is known of every prop's place."""

from __future__ import annotations

from games.other_hat_trick.constants import (
    CHOOSE,
    FINISHED,
    MIDDLE_NAME,
    PERFORM,
    PROP_COUNTS,
    PROPS,
    REFILL,
    REVEAL,
    SWAP,
    TRICK_IDS,
)
from service.api.schemas.positions.parts import (
    COUNT,
    DISPUTES,
    FLAG,
    NUMBER,
    PLAYERS,
    TEXT,
    TO_ACT,
    Schema,
    by_player,
    closed,
    described,
    either,
    listed,
    nullable,
)

PROP: Schema = either(PROPS, "A prop.")
TRICK: Schema = either(TRICK_IDS, "A trick's id.")
PLACE: Schema = closed(
    "A place of a prop: face up or not, the prop if known, the props it may be, and the step it "
    "was last seen at.",
    {
        "face_up": FLAG,
        "prop": nullable(PROP),
        "possible": listed(PROP),
        "seen_at_step": nullable(NUMBER),
    },
)
PROPS_VIEW: Schema = {
    "type": "object",
    "description": f"Each player's two places, and the {MIDDLE_NAME!r} one.",
    "properties": {MIDDLE_NAME: PLACE},
    "required": [MIDDLE_NAME],
    "additionalProperties": listed(PLACE),
}
REVEALED: Schema = {
    "type": "object",
    "description": f"The props each player revealed at the end, and the {MIDDLE_NAME!r} one.",
    "properties": {MIDDLE_NAME: PROP},
    "required": [MIDDLE_NAME],
    "additionalProperties": listed(PROP),
}

VIEW: Schema = closed(
    "An Other Hat Trick table: trick pile and deck, whose turn and which step of it, and every prop's place.",
    {
        "players": described(PLAYERS, "Names in seat order."),
        "phase": either((CHOOSE, SWAP, PERFORM, REFILL, REVEAL, FINISHED)),
        "turn": nullable(described(TEXT, "Whose turn it is.")),
        "to_act": TO_ACT,
        "step": COUNT,
        "pile": listed(TRICK, "The trick pile, bottom first."),
        "top": nullable(TRICK),
        "attempting": nullable(described(TRICK, "The trick being attempted.")),
        "deck": COUNT,
        "props": PROPS_VIEW,
        "prop_set": closed("How many of each prop there are.", {prop: COUNT for prop in PROP_COUNTS}),
        "arrangements": described(COUNT, "How many arrangements of the props fit what the table saw."),
        "performed": by_player(listed(TRICK), "The tricks each player performed."),
        "titles": closed("Each trick's printed name.", {trick: TEXT for trick in TRICK_IDS}),
        "totals": by_player(NUMBER, "Points so far."),
        "other_hat_trick_failures": COUNT,
        "ended_by": nullable(either(("performed", "three_failures"))),
        "revealed": nullable(REVEALED),
        "finished": FLAG,
        "disputes": DISPUTES,
    },
)
