"""Hats ``view`` and ``scores``: the table as the API shows it, and every scoring category."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from games.contract import JSON, State
from games.hats.constants import COOKIE_POINTS, TYPES, card_type, card_value
from games.hats.whereabouts import surely_held
from games.hidden import DEAL, hold_back, masked
from games.players import left_of

# --- view -------------------------------------------------------------------------------------


def view(state: State) -> JSON:
    """What the API shows of a Hats table: tea table, collections, points, hand sizes, whose turn."""
    values = type_values(state)
    players = state["players"]
    return {
        "phase": state["phase"],
        "to_act": _to_act(state),
        "players": list(players),
        "teams": [list(team) for team in state["teams"]],
        "turn": _turn(state),
        "tea_table": _spaces(state, values),
        "type_values": values,
        "collections": {p: _collection(state, p) for p in players},
        # Every category as the scoreboard would count it if the match ended now.
        "points": _rows(state)[0],
        "hands": {p: hand_view(state["hands"][p]) for p in players},
        "plays": dict(state["plays"]),
        "favourites": dict(state["favourites"]),
        "removed_types": list(state["removed_types"]),
        "draw_pile": state["deck"],
        "discard_pile": state["pile"]["size"],
        "finished": state["finished"],
        "disputes": list(state["disputes"]),
    }


def hand_view(hand: dict[str, Any]) -> JSON:
    """A hand as shown: its size, the cards surely in it, the recorded cards one of which (or
    more) left unnamed, and at most how many of its cards are not recorded at all."""
    sure = surely_held(hand)
    return {
        "size": hand["size"],
        "known": list(hand["known"]) if sure else [],
        "maybe": [] if sure else list(hand["known"]),
        "unknown": hand["unknown"],
    }


# --- hidden information -----------------------------------------------------------------------

# The facts a table does not see, by event, and by the action that logs them: the cards dealt,
# which card became a black hat, and the cards redrawn or traded.
_HIDDEN = {
    "BlackHatMade": ["card"],
    "CardRedrawn": ["discarded", "drawn"],
    "PartnerTraded": ["given", "received"],
}
_HIDDEN_IN_ACTION = ["card", "discarded", "drawn", "given", "received"]


def announced(state: State) -> list[str]:
    """What the table has been shown beyond the swaps and favourites: everything, once it is over."""
    return [DEAL] if state["finished"] else []


def public(now: State, shown: Sequence[str], event: dict[str, Any], effective: bool = True) -> dict[str, Any]:
    """A logged event as a reader without the write token sees it: the recorded hands, black hats,
    redraws and trades stay hidden until the match is over."""
    if now["finished"] or DEAL in shown:
        return event
    if event.get("type") == "MatchCreated":
        return _created_in_public(event)
    action = (event.get("meta") or {}).get("action") or {}
    in_action = _HIDDEN_IN_ACTION if action.get("type") in ("black_hat", "redraw", "partner_trade") else []
    return hold_back(event, _HIDDEN.get(event.get("type") or "", []), in_action)


def _created_in_public(event: dict[str, Any]) -> dict[str, Any]:
    """The match's first event without the hands dealt (in its setup, and in the request logged)."""
    hands = (event["data"].get("setup") or {}).get("hands")
    if not hands or not any(hands.values()):
        return event
    hidden = copy.deepcopy(event)
    hidden["data"]["setup"]["hands"] = masked(hands)
    hidden["data"]["hidden"] = True
    action = hidden.get("meta", {}).get("action")
    if isinstance(action, dict) and isinstance(action.get("setup"), dict) and "hands" in action["setup"]:
        action["setup"]["hands"] = masked(action["setup"]["hands"])
    return hidden


def public_view(now: State, shown: Sequence[str], view: JSON) -> JSON:
    """The view at any step as a reader without the write token sees it: each hand by its size
    only, and the black hats unnamed, until the match is over."""
    if now["finished"] or DEAL in shown:
        return view
    hands = {
        p: {"size": h["size"], "known": [], "maybe": [], "unknown": h["size"], "hidden": True}
        if h["known"] or h["maybe"]
        else h
        for p, h in view["hands"].items()
    }
    collections = {p: dict(c) | {"black_hats_named": []} for p, c in view["collections"].items()}
    return dict(view) | {"hands": hands, "collections": collections}


# --- scores -----------------------------------------------------------------------------------


def scores(state: State) -> JSON:
    """Each category per player (collection, black hats, favourite, cookie), totals, winners."""
    rows, cookie = _rows(state)
    board: dict[str, Any] = {
        "finished": state["finished"],
        "winners": [],
        "decided_by": None,
        "totals": {p: row["total"] for p, row in rows.items()},
        "categories": rows,
        "cookie": cookie,
        "type_values": type_values(state),
    }
    if state["finished"]:
        board["winners"], board["decided_by"] = _winners(state, rows, cookie)
    if state["teams"]:
        board["teams"] = [
            {
                "players": list(team),
                "total": sum(rows[p]["total"] for p in team),
                "black_hats": sum(rows[p]["black_hats"] for p in team),
            }
            for team in state["teams"]
        ]
    return board


