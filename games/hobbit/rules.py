"""Setting up a match of The Hobbit Card Game and deciding what each recorded action causes.

``decide`` dispatches each action type to one small function; the distribution of a won trick,
with everything it sets off, lives in ``games.hobbit.distribution``.
"""

from __future__ import annotations

from typing import Any

from games.contract import N_, Action, Event, State, event, fail, require
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
from games.players import by_seat, name_key, require_everyone, require_turn
from games.players import find_player as _seated

# --- setup ---------------------------------------------------------------------------------------


def setup(players: list[str], setup: dict[str, Any], options: dict[str, Any]) -> list[Event]:
    """The match's first event, or RuleViolation for characters or marks the rules refuse."""
    players = list(players)
    for player in players:
        require(
            name_key(player) != DISCARD,
            "reserved_name",
            "'{player}' cannot be a player's name: \"{DISCARD}\" means a discarded card",
            player=player,
            DISCARD=DISCARD,
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
    for player, character in by_seat(players, given, N_("{player} has two characters")):
        character = str(character).strip().lower()
        require(
            character in CHARACTERS,
            "unknown_character",
            "'{character}' is not a character: choose from {CHARACTERS}",
            character=character,
            CHARACTERS=", ".join(CHARACTERS),
        )
        holder = [p for p, c in chosen.items() if c == character]
        require(
            not holder,
            "character_taken",
            "{character} is already {holder}'s",
            character=character,
            holder=holder and holder[0],
        )
        chosen[player] = character
    require_everyone(players, chosen, N_("no character for {missing}"))
    for side in SIDES:
        require(
            any(CHARACTERS[c] == side for c in chosen.values()),
            "side_missing",
            "at least one character must be {side}",
            side=side,
        )
    return {p: chosen[p] for p in players}


def _mark_table(given: Any) -> dict[str, str]:
    require(isinstance(given, dict), "invalid_marks", "setup.marks must map every card to a mark")
    table: dict[str, str] = {}
    for text, mark in given.items():
        card = _card(text)
        require(card not in table, "duplicate_card", "{card} appears twice in the mark table", card=card)
        table[card] = _mark_value(mark)
    missing = [card for card in DECK if card not in table]
    require(
        not missing,
        "marks_incomplete",
        "the mark table misses {count} of the 60 cards, first {first}",
        count=len(missing),
        first=", ".join(missing[:3]),
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
        hand = [_card(text) for text in cards]
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
                card=card,
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
    card = _card(action["card"])
    require(card not in state["seen"], "card_already_played", "{card} was played this round", card=card)
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
    require(card in hand, "card_not_in_hand", "{card} is not in {player}'s hand", card=card, player=player)
    led = state["trick"]["led"]
    if led is None or colour(card) == led:
        return
    follow = [c for c in hand if colour(c) == led]
    require(
        not follow,
        "must_follow_colour",
        "{player} must follow {led} (holding {follow}), not play {card}",
        player=player,
        led=led,
        follow=", ".join(follow),
        card=card,
    )


def _mark(state: State, card: str, given: Any) -> str:
    known = state["marks"].get(card)
    if given is None:
        require(
            known is not None,
            "mark_required",
            "{card}'s mark is not known yet: send its mark ({MARKS})",
            card=card,
            MARKS=", ".join(MARKS),
        )
        return str(known)
    mark = _mark_value(given)
    if known is not None and mark != known:
        if state["marks_fixed"]:
            fail(
                "wrong_mark",
                "{card} bears {known} in the mark table, not {mark}",
                card=card,
                known=known,
                mark=mark,
            )
        fail(
            "mark_changed",
            "{card} showed {known} earlier in this match; it cannot show {mark}",
            card=card,
            known=known,
            mark=mark,
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


def _card(text: Any) -> str:
    card = canonical_card(text)
    if card is None:
        fail(
            "unknown_card",
            "'{text}' is not a card: colour red, yellow, green, blue or purple and number 1 to 12, "
            "written like purple-12",
            text=text,
        )
    return card


def _mark_value(text: Any) -> str:
    mark = str(text).strip().lower()
    require(
        mark in MARKS, "unknown_mark", "'{text}' is not a mark: {MARKS}", text=text, MARKS=", ".join(MARKS)
    )
    return mark
