"""Hats turns: one main action per turn, at most one redraw (or partner trade), 8 plays each.

A turn lasts until the next player acts, so the player who has played may still redraw until then;
after the last play, the last player may still redraw until the first favourite is revealed.
"""

from __future__ import annotations

from games.contract import Event, State, event, fail, require
from games.hats.constants import PLAYS_EACH
from games.players import left_of

# --- turn windows -----------------------------------------------------------------------------


def main_turn(state: State, player: str) -> list[Event]:
    """Refuse a main action (swap, black hat) out of turn; the TurnStarted it implies."""
    if state["phase"] != "play":
        fail(
            "too_many_plays",
            f"{player} has played {PLAYS_EACH} cards, as has everyone: the play is over, "
            "reveal the favourite hats",
        )
    turn = state["turn"]
    if player == turn["player"]:
        require(
            not turn["played"],
            "already_played",
            f"{player} has already played a card this turn; {left_of(state['players'], player)} plays next",
        )
        return []
    return _next_turn(state, player)


def extra_turn(state: State, player: str, kind: str) -> list[Event]:
    """Refuse a redraw or partner trade outside its window; the TurnStarted it implies."""
    turn = state["turn"]
    if player == turn["player"]:
        done = turn["extra"]
        if done is not None:
            also = " or one partner trade" if state["teams"] else ""
            made = done.replace("_", " ")
            fail("second_redraw", f"{player} has already made a {made} this turn: one redraw{also}")
        late = state["phase"] != "play" and any(state["favourites"].values())
        require(not late, "play_over", f"the play is over: no {kind} once favourites are shown")
        return []
    if state["phase"] != "play":
        fail("play_over", f"the play is over: {player} may only reveal a favourite hat now")
    return _next_turn(state, player)


def _next_turn(state: State, player: str) -> list[Event]:
    turn = state["turn"]
    current = turn["player"]
    following = left_of(state["players"], current)
    if player == following and turn["played"]:
        return [event("TurnStarted", player=player, turn=turn["number"] + 1)]
    if turn["played"]:
        fail(
            "not_your_turn",
            f"it is not {player}'s turn: {current} has played, and {following} plays next",
        )
    fail("not_your_turn", f"it is {current}'s turn, not {player}'s")


def play_end(state: State) -> list[Event]:
    """PlayEnded when the coming main action is the last of the match."""
    made = sum(state["plays"].values()) + 1
    if made < PLAYS_EACH * len(state["players"]):
        return []
    return [event("PlayEnded", plays=PLAYS_EACH)]


def partner_of(state: State, player: str) -> str | None:
    """The partner sitting opposite, when the match is played in teams."""
    for team in state["teams"]:
        if player in team:
            return str(team[1] if team[0] == player else team[0])
    return None
