"""Hats ``evolve``: one small function per event; total, never validates, mutates what it is given.

Hands are ``{"known": [cards], "size": n}``: the recorded cards of a hand and how many it holds.
A card leaving a hand unnamed makes its known cards unknown (nobody can tell which one went).
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
        "hands": {p: {"known": list(given.get(p, [])), "size": HAND_SIZE} for p in players},
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
    _leave(state["hands"][player], data["card"])
    state["table"][data["space"] - 1] = data["card"]
    state["collections"][player].append(data["taken"])
    return _played(state, player)


@evolve.on("BlackHatMade")
def _black_hat_made(state: State, data: dict[str, Any]) -> State:
    player = data["player"]
    _leave(state["hands"][player], data.get("card"))
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
        if card is not None and card not in hand["known"] and len(hand["known"]) < hand["size"]:
            hand["known"].append(card)
        return state
    _leave(hand, data.get("discarded"))
    pile = state["pile"]
    pile["size"] += 1
    if data.get("discarded") is not None:
        pile["known"].append(data["discarded"])
    if state["deck"] == 0:
        state["deck"], state["pile"] = pile["size"], {"known": [], "size": 0}
    state["deck"] -= 1
    _enter(hand, data.get("drawn"))
    return state


@evolve.on("PartnerTraded")
def _partner_traded(state: State, data: dict[str, Any]) -> State:
    mine, theirs = state["hands"][data["player"]], state["hands"][data["partner"]]
    _leave(mine, data.get("given"))
    _leave(theirs, data.get("received"))
    _enter(theirs, data.get("given"))
    _enter(mine, data.get("received"))
    state["turn"]["extra"] = "partner_trade"
    return state


@evolve.on("PlayEnded")
def _play_ended(state: State, _: dict[str, Any]) -> State:
    state["phase"] = "favourites"
    return state


@evolve.on("FavouriteRevealed")
def _favourite_revealed(state: State, data: dict[str, Any]) -> State:
    player = data["player"]
    _leave(state["hands"][player], data["card"])
    state["favourites"][player] = data["card"]
    return state


@evolve.on("MatchFinished")
def _match_finished(state: State, _: dict[str, Any]) -> State:
    state["phase"] = "finished"
    state["finished"] = True
    return state


# --- private helpers --------------------------------------------------------------------------


def _played(state: State, player: str) -> State:
    state["plays"][player] += 1
    state["turn"]["played"] = True
    return state


def _leave(hand: dict[str, Any], card: str | None) -> None:
    """A card leaves a hand: named, it is struck off; unnamed, the hand's cards become unknown."""
    if card is None:
        hand["known"] = []
    elif card in hand["known"]:
        hand["known"].remove(card)
    hand["size"] -= 1


def _enter(hand: dict[str, Any], card: str | None) -> None:
    if card is not None:
        hand["known"].append(card)
    hand["size"] += 1
