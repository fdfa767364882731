"""Hats' view: the tea table, the collections, the points as they stand, hands and whose turn."""

from __future__ import annotations

from games.hats.constants import TYPES
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

CARD: Schema = {"type": "string", "description": "A hat card, type-value: 'blue-4'."}
KIND: Schema = either(TYPES, "A hat type.")
SPACE: Schema = closed(
    "A tea-table space: its card, the card's type and that type's value, and whether it counts.",
    {"space": COUNT, "card": CARD, "type": KIND, "type_value": COUNT, "counts": FLAG},
)
COLLECTION: Schema = closed(
    "A player's collected hats and black hats (named once the table may see them).",
    {"hats": listed(CARD), "black_hats": COUNT, "black_hats_named": listed(CARD)},
)
POINTS: Schema = closed(
    "Every category as the scoreboard would count it if the match ended now.",
    {"collection": NUMBER, "black_hats": NUMBER, "favourite": NUMBER, "cookie": NUMBER, "total": NUMBER},
)
HAND: Schema = closed(
    "A hand: its size, the cards surely in it, recorded cards one or more of which left unnamed, "
    "and at most how many are not recorded; `hidden` when a reader without the token is not shown it.",
    {
        "size": COUNT,
        "known": listed(CARD),
        "maybe": listed(CARD),
        "unknown": COUNT,
        "hidden": FLAG,
    },
    optional=("hidden",),
)
TURN: Schema = closed(
    "The turn in play and what is left of it.",
    {
        "number": COUNT,
        "round": COUNT,
        "player": PLAYER,
        "played": FLAG,
        "extra": nullable(either(("redraw", "partner_trade"), "The extra action taken this turn.")),
        "left": listed(either(("swap", "black_hat", "redraw", "partner_trade")), "What may still be done."),
    },
)

VIEW: Schema = closed(
    "A Hats table: tea table, collections, points, hand sizes and whose turn.",
    {
        "phase": either(("play", "favourites", "finished")),
        "to_act": TO_ACT,
        "players": described(PLAYERS, "Names in seat order."),
        "teams": listed(PLAYERS, "The partnerships (empty without teams)."),
        "turn": TURN,
        "tea_table": listed(SPACE, "Space 1 first."),
        "type_values": {
            "type": "object",
            "description": "Each type in play and its value (the lowest space showing it, else 0).",
            "properties": {kind: COUNT for kind in TYPES},
            "additionalProperties": False,
        },
        "collections": by_player(COLLECTION, "Each player's collection."),
        "points": by_player(POINTS, "Each player's points if the match ended now."),
        "hands": by_player(HAND, "Each player's hand."),
        "plays": by_player(COUNT, "Turns played by each player."),
        "favourites": by_player(nullable(CARD), "Each player's favourite hat, once chosen."),
        "removed_types": listed(KIND, "The types out of the game (two players)."),
        "draw_pile": COUNT,
        "discard_pile": COUNT,
        "finished": FLAG,
        "disputes": DISPUTES,
    },
)
