"""Wizard's evolve: folds one event into the state. Total, never validates, owns its state."""

from __future__ import annotations

from typing import Any

from games.contract import State
from games.decider import Evolvers
from games.players import left_of
from games.wizard.constants import (
    BIDDING,
    CHOOSE_TRUMP,
    FINISHED,
    PLAYING,
    SCORED,
    START_ROUND,
    WIZARD,
    rounds_for,
    suit_of,
    suit_to_follow,
)
from games.wizard.turns import dealer_of

# --- evolve ----------------------------------------------------------------------------------


evolve = Evolvers()


@evolve.on("MatchCreated")
def _match_created(state: State, data: dict[str, Any]) -> State:
    players = list(data["players"])
    state = {
        "players": players,
        "setup": dict(data["setup"]),
        "options": dict(data["options"]),
        "finished": False,
        "winners": [],
        "disputes": [],
        "rounds_total": rounds_for(len(players)),
        "totals": {p: 0 for p in players},
        "history": [],
    }
    return _next_round(state, 1)


@evolve.on("RoundStarted")
def _round_started(state: State, data: dict[str, Any]) -> State:
    state["trump_card"] = data["trump_card"]
    state["trump"] = data["trump"]
    state["hands"] = {p: list(cards) for p, cards in data["hands"].items()}
    state["leader"] = left_of(state["players"], state["dealer"])
    state["phase"] = CHOOSE_TRUMP if data["trump_card"] == WIZARD else BIDDING
    return state


@evolve.on("TrumpChosen")
def _trump_chosen(state: State, data: dict[str, Any]) -> State:
    state["trump"] = data["suit"]
    state["phase"] = BIDDING
    return state


@evolve.on("BidPlaced")
def _bid_placed(state: State, data: dict[str, Any]) -> State:
    state["bids"][data["player"]] = data["tricks"]
    if len(state["bids"]) == len(state["players"]):
        state["phase"] = PLAYING
    return state


@evolve.on("BidsRevealed")
def _bids_revealed(state: State, data: dict[str, Any]) -> State:
    state["bids_revealed"] = True
    return state


@evolve.on("CardPlayed")
def _card_played(state: State, data: dict[str, Any]) -> State:
    player, card = data["player"], data["card"]
    led = suit_to_follow([t["card"] for t in state["trick"]])
    if led is not None and suit_of(card) not in (None, led):
        # The player showed void in the led suit; a later card of it is a revoke.
        state["voids"].setdefault(player, {}).setdefault(led, state["trick_number"])
    hand = state["hands"].get(player)
    if hand is not None and card in hand:
        hand.remove(card)
    state["trick"].append({"player": player, "card": card})
    state["played"].append({"trick": state["trick_number"], "player": player, "card": card})
    return state


@evolve.on("DisputeRaised")
def _dispute_raised(state: State, data: dict[str, Any]) -> State:
    dispute = data["dispute"]
    state["disputes"].append(dict(dispute))
    if dispute.get("code") == "revoke" and dispute.get("round") == state["round"]:
        # This failure to follow is disputed; a later failure in the same suit is a new revoke.
        state["voids"].get(dispute["player"], {}).pop(dispute["suit"], None)
    return state


@evolve.on("TrickWon")
def _trick_won(state: State, data: dict[str, Any]) -> State:
    winner = data["player"]
    state["tricks"][winner] = state["tricks"].get(winner, 0) + 1
    state["leader"] = winner
    state["trick"] = []
    state["trick_number"] += 1
    return state


@evolve.on("RoundRecorded")
def _round_recorded(state: State, data: dict[str, Any]) -> State:
    state["bids"] = dict(data["bids"])
    state["tricks"] = dict(data["tricks"])
    return state


@evolve.on("RoundScored")
def _round_scored(state: State, data: dict[str, Any]) -> State:
    state["history"].append(
        {
            "round": data["round"],
            "bids": dict(data["bids"]),
            "tricks": dict(data["tricks"]),
            "points": dict(data["points"]),
        }
    )
    state["totals"] = dict(data["totals"])
    if data["round"] < state["rounds_total"]:
        return _next_round(state, data["round"] + 1)
    state["phase"] = SCORED
    return state


@evolve.on("MatchFinished")
def _match_finished(state: State, data: dict[str, Any]) -> State:
    state["finished"] = True
    state["winners"] = list(data["winners"])
    state["totals"] = dict(data["totals"])
    state["phase"] = FINISHED
    return state


# --- private helpers -------------------------------------------------------------------------


def _next_round(state: State, round_no: int) -> State:
    """The state waiting for round ``round_no`` to be dealt (or recorded whole)."""
    players = state["players"]
    state.update(
        round=round_no,
        dealer=dealer_of(players, state["setup"]["first_dealer"], round_no),
        phase=START_ROUND,
        trump_card=None,
        trump=None,
        hands={},
        bids={},
        bids_revealed=state["options"].get("bidding", "clockwise") == "clockwise",
        tricks={p: 0 for p in players},
        trick=[],
        trick_number=1,
        leader=None,
        played=[],
        voids={},
    )
    return state
