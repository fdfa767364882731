"""Wizard's turns: who deals, who bids and plays next, and what the match waits for."""

from __future__ import annotations

from games.contract import Message, State, fail, words
from games.players import left_of, seats_from
from games.wizard.constants import BIDDING, CHOOSE_TRUMP, PLAYING, START_ROUND
from games.words import or_words

# --- turns -----------------------------------------------------------------------------------


def dealer_of(players: list[str], first_dealer: str, round_no: int) -> str:
    """The dealer of a round: the first dealer, then one seat clockwise each round."""
    return left_of(players, first_dealer, round_no - 1)


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


def expecting(state: State) -> Message:
    """What the match waits for, in words, for messages that refuse an action."""
    phase, round_no = state["phase"], state["round"]
    if phase == START_ROUND:
        return words(
            "round {round_no} has not started; record start_round or record_round first", round_no=round_no
        )
    if phase == CHOOSE_TRUMP:
        return words(
            "a Wizard was turned in round {round_no}; {dealer} must choose trump first",
            round_no=round_no,
            dealer=state["dealer"],
        )
    if phase == BIDDING:
        return words(
            "round {round_no} is bidding; waiting for {players}",
            round_no=round_no,
            players=or_words(to_act(state)),
        )
    if phase == PLAYING:
        return words(
            "round {round_no} is being played; {player} is to play",
            round_no=round_no,
            player=_first(to_act(state)),
        )
    return words("the match is over")


def require_phase(state: State, phase: str, doing: str) -> None:
    """Refuse with ``wrong_phase`` unless the match is in ``phase``."""
    if state["phase"] != phase:
        fail("wrong_phase", "cannot {doing} now: {expecting}", doing=words(doing), expecting=expecting(state))
