"""Where a recorded Hats card lies, and the refusals of a card that cannot be where it is played.

Hidden cards are optional facts: a card is refused only when the record puts it somewhere else.
"""

from __future__ import annotations

from typing import Any

from games.contract import Message, State, fail, words
from games.hats.constants import card_type
from games.words import colour_card_words, colour_words

# --- where a recorded card lies ---------------------------------------------------------------


def locate(
    state: State, card: str, *, skip_pile: bool = False, holder: str | None = None
) -> tuple[str, Message] | None:
    """Where the recorded facts put ``card``, as (code, sentence); None when nobody knows.
    ``holder``'s hand is left out: the question is whether the card is anywhere else."""
    kind = card_type(card)
    if kind in state["removed_types"]:
        return "card_removed", words(
            "{card} is not in this game: the {kind} hats were removed",
            card=colour_card_words(card),
            kind=colour_words(kind),
        )
    if card in state["table"]:
        space = state["table"].index(card) + 1
        return "card_on_table", words(
            "{card} is on the tea table at space {space}", card=colour_card_words(card), space=space
        )
    for player in state["players"]:
        found = _held_by(state, player, card, in_hand=player != holder)
        if found:
            return found
    if not skip_pile and card in state["pile"]["known"]:
        return "card_discarded", words(
            "{card} lies face down on the discard pile", card=colour_card_words(card)
        )
    return None


def _held_by(state: State, player: str, card: str, *, in_hand: bool) -> tuple[str, Message] | None:
    if card in state["collections"][player]:
        return "card_collected", words(
            "{card} is face up in {player}'s collection", card=colour_card_words(card), player=player
        )
    if card in state["black_hats"][player]:
        return "card_collected", words(
            "{card} is one of {player}'s black hats", card=colour_card_words(card), player=player
        )
    if state["favourites"][player] == card:
        return "card_revealed", words(
            "{card} is {player}'s revealed favourite hat", card=colour_card_words(card), player=player
        )
    hand = state["hands"][player]
    if not in_hand or card not in hand["known"]:
        return None
    if surely_held(hand):
        return "card_in_hand", words(
            "{card} is recorded in {player}'s hand", card=colour_card_words(card), player=player
        )
    if not hand.get("loose"):
        # Only black hats took cards away unnamed: the card is in the hand or face down among them.
        return "card_in_hand", words(
            "{card} is recorded in {player}'s hand: it is still there, or it is one of the black "
            "hats {player} made without naming the card",
            card=colour_card_words(card),
            player=player,
        )
    return None


def surely_held(hand: dict[str, Any]) -> bool:
    """Whether every recorded card of ``hand`` is still in it (no unnamed card took one away)."""
    return len(hand["known"]) + hand["unknown"] == hand["size"]


def check_leaves_hand(state: State, player: str, card: str) -> None:
    """Refuse unless ``card`` may be in ``player``'s hand, given everything recorded."""
    hand = state["hands"][player]
    found = locate(state, card, holder=player)
    if found:
        fail(*found)
    if card not in hand["known"] and hand["unknown"] == 0:
        fail(
            "card_not_in_hand",
            "{card} is not in {player}'s hand: {holding}",
            card=colour_card_words(card),
            player=player,
            holding=_holding(hand),
        )


def _holding(hand: dict[str, Any]) -> Message:
    held = [colour_card_words(card) for card in hand["known"]] or words("no card")
    if surely_held(hand):
        return words("it holds {held}", held=held)
    return words("its {size} cards are among {held}, as recorded", size=hand["size"], held=held)


def check_from_deck(state: State, player: str, card: str, *, reshuffled: bool) -> None:
    """Refuse unless ``card`` may be drawn from the draw pile (after a reshuffle, if any)."""
    found = locate(state, card, skip_pile=reshuffled)
    if found:
        fail(
            found[0],
            "{player} cannot draw {card}: {reason}",
            player=player,
            card=colour_card_words(card),
            reason=found[1],
        )
