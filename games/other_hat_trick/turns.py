"""The Other Hat Trick's turns: who may act, which phase the match is in and what comes next."""

from __future__ import annotations

from games.contract import Message, fail, words
from games.other_hat_trick.constants import FINISHED, NEXT_STEP, REVEAL, State

# --- seats and phases ------------------------------------------------------------------------


def require_phase(state: State, phases: tuple[str, ...], doing: str) -> None:
    """Refuse unless the match is in one of ``phases``, saying what must happen instead."""
    phase = state["phase"]
    if phase in phases:
        return
    if phase == REVEAL:
        fail(
            "wrong_phase",
            "the match has ended ({ending_words}): record reveal_all with every prop",
            ending_words=ending_words(state),
        )
    fail(
        "wrong_phase",
        "cannot {doing} now: {turn} must {step}",
        doing=words(doing),
        turn=state["turn"],
        step=words(NEXT_STEP[phase]),
    )


def ending_words(state: State) -> Message:
    """How the match ended, in words."""
    if state["ended_by"] == "performed":
        return words("The Other Hat Trick was performed")
    return words("three players in a row failed The Other Hat Trick")


def to_act(state: State) -> list[str]:
    """The players who may act next: the player whose turn it is, or everyone at the reveal."""
    if state["phase"] == REVEAL:
        return list(state["players"])
    if state["phase"] == FINISHED or state["turn"] is None:
        return []
    return [state["turn"]]
