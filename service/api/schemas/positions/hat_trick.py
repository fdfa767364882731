"""Hat Trick's view: the card in play, who is still in the round, the declarations waiting to be
judged, the judgements and the cards won."""

from __future__ import annotations

from games.hat_trick.constants import CONTAINERS, PROPS, TABLE
from games.hat_trick.schemas import OPTIONS
from service.api.schemas.positions.parts import (
    COUNT,
    DISPUTES,
    FLAG,
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

CARD_NUMBER: Schema = {"type": "integer", "description": "A card's number in the deck."}
PROP: Schema = either(PROPS, "A prop.")
CARD: Schema = closed(
    "A revealed card: its number and the props it shows in colour, in grey and starred.",
    {"card": CARD_NUMBER, "colour": listed(PROP), "grey": listed(PROP), "starred": listed(PROP)},
)
PLACED: Schema = closed(
    "Where one prop of a stack is: inside (`in`) a container, or resting on (`on`) a prop or the table.",
    {"prop": PROP, "in": either(CONTAINERS), "on": either((*PROPS, TABLE))},
    optional=("in", "on"),
)
DECLARATION: Schema = closed(
    "A declaration waiting to be judged, with its stack (null: judged by the table's verdict).",
    {"player": PLAYER, "stack": nullable(listed(PLACED))},
)
REASON: Schema = closed(
    "A requirement of the card that a stack failed (or the table's reason).",
    {"requirement": TEXT, "prop": nullable(PROP), "message": TEXT},
)
JUDGEMENT: Schema = closed(
    "A declaration's verdict, who gave it (the table, or tabletape from the stack) and why it failed.",
    {
        "player": PLAYER,
        "verdict": either(("pass", "fail")),
        "by": either(("table", "tabletape")),
        "reasons": listed(REASON),
    },
)
ROUND: Schema = closed(
    "A round that ended: its card, how it ended, the winner and its judgements.",
    {
        "card": CARD_NUMBER,
        "outcome": either(("won", "all_failed", "abandoned")),
        "winner": nullable(PLAYER),
        "judgements": listed(JUDGEMENT),
    },
)

VIEW: Schema = closed(
    "A Hat Trick table: the card in play, who is still in the round, the declarations and the cards won.",
    {
        "phase": either(("reveal", "build", "judge", "finished")),
        "to_act": TO_ACT,
        "players": described(PLAYERS, "Names in seat order."),
        "options": filled(OPTIONS, "The rule variants, defaults filled in."),
        "card": nullable(CARD),
        "in_round": PLAYERS,
        "out": PLAYERS,
        "queue": listed(DECLARATION),
        "awaiting_judgement": nullable(PLAYER),
        "judgements": listed(JUDGEMENT),
        "cards_won": by_player(listed(CARD_NUMBER), "The cards each player has won."),
        "totals": by_player(COUNT, "Cards won per player."),
        "cards_revealed": COUNT,
        "cards_left": COUNT,
        "discarded": listed(CARD_NUMBER),
        "last_round": nullable(ROUND),
        "finished": FLAG,
        "winners": PLAYERS,
        "disputes": DISPUTES,
    },
)
