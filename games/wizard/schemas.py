"""What a scorekeeping app sends for Wizard: JSON Schemas (draft 2020-12) of every action's
fields, of the setup and of the rule options, as GET /v1/games publishes them."""

from __future__ import annotations

from typing import Any

from games.contract import N_
from games.schemas import schema

_MOST_TRICKS = 30  # the last round of a two-player match; decide checks the current round's limit

_CARD: dict[str, Any] = {
    "type": "string",
    "minLength": 2,
    "maxLength": 6,
    "description": "A card: rank (2-10, J, Q, K, A) then suit (S, H, D, C), e.g. '7H', '10S', "
    "'QD'; or 'wizard' / 'jester'. Any case; events and views use the canonical spelling.",
}
_PLAYER: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "A player's name as given when the match was created.",
}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": _MOST_TRICKS}


ACTIONS: dict[str, dict[str, Any]] = {
    "start_round": schema(
        "The round is dealt and the top card of the rest is turned. Starts the next round.",
        {
            "trump_card": {
                **_CARD,
                "type": ["string", "null"],
                "description": "The turned card: a suit card makes its suit trump, 'jester' means "
                "no trump, 'wizard' means the dealer chooses (send choose_trump next). Required "
                "in every round but the last, where it must be null (or left out).",
            },
            "hands": {
                "type": "object",
                "description": "Optional: the cards dealt, {player: [cards]}, for some or all "
                "players; each hand has as many cards as the round's number. Recorded hands make "
                "tabletape refuse a card not held and a failure to follow suit at once.",
                "additionalProperties": {"type": "array", "items": _CARD, "maxItems": _MOST_TRICKS},
            },
        },
        [],
    ),
    "choose_trump": schema(
        "After a turned Wizard the dealer names the trump suit (no trump is not allowed).",
        {
            "suit": {
                "type": "string",
                "minLength": 1,
                "maxLength": 8,
                "description": "S, H, D or C (or spades, hearts, diamonds, clubs); any case.",
            },
            "player": {**_PLAYER, "description": "Optional: who chose; must be the dealer."},
        },
        ["suit"],
    ),
    "bid": schema(
        "A player's bid: how many tricks they expect to win this round. With clockwise bidding "
        "the turn goes from the dealer's left; otherwise bids come in any order.",
        {
            "player": _PLAYER,
            "tricks": {**_COUNT, "description": "0 up to the round's number of cards."},
        },
        ["player", "tricks"],
    ),
    "play": schema(
        "A card played to the current trick, by the player whose turn it is.",
        {"player": _PLAYER, "card": _CARD},
        ["player", "card"],
    ),
    "record_round": schema(
        "A whole round at once, for tables that keep score only: every player's bid and tricks "
        "won. Use it instead of start_round, bids and plays; rounds may mix both ways.",
        {
            "bids": {
                "type": "object",
                "description": "{player: bid} for every player, each 0 to the round's number.",
                "additionalProperties": _COUNT,
            },
            "tricks": {
                "type": "object",
                "description": "{player: tricks won} for every player; they add up to the round's number.",
                "additionalProperties": _COUNT,
            },
        },
        ["bids", "tricks"],
    ),
}

SETUP: dict[str, Any] = schema(
    "Facts of the starting position.",
    {"first_dealer": {**_PLAYER, "description": N_("Who deals round 1 (the table draws for it).")}},
    ["first_dealer"],
)

OPTIONS: dict[str, Any] = schema(
    "Rule variants, fixed for the match.",
    {
        "bidding": {
            "enum": ["clockwise", "simultaneous", "secret"],
            "default": "clockwise",
            "description": N_(
                "clockwise: one at a time from the dealer's left. simultaneous: in any "
                "order, shown together once all are in. secret: in any order, hidden in views until "
                "the round is scored."
            ),
        },
        "canadian_rule": {
            "type": "boolean",
            "default": False,
            "description": N_(
                "When the dealer, bidding last, leads the scores alone, the bids may "
                "not add up to the round's number (a bid of 0 is always allowed). Needs clockwise "
                "bidding."
            ),
        },
    },
    [],
)
