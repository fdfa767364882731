"""Facts about the table that rules share: who is who, whose turn it is and what comes next."""

from __future__ import annotations

from games.contract import fail
from games.other_hat_trick.constants import CHOOSE, PERFORM, REFILL, REVEAL, SWAP, State

# --- constants -------------------------------------------------------------------------------

NEXT_STEP = {
    CHOOSE: "choose: turn the next trick or swap to attempt the top one",
    SWAP: "swap one of their props with another player's",
    PERFORM: "perform or fail",
    REFILL: "turn the next trick onto the empty pile",
}

# --- seats and phases ------------------------------------------------------------------------


def require_phase(state: State, phases: tuple[str, ...], doing: str) -> None:
    """Refuse unless the match is in one of ``phases``, saying what must happen instead."""
    phase = state["phase"]
    if phase in phases:
        return
    if phase == REVEAL:
        fail(
            "match_ended",
            f"the match has ended ({ending_words(state)}): record reveal_all with every prop",
        )
    fail("wrong_phase", f"cannot {doing} now: {state['turn']} must {NEXT_STEP[phase]}")


def ending_words(state: State) -> str:
    """How the match ended, in words."""
    if state["ended_by"] == "performed":
        return "The Other Hat Trick was performed"
    return "three players in a row failed The Other Hat Trick"
