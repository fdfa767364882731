"""What Hats lets the table record now: the turn's main action (a swap that respects
type-or-higher, or a black hat), the redraw or partner trade of the turn's window, and the
favourite hats once the play is over. A card is offered where the record allows it to be: with
the match's token from everything recorded (hands, black hats, the discard pile), without it from
public facts only."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from games.contract import RuleViolation, State, words
from games.hats.constants import ALL_CARDS, card_type, card_value
from games.hats.rules import decide
from games.hats.turns import partner_of
from games.hats.whereabouts import check_leaves_hand
from games.legal import Answer, Entry, accepted, answer, entry, listed

# --- legal -----------------------------------------------------------------------------------


def legal(state: State, sees_hidden: bool) -> Answer:
    """Every action the rules allow now; hidden cards count only when ``sees_hidden``."""
    if state.get("finished"):
        return answer(state, [], [])
    known = state if sees_hidden else _public(state)
    actions: list[Entry] = []
    for player in state["players"]:
        actions += _main(known, player) + _extras(known, player) + _favourite(known, player)
    to_act = [p for p in state["players"] if any(e["fixed"]["player"] == p for e in actions)]
    return answer(state, to_act, actions)


# --- actions ---------------------------------------------------------------------------------


def _main(state: State, player: str) -> list[Entry]:
    """A swap (every card onto every space it may take) or a black hat, for the player to play."""
    if not _takes(state, {"type": "black_hat", "player": player}):
        return []
    cards = [c for c in _cards(state) if _may(check_leaves_hand, state, player, c)]
    choices = [
        {"card": card, "space": space}
        for card in cards
        for space, on in enumerate(state["table"], start=1)
        if card_type(card) == card_type(on) or card_value(card) > card_value(on)
    ]
    spaces = list(range(1, len(state["table"]) + 1))
    swap = entry("swap", [listed("card", cards), listed("space", spaces)], player=player, choices=choices)
    black = entry("black_hat", [listed("card", cards, optional=True)], player=player)
    return ([swap] if choices else []) + [black]


def _extras(state: State, player: str) -> list[Entry]:
    """The redraw, or with partners the partner trade, of the turn's window."""
    found = []
    if _takes(state, {"type": "redraw", "player": player}):
        found.append(entry("redraw", _redraw_fields(state, player), player=player))
    partner = partner_of(state, player)
    if partner is not None and _takes(state, {"type": "partner_trade", "player": player}):
        given = [c for c in _cards(state) if _may(check_leaves_hand, state, player, c)]
        received = [c for c in _cards(state) if _may(check_leaves_hand, state, partner, c)]
        fields = [listed("given", given, optional=True), listed("received", received, optional=True)]
        found.append(entry("partner_trade", fields, player=player, note=words("given and received differ")))
    return found


def _favourite(state: State, player: str) -> list[Entry]:
    if state["phase"] == "play" or state["favourites"][player] is not None:
        return []
    cards = [c for c in _cards(state) if _may(check_leaves_hand, state, player, c)]
    return [entry("favourite", [listed("card", cards)], player=player)] if cards else []


# --- private helpers -------------------------------------------------------------------------


def _redraw_fields(state: State, player: str) -> list[dict[str, Any]]:
    cards = _cards(state)
    discarded = [c for c in cards if _takes(state, {"type": "redraw", "player": player, "discarded": c})]
    drawn = [c for c in cards if _takes(state, {"type": "redraw", "player": player, "drawn": c})]
    return [listed("discarded", discarded, optional=True), listed("drawn", drawn, optional=True)]


def _cards(state: State) -> list[str]:
    """Every card of this game (the removed types left out)."""
    return [c for c in ALL_CARDS if card_type(c) not in state["removed_types"]]


def _takes(state: State, action: dict[str, Any]) -> bool:
    """Whether the rules accept ``action`` now (the turn windows are theirs to judge)."""
    return accepted(decide, state, action)


def _may(check: Callable[..., Any], *args: Any) -> bool:
    try:
        check(*args)
    except RuleViolation:
        return False
    return True


def _public(state: State) -> State:
    """The state as the table sees it: no card of a hand, a black hat or the discard pile named."""
    seen = copy.deepcopy(state)
    for hand in seen["hands"].values():
        hand["known"], hand["unknown"] = [], hand["size"]
    seen["black_hats"] = {p: [None] * len(hats) for p, hats in seen["black_hats"].items()}
    seen["pile"]["known"] = []
    return seen
