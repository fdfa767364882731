"""Wizard's view: the table as GET …/state, the writes' answers and the replay frames show it."""

from __future__ import annotations

from games.wizard.constants import BIDDING, CHOOSE_TRUMP, FINISHED, PLAYING, SCORED, START_ROUND, SUITS
from service.api.schemas.positions import parts as p

CARD: p.Schema = {
    "type": "string",
    "description": "A card: rank then suit ('7H', '10S', 'QD'), or 'wizard' / 'jester'.",
}
# A reader without the write token sees each recorded card as null until the match is over.
HELD: p.Schema = {"type": ["string", "null"], "description": CARD["description"] + " Null: held back."}
PLAY: p.Schema = p.closed("A card played to the trick in progress.", {"player": p.PLAYER, "card": CARD})
PLAYED: p.Schema = p.closed(
    "A card played this round, with its trick's number.",
    {"trick": p.NUMBER, "player": p.PLAYER, "card": CARD},
)

VIEW: p.Schema = p.closed(
    "A Wizard table: round, trump, turn, bids the table sees, tricks and cards.",
    {
        "players": p.described(p.PLAYERS, "Names in seat order."),
        "phase": p.either((START_ROUND, CHOOSE_TRUMP, BIDDING, PLAYING, SCORED, FINISHED)),
        "to_act": p.TO_ACT,
        "round": p.described(p.COUNT, "The round in play, or the next to be dealt (from 1)."),
        "rounds_total": p.COUNT,
        "dealer": p.nullable(p.PLAYER),
        "trump": p.nullable(
            p.either(
                (*SUITS, "none", "dealer_chooses"),
                "The trump suit's letter, 'none', 'dealer_chooses' (a turned Wizard); null between rounds.",
            )
        ),
        "trump_card": p.nullable(p.described(CARD, "The turned card (null in the last round).")),
        "bidding": p.either(("clockwise", "simultaneous", "secret")),
        "bids": p.by_player(p.COUNT, "The bids the table sees (none of a hidden round's)."),
        "have_bid": p.described(p.PLAYERS, "Who has bid this round (also while the bids are hidden)."),
        "tricks": p.by_player(p.COUNT, "Tricks won this round."),
        "trick_number": p.COUNT,
        "trick": p.listed(PLAY, "The trick in progress, in the order played."),
        "played": p.listed(PLAYED, "Every card played this round."),
        "hands": p.by_player(p.listed(HELD), "The hands recorded this round (cards left in them)."),
        "totals": p.by_player(p.NUMBER, "Points so far."),
        "disputes": p.DISPUTES,
        "finished": p.FLAG,
        "winners": p.PLAYERS,
    },
)
