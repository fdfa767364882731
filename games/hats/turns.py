"""Hats turns: one main action per turn, at most one redraw (or partner trade), 8 plays each.

A turn lasts until the next player acts, so the player who has played may still redraw until then;
after the last play, the last player may still redraw until the first favourite is revealed.
"""

from __future__ import annotations

from games.contract import Event, State, event, fail, require, words
from games.hats.constants import PLAYS_EACH
from games.players import left_of

# --- turn windows -----------------------------------------------------------------------------


def main_turn(state: State, player: str) -> list[Event]:
    """Refuse a main action (swap, black hat) out of turn; the TurnStarted it implies."""
    if state["phase"] != "play":
        fail(
            "too_many_plays",
            "{player} has played {PLAYS_EACH} cards, as has everyone: the play is over, reveal the "
            "favourite hats",
            player=player,
            PLAYS_EACH=PLAYS_EACH,
        )
    turn = state["turn"]
    if player == turn["player"]:
        require(
            not turn["played"],
            "already_played",
            "{player} has already played a card this turn; {left_of} plays next",
            player=player,
            left_of=left_of(state["players"], player),
        )
        return []
    return _next_turn(state, player)


def extra_turn(state: State, player: str, kind: str) -> list[Event]:
    """Refuse a redraw or partner trade outside its window; the TurnStarted it implies."""
    turn = state["turn"]
    if player == turn["player"]:
        done = turn["extra"]
        if done is not None:
            also = words(" or one partner trade") if state["teams"] else ""
            made = words("partner trade") if done == "partner_trade" else words("redraw")
            fail(
                "second_redraw",
                "{player} has already made a {made} this turn: one redraw{also}",
                player=player,
                made=made,
                also=also,
            )
        late = state["phase"] != "play" and any(state["favourites"].values())
        require(
            not late, "play_over", "the play is over: no {kind} once favourites are shown", kind=words(kind)
        )
        return []
    if state["phase"] != "play":
        fail("play_over", "the play is over: {player} may only reveal a favourite hat now", player=player)
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
            "it is not {player}'s turn: {current} has played, and {following} plays next",
            player=player,
            current=current,
            following=following,
        )
    fail("not_your_turn", "it is {current}'s turn, not {player}'s", current=current, player=player)


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
