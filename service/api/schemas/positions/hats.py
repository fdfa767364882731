"""Hats' view: the tea table, the collections, the points as they stand, hands and whose turn."""

from __future__ import annotations

from games.hats.constants import TYPES
from service.api.schemas.positions import parts as p

CARD: p.Schema = {"type": "string", "description": "A hat card, type-value: 'blue-4'."}
KIND: p.Schema = p.either(TYPES, "A hat type.")
SPACE: p.Schema = p.closed(
    "A tea-table space: its card, the card's type and that type's value, and whether it counts.",
    {"space": p.COUNT, "card": CARD, "type": KIND, "type_value": p.COUNT, "counts": p.FLAG},
)
COLLECTION: p.Schema = p.closed(
    "A player's collected hats and black hats (named once the table may see them).",
    {"hats": p.listed(CARD), "black_hats": p.COUNT, "black_hats_named": p.listed(CARD)},
)
POINTS: p.Schema = p.closed(
    "Every category as the scoreboard would count it if the match ended now.",
    {
        "collection": p.NUMBER,
        "black_hats": p.NUMBER,
        "favourite": p.NUMBER,
        "cookie": p.NUMBER,
        "total": p.NUMBER,
    },
)
HAND: p.Schema = p.closed(
    "A hand: its size, the cards surely in it, recorded cards one or more of which left unnamed, "
    "and at most how many are not recorded; `hidden` when a reader without the token is not shown it.",
    {
        "size": p.COUNT,
        "known": p.listed(CARD),
        "maybe": p.listed(CARD),
        "unknown": p.COUNT,
        "hidden": p.FLAG,
    },
    optional=("hidden",),
)
TURN: p.Schema = p.closed(
    "The turn in play and what is left of it.",
    {
        "number": p.COUNT,
        "round": p.COUNT,
        "player": p.PLAYER,
        "played": p.FLAG,
        "extra": p.nullable(p.either(("redraw", "partner_trade"), "The extra action taken this turn.")),
        "left": p.listed(
            p.either(("swap", "black_hat", "redraw", "partner_trade")), "What may still be done."
        ),
    },
)

VIEW: p.Schema = p.closed(
    "A Hats table: tea table, collections, points, hand sizes and whose turn.",
    {
        "phase": p.either(("play", "favourites", "finished")),
        "to_act": p.TO_ACT,
        "players": p.described(p.PLAYERS, "Names in seat order."),
        "teams": p.listed(p.PLAYERS, "The partnerships (empty without teams)."),
        "turn": TURN,
        "tea_table": p.listed(SPACE, "Space 1 first."),
        "type_values": {
            "type": "object",
            "description": "Each type in play and its value (the lowest space showing it, else 0).",
            "properties": {kind: p.COUNT for kind in TYPES},
            "additionalProperties": False,
        },
        "collections": p.by_player(COLLECTION, "Each player's collection."),
        "points": p.by_player(POINTS, "Each player's points if the match ended now."),
        "hands": p.by_player(HAND, "Each player's hand."),
        "plays": p.by_player(p.COUNT, "Turns played by each player."),
        "favourites": p.by_player(p.nullable(CARD), "Each player's favourite hat, once chosen."),
        "removed_types": p.listed(KIND, "The types out of the game (two players)."),
        "draw_pile": p.COUNT,
        "discard_pile": p.COUNT,
        "finished": p.FLAG,
        "disputes": p.DISPUTES,
    },
)
