"""Setting up a match of The Hobbit Card Game and deciding what each recorded action causes.

``decide`` dispatches each action type to one small function; the distribution of a won trick,
with everything it sets off, lives in ``games.hobbit.distribution``.
"""

from __future__ import annotations

from typing import Any

from games.contract import Action, Event, State, event, fail, require
from games.decider import Handler, decide_with
from games.hobbit.constants import (
    CHARACTERS,
    DECK,
    DISCARD,
    MARKS,
    SIDES,
    TITLE,
    TRUMP,
    canonical_card,
    colour,
    living,
    value,
)
from games.hobbit.distribution import distribute
from games.players import find_player as _seated
from games.players import name_key

# --- setup ---------------------------------------------------------------------------------------


def setup(players: list[str], setup: dict[str, Any], options: dict[str, Any]) -> list[Event]:
    """The match's first event, or RuleViolation for characters or marks the rules refuse."""
    players = list(players)
    for player in players:
        require(
            name_key(player) != DISCARD,
            "reserved_name",
            f"'{player}' cannot be a player's name: \"{DISCARD}\" means a discarded card",
        )
    chosen: dict[str, Any] = {"characters": _characters(players, setup.get("characters"))}
    if setup.get("marks") is not None:
        chosen["marks"] = _mark_table(setup["marks"])
    return [
        event(
            "MatchCreated",
            players=players,
            setup=chosen,
            options=options,
        )
    ]


def _characters(players: list[str], given: Any) -> dict[str, str]:
    require(isinstance(given, dict), "characters_required", "setup.characters is required")
    chosen: dict[str, str] = {}
    for name, character in given.items():
        player = _seated(players, name)
        require(player not in chosen, "duplicate_player", f"{player} has two characters")
        character = str(character).strip().lower()
        require(
            character in CHARACTERS,
            "unknown_character",
            f"'{character}' is not a character: choose from {', '.join(CHARACTERS)}",
        )
        holder = [p for p, c in chosen.items() if c == character]
        require(not holder, "character_taken", f"{character} is already {holder and holder[0]}'s")
        chosen[player] = character
    missing = [p for p in players if p not in chosen]
    require(not missing, "missing_player", f"no character for {', '.join(missing)}")
    for side in SIDES:
        require(
            any(CHARACTERS[c] == side for c in chosen.values()),
            "side_missing",
            f"at least one character must be {side}",
        )
    return {p: chosen[p] for p in players}


def _mark_table(given: Any) -> dict[str, str]:
    require(isinstance(given, dict), "invalid_marks", "setup.marks must map every card to a mark")
    table: dict[str, str] = {}
    for text, mark in given.items():
        card = _card(text)
        require(card not in table, "duplicate_card", f"{card} appears twice in the mark table")
        table[card] = _mark_value(mark)
    missing = [card for card in DECK if card not in table]
    require(
        not missing,
        "marks_incomplete",
        f"the mark table misses {len(missing)} of the 60 cards, first {', '.join(missing[:3])}",
    )
    return {card: table[card] for card in DECK}


# --- decide --------------------------------------------------------------------------------------


def decide(state: State, action: Action) -> list[Event]:
    """The events an action causes, or RuleViolation naming the rule it breaks."""
    return decide_with(HANDLERS, TITLE, state, action)


def _start_round(state: State, action: Action) -> list[Event]:
    require(
        state["phase"] == "round_start",
        "round_in_progress",
        f"round {state['round']} is still being played; start the next one after its last trick",
    )
    leader = _seated(state["players"], action["leader"])
    require(state["alive"][leader], "player_eliminated", f"{leader} is eliminated and cannot lead")
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
    for name, cards in given.items():
        player = _seated(state["players"], name)
        require(player in dealt, "player_eliminated", f"{player} is eliminated and is dealt no cards")
        require(player not in hands, "duplicate_player", f"{player}'s hand is given twice")
        hand = [_card(text) for text in cards]
        require(
            len(hand) == size,
            "wrong_hand_size",
            f"{player} holds {len(hand)} cards; each of {len(dealt)} players is dealt {size}",
        )
        for card in hand:
            other = holder.get(card)
            require(other is None, "duplicate_card", f"{card} is in {other}'s hand and {player}'s")
            holder[card] = player
        hands[player] = hand
    missing = [p for p in dealt if p not in hands]
    require(not missing, "missing_player", f"the hands miss {', '.join(missing)}")
    return {p: hands[p] for p in dealt}


def _play(state: State, action: Action) -> list[Event]:
    _require_playing(state)
    player = _seated(state["players"], action["player"])
    require(state["alive"][player], "player_eliminated", f"{player} is eliminated and cannot play")
    trick = state["trick"]
    turn = trick["order"][len(trick["plays"])]
    require(player == turn, "not_your_turn", f"it is {turn}'s turn to play, not {player}'s")
    card = _card(action["card"])
    require(card not in state["seen"], "card_already_played", f"{card} was played this round")
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
            f"{trick['winner']} won trick {trick['number']}: record its distribution first",
        )
    require(state["phase"] == "playing", "wrong_phase", "no round is being played: start_round first")


def _require_from_hand(state: State, player: str, card: str) -> None:
    hand = state["hands"][player]
    require(card in hand, "card_not_in_hand", f"{card} is not in {player}'s hand")
    led = state["trick"]["led"]
    if led is None or colour(card) == led:
        return
    follow = [c for c in hand if colour(c) == led]
    require(
        not follow,
        "must_follow_colour",
        f"{player} must follow {led} (holding {', '.join(follow)}), not play {card}",
    )


def _mark(state: State, card: str, given: Any) -> str:
    known = state["marks"].get(card)
    if given is None:
        require(
            known is not None,
            "mark_required",
            f"{card}'s mark is not known yet: send its mark ({', '.join(MARKS)})",
        )
        return str(known)
    mark = _mark_value(given)
    if known is not None and mark != known:
        if state["marks_fixed"]:
            fail("wrong_mark", f"{card} bears {known} in the mark table, not {mark}")
        fail("mark_changed", f"{card} showed {known} earlier in this match; it cannot show {mark}")
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


def _card(text: Any) -> str:
    card = canonical_card(text)
    if card is None:
        fail(
            "unknown_card",
            f"'{text}' is not a card: colour red, yellow, green, blue or purple "
            "and number 1 to 12, written like purple-12",
        )
    return card


def _mark_value(text: Any) -> str:
    mark = str(text).strip().lower()
    require(mark in MARKS, "unknown_mark", f"'{text}' is not a mark: {', '.join(MARKS)}")
    return mark
