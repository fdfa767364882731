"""Facts about the table that rules, fold and views share: seats, turns, phases, the leader."""

from __future__ import annotations

from typing import Any

from games.contract import fail
from games.wizard.cards import SUIT_NAMES, parse_card

State = dict[str, Any]

# Phases of a match, in the order a round walks through them.
START_ROUND = "start_round"  # between rounds: waiting for start_round or record_round
CHOOSE_TRUMP = "choose_trump"  # a Wizard was turned: waiting for the dealer's suit
BIDDING = "bidding"
PLAYING = "playing"
SCORED = "scored"  # the last round is scored; MatchFinished follows in the same batch
FINISHED = "finished"


def seats_from(players: list[str], first: str) -> list[str]:
    """Every player once, clockwise, starting with ``first``."""
    at = players.index(first)
    return players[at:] + players[:at]


def left_of(players: list[str], player: str) -> str:
    """The player seated left of (clockwise after) ``player``."""
    return players[(players.index(player) + 1) % len(players)]


def dealer_of(players: list[str], first_dealer: str, round_no: int) -> str:
    """The dealer of a round: the first dealer, then one seat clockwise each round."""
    return players[(players.index(first_dealer) + round_no - 1) % len(players)]


def bidding_order(state: State) -> list[str]:
    """Who bids, in order: left of the dealer first, the dealer last."""
    return seats_from(state["players"], left_of(state["players"], state["dealer"]))


def sole_leader(totals: dict[str, int]) -> str | None:
    """The player whose total is strictly above everyone else's, or None on a tie."""
    best = max(totals.values())
    leaders = [p for p, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


def to_act(state: State) -> list[str]:
    """The players who may act next."""
    phase = state["phase"]
    if phase in (START_ROUND, CHOOSE_TRUMP):
        return [state["dealer"]]
    if phase == BIDDING:
        waiting = [p for p in bidding_order(state) if p not in state["bids"]]
        return waiting[:1] if state["options"]["bidding"] == "clockwise" else waiting
    if phase == PLAYING and _trick_open(state):
        order = seats_from(state["players"], state["leader"])
        return [order[len(state["trick"])]]
    return []


def _first(players: list[str]) -> str:
    return players[0] if players else "nobody"


def _trick_open(state: State) -> bool:
    """Whether a card may be played: false in the instant between a trick's last card and its
    TrickWon, or the last TrickWon and RoundScored (a rewind may stop there)."""
    return len(state["trick"]) < len(state["players"]) and state["trick_number"] <= state["round"]


def trump_words(state: State) -> str | None:
    """The trump as the view shows it: a suit letter, "none", "dealer_chooses" or None."""
    if state["phase"] == CHOOSE_TRUMP:
        return "dealer_chooses"
    if state["phase"] in (START_ROUND, SCORED, FINISHED):
        return None
    return state["trump"] or "none"


def expecting(state: State) -> str:
    """What the match waits for, in words, for messages that refuse an action."""
    phase, round_no = state["phase"], state["round"]
    if phase == START_ROUND:
        return f"round {round_no} has not started; record start_round or record_round first"
    if phase == CHOOSE_TRUMP:
        return f"a Wizard was turned in round {round_no}; {state['dealer']} must choose trump first"
    if phase == BIDDING:
        return f"round {round_no} is bidding; waiting for " + " or ".join(to_act(state))
    if phase == PLAYING:
        return f"round {round_no} is being played; {_first(to_act(state))} is to play"
    return "the match is over"


def suit_name(suit: str) -> str:
    """A suit letter in words."""
    return SUIT_NAMES[suit]


def require_phase(state: State, phase: str, doing: str) -> None:
    """Refuse with ``wrong_phase`` unless the match is in ``phase``."""
    if state["phase"] != phase:
        fail("wrong_phase", f"cannot {doing} now: {expecting(state)}")


def read_card(text: str) -> str:
    """The canonical card for ``text`` (any case), or ``unknown_card`` naming it."""
    card = parse_card(text)
    if card is None:
        fail(
            "unknown_card",
            f"{text!r} is not a Wizard card; write rank then suit (7H, 10S, QD, AC) or 'wizard' / 'jester'",
        )
    return card
