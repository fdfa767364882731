"""Wizard's view (what the API shows of a match) and scores (the scoreboard)."""

from __future__ import annotations

import copy
from typing import Any

from games.contract import State
from games.wizard.constants import CHOOSE_TRUMP, FINISHED, SCORED, START_ROUND
from games.wizard.turns import to_act

# --- view and scores -------------------------------------------------------------------------


def view(state: State) -> dict[str, Any]:
    """The table as the API shows it: round, trump, turn, bids (unless hidden), tricks, cards."""
    return {
        "players": state["players"],
        "phase": state["phase"],
        "to_act": to_act(state),
        "round": state["round"],
        "rounds_total": state["rounds_total"],
        "dealer": state["dealer"],
        "trump": trump_words(state),
        "trump_card": state["trump_card"],
        "bidding": state["options"]["bidding"],
        "bids": _visible_bids(state),
        "have_bid": [p for p in state["players"] if p in state["bids"]],
        "tricks": state["tricks"],
        "trick_number": state["trick_number"],
        "trick": state["trick"],
        "played": state["played"],
        "hands": state["hands"],
        "totals": state["totals"],
        "disputes": state["disputes"],
        "finished": state["finished"],
        "winners": state["winners"],
    }


def scores(state: State) -> dict[str, Any]:
    """The scoreboard: totals, winners once finished, and every scored round."""
    return {
        "finished": state["finished"],
        "winners": state["winners"],
        "totals": state["totals"],
        "rounds": state["history"],
    }


def figures(state: State) -> dict[str, dict[str, float]]:
    """Each player's bid accuracy: the share of scored rounds whose bid they met exactly."""
    rounds = state["history"]
    met = {p: sum(1 for r in rounds if r["bids"].get(p) == r["tricks"].get(p)) for p in state["players"]}
    return {p: {"bid_accuracy": met[p] / len(rounds) if rounds else 0.0} for p in state["players"]}


def public(state: State, event: dict[str, Any]) -> dict[str, Any]:
    """A logged event as open reads show it: a bid the table cannot see yet keeps its number back."""
    if event.get("type") != "BidPlaced" or event["data"].get("round") != state.get("round"):
        return event
    if state["bids_revealed"] or state["phase"] in (SCORED, FINISHED):
        return event
    hidden = copy.deepcopy(event)
    hidden["data"]["tricks"] = None
    hidden["data"]["hidden"] = True
    if isinstance(hidden.get("meta", {}).get("action"), dict):
        hidden["meta"]["action"]["tricks"] = None
    return hidden


# --- private helpers -------------------------------------------------------------------------


def _visible_bids(state: State) -> dict[str, int]:
    """Bids as the table sees them: hidden until revealed (simultaneous) or scored (secret)."""
    if state["bids_revealed"] or state["phase"] in (SCORED, FINISHED):
        return {p: state["bids"][p] for p in state["players"] if p in state["bids"]}
    return {}


def trump_words(state: State) -> str | None:
    """The trump as the view shows it: a suit letter, "none", "dealer_chooses" or None."""
    if state["phase"] == CHOOSE_TRUMP:
        return "dealer_chooses"
    if state["phase"] in (START_ROUND, SCORED, FINISHED):
        return None
    return state["trump"] or "none"