def outcome(state: State) -> dict[str, Any]:
    """The result as if the match ended now: winners, decided_by, totals and the cookie."""
    rows, cookie = _rows(state)
    winners, decided_by = _winners(state, rows, cookie)
    totals = {p: row["total"] for p, row in rows.items()}
    return {"winners": winners, "totals": totals, "cookie": cookie, "decided_by": decided_by}


def type_values(state: State) -> dict[str, int]:
    """Each type in play and its value: the lowest tea-table space showing it, else 0."""
    values = {kind: 0 for kind in TYPES if kind not in state["removed_types"]}
    for space, card in reversed(list(enumerate(state["table"], start=1))):
        values[card_type(card)] = space
    return values


def cookie_holder(state: State) -> str | None:
    """Who takes the last cookie: most types collected, then the lowest cards; else nobody."""
    kinds = {p: _types_collected(state, p) for p in state["players"]}
    most = max(kinds.values())
    tied = [p for p in state["players"] if kinds[p] == most]
    ladders = {p: sorted(card_value(c) for c in state["collections"][p]) for p in tied}
    step = 0
    while len(tied) > 1:
        if any(len(ladders[p]) <= step for p in tied):
            return None
        lowest = min(ladders[p][step] for p in tied)
        tied = [p for p in tied if ladders[p][step] == lowest]
        step += 1
    return tied[0]


def figures(state: State) -> dict[str, dict[str, float]]:
    """Each player's cookie rate for one match: 1 for the player who took the last cookie, else 0."""
    cookie = cookie_holder(state)
    return {p: {"cookie_rate": 1.0 if p == cookie else 0.0} for p in state["players"]}


# --- private helpers --------------------------------------------------------------------------


def _rows(state: State) -> tuple[dict[str, dict[str, int]], str | None]:
    values = type_values(state)
    cookie = cookie_holder(state)
    return {p: _categories(state, p, values, cookie) for p in state["players"]}, cookie


def _categories(state: State, player: str, values: dict[str, int], cookie: str | None) -> dict[str, int]:
    hats = state["collections"][player]
    row = {
        "collection": sum(values.get(card_type(card), 0) for card in hats),
        "black_hats": len(state["black_hats"][player]),
        "favourite": _favourite_points(hats, state["favourites"][player]),
        "cookie": COOKIE_POINTS if cookie == player else 0,
    }
    row["total"] = sum(row.values())
    return row


def _favourite_points(hats: list[str], favourite: str | None) -> int:
    if favourite is None:
        return 0
    kind = card_type(favourite)
    return sum(card_value(card) for card in hats if card_type(card) == kind) - card_value(favourite)


def _types_collected(state: State, player: str) -> int:
    black = 1 if state["black_hats"][player] else 0
    return len({card_type(card) for card in state["collections"][player]}) + black


def _winners(state: State, rows: dict[str, dict[str, int]], cookie: str | None) -> tuple[list[str], str]:
    """Highest total, then most black hats, then the cookie; by team when partners play."""
    sides: list[list[str]] = state["teams"] or [[p] for p in state["players"]]
    best = _top(sides, lambda side: sum(rows[p]["total"] for p in side))
    if len(best) == 1:
        return list(best[0]), "total"
    best = _top(best, lambda side: sum(rows[p]["black_hats"] for p in side))
    if len(best) == 1:
        return list(best[0]), "black_hats"
    holders = [side for side in best if cookie in side]
    if holders:
        return list(holders[0]), "cookie"
    # Nothing settles it: everyone still tied shares the win, also when that is every side.
    return [p for side in best for p in side], "shared"


def _top(sides: list[list[str]], key: Any) -> list[list[str]]:
    best = max(key(side) for side in sides)
    return [side for side in sides if key(side) == best]


def _to_act(state: State) -> list[str]:
    if state["finished"]:
        return []
    if state["phase"] != "play":
        return [p for p in state["players"] if state["favourites"][p] is None]
    turn = state["turn"]
    if not turn["played"]:
        return [turn["player"]]
    following = left_of(state["players"], turn["player"])
    return ([turn["player"]] if turn["extra"] is None else []) + [following]


def _turn(state: State) -> dict[str, Any]:
    turn = state["turn"]
    left: list[str] = []
    if state["phase"] == "play" and not turn["played"]:
        left += ["swap", "black_hat"]
    late = state["phase"] != "play" and (state["finished"] or any(state["favourites"].values()))
    if turn["extra"] is None and not late:
        left += ["redraw"] + (["partner_trade"] if state["teams"] else [])
    rounds = len(state["players"])
    return {
        "number": turn["number"],
        "round": (turn["number"] - 1) // rounds + 1,
        "player": turn["player"],
        "played": turn["played"],
        "extra": turn["extra"],
        "left": left,
    }


def _spaces(state: State, values: dict[str, int]) -> list[dict[str, Any]]:
    """Each tea-table space: its card, the card's type, the type's value, and whether it counts."""
    return [
        {
            "space": space,
            "card": card,
            "type": card_type(card),
            "type_value": values[card_type(card)],
            "counts": values[card_type(card)] == space,
        }
        for space, card in enumerate(state["table"], start=1)
    ]


def _collection(state: State, player: str) -> dict[str, Any]:
    named = [card for card in state["black_hats"][player] if card is not None]
    return {
        "hats": list(state["collections"][player]),
        "black_hats": len(state["black_hats"][player]),
        "black_hats_named": named,
    }
