"""Hat Trick's view: the card in play, who is still in the round, the declarations waiting to be
judged, the judgements and the cards won."""

from __future__ import annotations

from games.hat_trick.constants import CONTAINERS, PROPS, TABLE
from games.hat_trick.schemas import OPTIONS
from service.api.schemas.positions import parts as p

CARD_NUMBER: p.Schema = {"type": "integer", "description": "A card's number in the deck."}
PROP: p.Schema = p.either(PROPS, "A prop.")
CARD: p.Schema = p.closed(
    "A revealed card: its number and the props it shows in colour, in grey and starred.",
    {"card": CARD_NUMBER, "colour": p.listed(PROP), "grey": p.listed(PROP), "starred": p.listed(PROP)},
)
PLACED: p.Schema = p.closed(
    "Where one prop of a stack is: inside (`in`) a container, or resting on (`on`) a prop or the table.",
    {"prop": PROP, "in": p.either(CONTAINERS), "on": p.either((*PROPS, TABLE))},
    optional=("in", "on"),
)
DECLARATION: p.Schema = p.closed(
    "A declaration waiting to be judged, with its stack (null: judged by the table's verdict).",
    {"player": p.PLAYER, "stack": p.nullable(p.listed(PLACED))},
)
REASON: p.Schema = p.closed(
    "A requirement of the card that a stack failed (or the table's reason).",
    {"requirement": p.TEXT, "prop": p.nullable(PROP), "message": p.TEXT, "said": p.SAID},
    optional=("said",),
)
JUDGEMENT: p.Schema = p.closed(
    "A declaration's verdict, who gave it (the table, or tabletape from the stack) and why it failed.",
    {
        "player": p.PLAYER,
        "verdict": p.either(("pass", "fail")),
        "by": p.either(("table", "tabletape")),
        "reasons": p.listed(REASON),
    },
)
ROUND: p.Schema = p.closed(
    "A round that ended: its card, how it ended, the winner and its judgements.",
    {
        "card": CARD_NUMBER,
        "outcome": p.either(("won", "all_failed", "abandoned")),
        "winner": p.nullable(p.PLAYER),
        "judgements": p.listed(JUDGEMENT),
    },
)

VIEW: p.Schema = p.closed(
    "A Hat Trick table: the card in play, who is still in the round, the declarations and the cards won.",
    {
        "phase": p.either(("reveal", "build", "judge", "finished")),
        "to_act": p.TO_ACT,
        "players": p.described(p.PLAYERS, "Names in seat order."),
        "options": p.filled(OPTIONS, "The rule variants, defaults filled in."),
        "card": p.nullable(CARD),
        "in_round": p.PLAYERS,
        "out": p.PLAYERS,
        "queue": p.listed(DECLARATION),
        "awaiting_judgement": p.nullable(p.PLAYER),
        "judgements": p.listed(JUDGEMENT),
        "cards_won": p.by_player(p.listed(CARD_NUMBER), "The cards each player has won."),
        "totals": p.by_player(p.COUNT, "Cards won per player."),
        "cards_revealed": p.COUNT,
        "cards_left": p.COUNT,
        "discarded": p.listed(CARD_NUMBER),
        "last_round": p.nullable(ROUND),
        "finished": p.FLAG,
        "winners": p.PLAYERS,
        "disputes": p.DISPUTES,
    },
)
