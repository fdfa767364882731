"""Hat Trick's setup and decide: what each recorded action causes, derived facts included.

Rules' source: shared/games/hat-trick.md (from 000_541fe7a985f596f8.txt). A round opens with a
revealed card; declarations queue in the order made and are judged in that order (a stack by
tabletape, a declaration without one by the table); a pass takes the card, a fail puts the player
out until the next card, and the card is discarded when every player failed or the table abandons
the round. The match ends at once when a player reaches the target, or after the 55th card.
"""

from __future__ import annotations

from typing import Any

from games.contract import Action, Event, State, event, fail, require, words
from games.decider import Handler, decide_with, derive
from games.hat_trick.constants import DECK_SIZE, PROPS, TITLE, prop_name
from games.hat_trick.evolve import evolve, working_copy
from games.hat_trick.stacks import canonical_stack, check_stack, judge_stack
from games.hat_trick.view import totals
from games.players import find_player

# --- setup -----------------------------------------------------------------------------------


def setup(players: list[str], setup: dict[str, Any], options: dict[str, Any]) -> list[Event]:
    """The match's first event: MatchCreated with the options' defaults filled in."""
    return [event("MatchCreated", players=list(players), setup=dict(setup), options=options)]


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, action: Action) -> list[Event]:
    """The events an action causes, derived facts included, or RuleViolation."""
    return decide_with(HANDLERS, TITLE, state, action)


def _reveal(state: State, action: Action) -> list[Event]:
    number = action["card"]
    if state["round"] is not None:
        fail(
            "round_in_progress",
            "card {card} is still in play: its round ends with a pass, with every player failing, or "
            "with abandon_round before card {number} can be revealed",
            card=state["round"]["card"]["card"],
            number=number,
        )
    require(
        number not in state["revealed"],
        "card_already_revealed",
        "card {number} was already revealed in this match: each card is revealed once",
        number=number,
    )
    colour, grey, starred = (_in_order(action.get(key, [])) for key in ("colour", "grey", "starred"))
    _check_card(state, number, colour, grey, starred)
    return [event("CardRevealed", card=number, colour=colour, grey=grey, starred=starred)]


def _declare(state: State, action: Action) -> list[Event]:
    round_ = _round_in_play(state)
    player = find_player(state["players"], action["player"])
    require(
        player not in round_["out"],
        "player_out",
        "{player} already failed this round and is out until the next card",
        player=player,
    )
    require(
        all(entry["player"] != player for entry in round_["queue"]),
        "already_declared",
        "{player} has already declared and is waiting to be judged",
        player=player,
    )
    stack = action.get("stack")
    if stack is not None:
        check_stack(stack)
        stack = canonical_stack(stack)
    return derive(
        state, [event("DeclarationMade", player=player, stack=stack)], evolve, _derived, working_copy
    )


def _judge(state: State, action: Action) -> list[Event]:
    round_ = _round_in_play(state)
    player = find_player(state["players"], action["player"])
    queue = round_["queue"]
    entry = next((entry for entry in queue if entry["player"] == player), None)
    if entry is None:
        why = words("already failed this round") if player in round_["out"] else words("has not declared")
        fail(
            "not_declared",
            "{player} {why}: there is no declaration of theirs to judge",
            player=player,
            why=why,
        )
    require(
        entry["stack"] is None,
        "judged_by_stack",
        "{player} declared with a stack: tabletape judges it when its turn in the queue comes",
        player=player,
    )
    require(
        entry is queue[0],
        "judge_out_of_order",
        "{first} declared before {player}: judge {first} first",
        first=queue[0]["player"],
        player=player,
    )
    reason = action.get("reason")
    reasons = [{"requirement": "table", "prop": None, "message": reason}] if reason else []
    return derive(
        state, _verdict(state, player, action["verdict"], "table", reasons), evolve, _derived, working_copy
    )


def _abandon(state: State, action: Action) -> list[Event]:
    round_ = _round_in_play(state)
    return derive(
        state,
        [event("CardDiscarded", card=round_["card"]["card"], reason="abandoned")],
        evolve,
        _derived,
        working_copy,
    )


HANDLERS: dict[str, Handler] = {
    "reveal": _reveal,
    "declare": _declare,
    "judge": _judge,
    "abandon_round": _abandon,
}


# --- private helpers -------------------------------------------------------------------------


def _derived(work: State) -> list[Event]:
    """What follows by itself from this state: a stack judged, a card discarded, the match end."""
    round_ = work["round"]
    if work["finished"]:
        return []
    if round_ is None:
        return _match_end(work)
    if len(round_["out"]) == len(work["players"]):
        return [event("CardDiscarded", card=round_["card"]["card"], reason="all_failed")]
    queue = round_["queue"]
    if queue and queue[0]["stack"] is not None:
        reasons = judge_stack(round_["card"], queue[0]["stack"], work["options"]["stars"])
        return _verdict(work, queue[0]["player"], "fail" if reasons else "pass", "tabletape", reasons)
    return []


def _verdict(state: State, player: str, verdict: str, by: str, reasons: list[dict[str, Any]]) -> list[Event]:
    judged = event("DeclarationJudged", player=player, verdict=verdict, by=by, reasons=reasons)
    if verdict != "pass":
        return [judged]
    return [judged, event("CardWon", player=player, card=state["round"]["card"]["card"])]


def _match_end(state: State) -> list[Event]:
    """MatchFinished once a player holds the target (standard game) or the deck is spent."""
    counts = totals(state)
    best = max(counts.values())
    reached = not state["options"]["full_deck"] and best >= state["options"]["target"]
    if not reached and len(state["revealed"]) < DECK_SIZE:
        return []
    # Equal counts share the win, also at zero: a deck nobody scored from is won by everyone.
    winners = [p for p in state["players"] if counts[p] == best]
    reason = "target" if reached else "deck_exhausted"
    return [event("MatchFinished", winners=winners, reason=reason, totals=counts)]


def _round_in_play(state: State) -> dict[str, Any]:
    round_ = state["round"]
    if round_ is None:
        fail("no_card_in_play", "no card is in play: reveal the next card first")
    return round_  # type: ignore[no-any-return]


def _check_card(state: State, number: int, colour: list[str], grey: list[str], starred: list[str]) -> None:
    """Refuse a card whose content cannot be printed on a card of this match."""
    for prop in colour:
        require(
            prop not in grey,
            "colour_and_grey",
            "the {prop} cannot be both in colour and in grey",
            prop=prop_name(prop),
        )
    require(bool(colour or grey), "empty_card", "card {number} must show at least one prop", number=number)
    for prop in starred:
        require(
            state["options"]["stars"] != "off",
            "stars_off",
            "card {number} shows a star on the {prop}, but this match plays without stars "
            "(options.stars is off)",
            number=number,
            prop=prop_name(prop),
        )
        require(
            prop in colour or prop in grey,
            "star_off_card",
            "the {prop} carries a star but is not on the card (neither in colour nor in grey)",
            prop=prop_name(prop),
        )


def _in_order(props: list[str]) -> list[str]:
    return [prop for prop in PROPS if prop in props]
