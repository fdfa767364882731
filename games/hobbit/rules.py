"""Deciding what each recorded action of The Hobbit Card Game causes.

``decide`` dispatches each action type to one small function; the distribution of a won trick,
with everything it sets off, lives in ``games.hobbit.distribution``, and the setup checks in
``games.hobbit.creation`` (``setup`` is found here, as in every game's rules).
"""

from __future__ import annotations

from typing import Any

from games.contract import N_, Action, Event, Message, State, event, fail, require, words
from games.decider import Handler, decide_with
from games.hobbit.constants import DECK, MARK_WORDS, MARKS, TITLE, TRUMP, colour, living, value
from games.hobbit.creation import card_of, mark_of, setup
from games.hobbit.distribution import distribute
from games.players import by_seat, require_everyone, require_turn
from games.players import find_player as _seated
from games.words import colour_card_words, colour_words

__all__ = ["decide", "setup"]

# --- decide --------------------------------------------------------------------------------------


def decide(state: State, action: Action) -> list[Event]:
    """The events an action causes, or RuleViolation naming the rule it breaks."""
    return decide_with(HANDLERS, TITLE, state, action)


def _start_round(state: State, action: Action) -> list[Event]:
    require(
        state["phase"] == "round_start",
        "round_in_progress",
        "round {round} is still being played; start the next one after its last trick",
        round=state["round"],
    )
    leader = _seated(state["players"], action["leader"])
    require(
        state["alive"][leader], "player_eliminated", "{leader} is eliminated and cannot lead", leader=leader
    )
    dealt = living(state)
    hand_size = len(DECK) // len(dealt)
    hands = action.get("hands")
    return [
        event(
            "RoundStarted",
            round=state["round"] + 1,
            leader=leader,
            dealt=dealt,
            hand_size=hand_size,
            hands=None if hands is None else _hands(state, hands, dealt, hand_size),
        )
    ]


def _hands(state: State, given: dict[str, Any], dealt: list[str], size: int) -> dict[str, list]:
    hands: dict[str, list[str]] = {}
    holder: dict[str, str] = {}
    for player, cards in by_seat(state["players"], given, N_("{player}'s hand is given twice")):
        require(
            player in dealt,
            "player_eliminated",
            "{player} is eliminated and is dealt no cards",
            player=player,
        )
        hand = [card_of(text) for text in cards]
        require(
            len(hand) == size,
            "wrong_hand_size",
            "{player} holds {count} cards; each of {count2} players is dealt {size}",
            player=player,
            count=len(hand),
            count2=len(dealt),
            size=size,
        )
        for card in hand:
            other = holder.get(card)
            require(
                other is None,
                "duplicate_card",
                "{card} is in {other}'s hand and {player}'s",
                card=colour_card_words(card),
                other=other,
                player=player,
            )
            holder[card] = player
        hands[player] = hand
    require_everyone(dealt, hands, N_("the hands miss {missing}"))
    return {p: hands[p] for p in dealt}


def _play(state: State, action: Action) -> list[Event]:
    _require_playing(state)
    player = _seated(state["players"], action["player"])
    require(
        state["alive"][player], "player_eliminated", "{player} is eliminated and cannot play", player=player
    )
    trick = state["trick"]
    turn = trick["order"][len(trick["plays"])]
    require_turn(player, turn, N_("it is {turn}'s turn to play, not {player}'s"), turn=turn, player=player)
    card = card_of(action["card"])
    require(
        card not in state["seen"],
        "card_already_played",
        "{card} was played this round",
        card=colour_card_words(card),
    )
    if state["hands"] is not None:
        _require_from_hand(state, player, card)
    mark = _mark(state, card, action.get("mark"))
    played = event(
        "CardPlayed", round=state["round"], trick=trick["number"], player=player, card=card, mark=mark
    )
    return [played, *_revoke_found(state, player, card), *_trick_won(state, player, card)]


def _trick_won(state: State, player: str, card: str) -> list[Event]:
    trick = state["trick"]
    plays = [*trick["plays"], {"player": player, "card": card}]
    if len(plays) < len(trick["order"]):
        return []
    best = _winner(plays)
    cards = [p["card"] for p in plays]
    return [
        event(
            "TrickWon",
            round=state["round"],
            trick=trick["number"],
            player=best["player"],
            card=best["card"],
            cards=cards,
        )
    ]


def _require_playing(state: State) -> None:
    if state["phase"] == "distributing":
        trick = state["trick"]
        fail(
            "distribution_pending",
            "{winner} won trick {number}: record its distribution first",
            winner=trick["winner"],
            number=trick["number"],
        )
    require(state["phase"] == "playing", "wrong_phase", "no round is being played: start_round first")


def _require_from_hand(state: State, player: str, card: str) -> None:
    hand = state["hands"][player]
    require(
        card in hand,
        "card_not_in_hand",
        "{card} is not in {player}'s hand",
        card=colour_card_words(card),
        player=player,
    )
    led = state["trick"]["led"]
    if led is None or colour(card) == led:
        return
    follow = [c for c in hand if colour(c) == led]
    require(
        not follow,
        "must_follow_colour",
        "{player} must follow {led} (holding {follow}), not play {card}",
        player=player,
        led=colour_words(led),
        follow=[colour_card_words(c) for c in follow],
        card=colour_card_words(card),
    )


def _mark(state: State, card: str, given: Any) -> str:
    known = state["marks"].get(card)
    if given is None:
        require(
            known is not None,
            "mark_required",
            "{card}'s mark is not known yet: send its mark ({MARKS})",
            card=colour_card_words(card),
            MARKS=", ".join(MARKS),
        )
        return str(known)
    mark = mark_of(given)
    if known is not None and mark != known:
        if state["marks_fixed"]:
            fail(
                "wrong_mark",
                "{card} bears {known} in the mark table, not {mark}",
                card=colour_card_words(card),
                known=_mark_words(known),
                mark=_mark_words(mark),
            )
        fail(
            "mark_changed",
            "{card} showed {known} earlier in this match; it cannot show {mark}",
            card=colour_card_words(card),
            known=_mark_words(known),
            mark=_mark_words(mark),
        )
    return mark


def _revoke_found(state: State, player: str, card: str) -> list[Event]:
    trick = state["void"].get(player, {}).get(colour(card))
    if state["hands"] is not None or trick is None:
        return []
    message = (
        f"{player} plays {card} in trick {state['trick']['number']} of round "
        f"{state['round']} but did not follow {colour(card)} in trick {trick}: a revoke"
    )
    dispute = {
        "code": "revoke",
        "message": message,
        "player": player,
        "card": card,
        "colour": colour(card),
        "round": state["round"],
        "trick": trick,
    }
    return [event("DisputeRaised", dispute=dispute)]


HANDLERS: dict[str, Handler] = {
    "start_round": _start_round,
    "play": _play,
    "distribute": distribute,
}

# --- private helpers -----------------------------------------------------------------------------


def _winner(plays: list[dict[str, str]]) -> dict[str, str]:
    trumps = [p for p in plays if colour(p["card"]) == TRUMP]
    led = colour(plays[0]["card"])
    rivals = trumps or [p for p in plays if colour(p["card"]) == led]
    return max(rivals, key=lambda p: value(p["card"]))


def _mark_words(mark: str) -> Message:
    """A mark in a refusal's sentence, in the reader's language: "dark", 闇."""
    return words(MARK_WORDS.get(mark, mark))
