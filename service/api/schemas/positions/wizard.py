"""Wizard's view: the table as GET …/state, the writes' answers and the replay frames show it."""

from __future__ import annotations

from games.wizard.constants import BIDDING, CHOOSE_TRUMP, FINISHED, PLAYING, SCORED, START_ROUND, SUITS
from service.api.schemas.positions.parts import (
    COUNT,
    DISPUTES,
    FLAG,
    NUMBER,
    PLAYER,
    PLAYERS,
    TO_ACT,
    Schema,
    by_player,
    closed,
    described,
    either,
    listed,
    nullable,
)

CARD: Schema = {
    "type": "string",
    "description": "A card: rank then suit ('7H', '10S', 'QD'), or 'wizard' / 'jester'.",
}
# A reader without the write token sees each recorded card as null until the match is over.
HELD: Schema = {"type": ["string", "null"], "description": CARD["description"] + " Null: held back."}
PLAY: Schema = closed("A card played to the trick in progress.", {"player": PLAYER, "card": CARD})
PLAYED: Schema = closed(
    "A card played this round, with its trick's number.", {"trick": NUMBER, "player": PLAYER, "card": CARD}
)

VIEW: Schema = closed(
    "A Wizard table: round, trump, turn, bids the table sees, tricks and cards.",
    {
        "players": described(PLAYERS, "Names in seat order."),
        "phase": either((START_ROUND, CHOOSE_TRUMP, BIDDING, PLAYING, SCORED, FINISHED)),
        "to_act": TO_ACT,
        "round": described(COUNT, "The round in play, or the next to be dealt (from 1)."),
        "rounds_total": COUNT,
        "dealer": nullable(PLAYER),
        "trump": nullable(
            either(
                (*SUITS, "none", "dealer_chooses"),
                "The trump suit's letter, 'none', 'dealer_chooses' (a turned Wizard); null between rounds.",
            )
        ),
        "trump_card": nullable(described(CARD, "The turned card (null in the last round).")),
        "bidding": either(("clockwise", "simultaneous", "secret")),
        "bids": by_player(COUNT, "The bids the table sees (none of a hidden round's)."),
        "have_bid": described(PLAYERS, "Who has bid this round (also while the bids are hidden)."),
        "tricks": by_player(COUNT, "Tricks won this round."),
        "trick_number": COUNT,
        "trick": listed(PLAY, "The trick in progress, in the order played."),
        "played": listed(PLAYED, "Every card played this round."),
        "hands": by_player(listed(HELD), "The hands recorded this round (cards left in them)."),
        "totals": by_player(NUMBER, "Points so far."),
        "disputes": DISPUTES,
        "finished": FLAG,
        "winners": PLAYERS,
    },
)
