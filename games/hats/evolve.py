"""Hats ``evolve``: one small function per event; total, never validates, mutates what it is given.

Hands are ``{"known": [cards], "unknown": k, "size": n}``: the recorded cards that may be in the
hand, at most how many of its cards are none of them, and how many it holds. A card leaving a hand
unnamed keeps the recorded cards as candidates (any one of them may be the card that went), so a
card that cannot be in the hand is still refused. ``"loose"`` (present once it is not 0) counts the
unnamed cards that left the hand for where others may reach them (the discard pile, a partner):
while there is none, every candidate is in the hand or among the player's own black hats, so no
other player can play it.
"""

from __future__ import annotations

from typing import Any

from games.contract import State
from games.decider import Evolvers
from games.hats.constants import HAND_SIZE, card_count, table_size

# --- evolve -----------------------------------------------------------------------------------


evolve = Evolvers()


@evolve.on("MatchCreated")
def _match_created(_: State, data: dict[str, Any]) -> State:
    players = list(data["players"])
    setup = data["setup"]
    options = data.get("options", {})
    given = setup.get("hands", {})
    teams = [[players[0], players[2]], [players[1], players[3]]] if len(players) == 4 else []
    dealt = len(players) * HAND_SIZE + table_size(len(players))
    return {
        "players": players,
        "options": options,
        "teams": teams if options.get("partners", True) else [],
        "removed_types": list(setup.get("removed_types", [])),
        "table": list(setup["table"]),
        "collections": {p: [] for p in players},
        "black_hats": {p: [] for p in players},
        "favourites": {p: None for p in players},
        "hands": {p: _dealt(given.get(p, [])) for p in players},
        "plays": {p: 0 for p in players},
        "deck": card_count(len(players)) - dealt,
        "pile": {"known": [], "size": 0},
        "turn": {"number": 1, "player": setup["start_player"], "played": False, "extra": None},
        "phase": "play",
        "finished": False,
        "disputes": [],
    }


@evolve.on("TurnStarted")
def _turn_started(state: State, data: dict[str, Any]) -> State:
    turn = {"number": data["turn"], "player": data["player"], "played": False, "extra": None}
    state["turn"] = turn
    return state


@evolve.on("HatSwapped")
def _hat_swapped(state: State, data: dict[str, Any]) -> State:
    player = data["player"]
    _leave(state, player, data["card"])
    state["table"][data["space"] - 1] = data["card"]
    state["collections"][player].append(data["taken"])
    return _played(state, player)


@evolve.on("BlackHatMade")
def _black_hat_made(state: State, data: dict[str, Any]) -> State:
    player = data["player"]
    _leave(state, player, data.get("card"))
    state["black_hats"][player].append(data.get("card"))
    return _played(state, player)


@evolve.on("CardRedrawn")
def _card_redrawn(state: State, data: dict[str, Any]) -> State:
    hand = state["hands"][data["player"]]
    state["turn"]["extra"] = "redraw"
    if data.get("returned"):
        # The only card of the discard pile is shuffled and drawn back: the hand is as it was,
        # and now known to hold that card if it was named.
        card = data.get("drawn")
        if card is not None and card not in hand["known"] and hand["unknown"] > 0:
            hand["known"].append(card)
            hand["unknown"] -= 1
            _seen_elsewhere(state, data["player"], card)
        return state
    _leave(state, data["player"], data.get("discarded"), loose=True)
    pile = state["pile"]
    pile["size"] += 1
    if data.get("discarded") is not None:
        pile["known"].append(data["discarded"])
    if state["deck"] == 0:
        state["deck"], state["pile"] = pile["size"], {"known": [], "size": 0}
    state["deck"] -= 1
    _enter(state, data["player"], data.get("drawn"))
    return state


@evolve.on("PartnerTraded")
def _partner_traded(state: State, data: dict[str, Any]) -> State:
    player, partner = data["player"], data["partner"]
    _leave(state, player, data.get("given"), loose=True)
    _leave(state, partner, data.get("received"), loose=True)
    _enter(state, partner, data.get("given"))
    _enter(state, player, data.get("received"))
    state["turn"]["extra"] = "partner_trade"
    return state


evolve.sets("PlayEnded", phase="favourites")


@evolve.on("FavouriteRevealed")
def _favourite_revealed(state: State, data: dict[str, Any]) -> State:
    player = data["player"]
    _leave(state, player, data["card"])
    state["favourites"][player] = data["card"]
    return state


evolve.sets("MatchFinished", phase="finished", finished=True)


# --- private helpers --------------------------------------------------------------------------


def _played(state: State, player: str) -> State:
    state["plays"][player] += 1
    state["turn"]["played"] = True
    return state


def _dealt(cards: list[str]) -> dict[str, Any]:
    return {"known": list(cards), "unknown": HAND_SIZE - len(cards), "size": HAND_SIZE}


def _leave(state: State, player: str, card: str | None, loose: bool = False) -> None:
    """A card leaves a hand: named, it is struck off (a recorded one, or one of the unknown);
    unnamed, every recorded card stays a candidate, since nobody can tell which one went, and one
    that goes where others may reach it (``loose``) is counted."""
    hand = state["hands"][player]
    hand["size"] -= 1
    if card is None and loose:
        hand["loose"] = hand.get("loose", 0) + 1
    if card is not None and card not in hand["known"]:
        hand["unknown"] = max(0, hand["unknown"] - 1)
    elif card is not None:
        hand["known"].remove(card)
    hand["unknown"] = min(hand["unknown"], hand["size"])
    _seen_elsewhere(state, player, card)


def _enter(state: State, player: str, card: str | None) -> None:
    hand = state["hands"][player]
    if card is not None and card not in hand["known"]:
        hand["known"].append(card)
    elif card is None:
        hand["unknown"] += 1
    hand["size"] += 1
    _seen_elsewhere(state, player, card)


def _seen_elsewhere(state: State, player: str, card: str | None) -> None:
    """A named card was with ``player``: another hand that listed it as a candidate lost it
    unnamed earlier, so it is no candidate there any more."""
    if card is None:
        return
    for other, hand in state["hands"].items():
        if other != player and card in hand["known"]:
            hand["known"].remove(card)
            hand["unknown"] = max(hand["unknown"], hand["size"] - len(hand["known"]))
