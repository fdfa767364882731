"""What a Hats table holds: the cards, the seats, and where each recorded card lies.

Shared by the rules (which check), the fold (which moves cards) and the scoring (which reads).
"""

from __future__ import annotations

from typing import Any

from games.contract import State, fail

# --- constants --------------------------------------------------------------------------------

TYPES = ["red", "orange", "yellow", "green", "blue", "purple", "pink"]
VALUES = [1, 2, 3, 4, 5, 6]
ALL_CARDS = [f"{kind}-{value}" for kind in TYPES for value in VALUES]
HAND_SIZE = 9
PLAYS_EACH = 8
COOKIE_POINTS = 5
REMOVED_WITH_TWO = 2


def table_size(players: int) -> int:
    """How many tea-table spaces are used: 5 with 2 players, else 6."""
    return 5 if players == 2 else 6


def card_count(players: int) -> int:
    """How many hat cards are in play: 30 with 2 players (two types removed), else 42."""
    return len(VALUES) * (len(TYPES) - (REMOVED_WITH_TWO if players == 2 else 0))


# --- cards ------------------------------------------------------------------------------------


def card_type(card: str) -> str:
    """The type of a canonical card: ``blue`` of ``blue-4``."""
    return card.rsplit("-", 1)[0]


def card_value(card: str) -> int:
    """The printed value of a canonical card: 4 of ``blue-4``."""
    return int(card.rsplit("-", 1)[1])


def canon_card(text: str) -> str:
    """The canonical spelling of a card written in any letter case, or RuleViolation."""
    card = text.strip().lower().replace(" ", "")
    if card not in ALL_CARDS:
        fail(
            "unknown_card",
            f"{text!r} is not a hat card: a card is written type-value, the types are "
            f"{', '.join(TYPES)} and the values 1 to 6 (e.g. 'blue-4')",
        )
    return card


def canon_type(text: str) -> str:
    """The canonical spelling of a hat type written in any letter case, or RuleViolation."""
    kind = text.strip().lower()
    if kind not in TYPES:
        fail("unknown_type", f"{text!r} is not a hat type: the types are {', '.join(TYPES)}")
    return kind


def maybe_card(text: Any) -> str | None:
    """The canonical card of an optional field (absent or null: not recorded)."""
    return None if text is None else canon_card(text)


# --- seats ------------------------------------------------------------------------------------


def next_player(state: State, player: str) -> str:
    """The player to the left (clockwise) of ``player``."""
    seats: list[str] = state["players"]
    return seats[(seats.index(player) + 1) % len(seats)]


def partner_of(state: State, player: str) -> str | None:
    """The partner sitting opposite, when the match is played in teams."""
    for team in state["teams"]:
        if player in team:
            return str(team[1] if team[0] == player else team[0])
    return None


# --- where a recorded card lies ---------------------------------------------------------------


def locate(state: State, card: str, *, skip_pile: bool = False) -> tuple[str, str] | None:
    """Where the recorded facts put ``card``, as (code, sentence); None when nobody knows."""
    kind = card_type(card)
    if kind in state["removed_types"]:
        return "card_removed", f"{card} is not in this game: the {kind} hats were removed"
    if card in state["table"]:
        space = state["table"].index(card) + 1
        return "card_on_table", f"{card} is on the tea table at space {space}"
    for player in state["players"]:
        found = _held_by(state, player, card)
        if found:
            return found
    if not skip_pile and card in state["pile"]["known"]:
        return "card_discarded", f"{card} lies face down on the discard pile"
    return None


def _held_by(state: State, player: str, card: str) -> tuple[str, str] | None:
    if card in state["collections"][player]:
        return "card_collected", f"{card} is face up in {player}'s collection"
    if card in state["black_hats"][player]:
        return "card_collected", f"{card} is one of {player}'s black hats"
    if state["favourites"][player] == card:
        return "card_revealed", f"{card} is {player}'s revealed favourite hat"
    if card in state["hands"][player]["known"]:
        return "card_in_hand", f"{card} is recorded in {player}'s hand"
    return None


def check_leaves_hand(state: State, player: str, card: str) -> None:
    """Refuse unless ``card`` may be in ``player``'s hand, given everything recorded."""
    hand = state["hands"][player]
    if card in hand["known"]:
        return
    found = locate(state, card)
    if found:
        fail(*found)
    if len(hand["known"]) >= hand["size"]:
        held = ", ".join(hand["known"]) or "no card"
        fail("card_not_in_hand", f"{card} is not in {player}'s hand: it holds {held}")


def check_from_deck(state: State, player: str, card: str, *, reshuffled: bool) -> None:
    """Refuse unless ``card`` may be drawn from the draw pile (after a reshuffle, if any)."""
    found = locate(state, card, skip_pile=reshuffled)
    if found:
        fail(found[0], f"{player} cannot draw {card}: {found[1]}")
