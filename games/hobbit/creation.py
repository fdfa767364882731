"""Creating a match of The Hobbit Card Game: the characters and the mark table the rules accept,
and the reading of a card or a mark as a table writes it."""

from __future__ import annotations

from typing import Any

from games.contract import N_, Event, event, fail, require
from games.hobbit.constants import CHARACTERS, DECK, DISCARD, MARKS, SIDES, canonical_card
from games.players import by_seat, name_key, require_everyone
from games.words import colour_card_words


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
        card = card_of(text)
        require(
            card not in table,
            "duplicate_card",
            "{card} appears twice in the mark table",
            card=colour_card_words(card),
        )
        table[card] = mark_of(mark)
    missing = [card for card in DECK if card not in table]
    require(
        not missing,
        "marks_incomplete",
        "the mark table misses {count} of the 60 cards, first {first}",
        count=len(missing),
        first=", ".join(missing[:3]),
    )
    return {card: table[card] for card in DECK}


def card_of(text: Any) -> str:
    """The card a text names, in canonical spelling, or RuleViolation for one that is no card."""
    card = canonical_card(text)
    if card is None:
        fail(
            "unknown_card",
            "'{text}' is not a card: colour red, yellow, green, blue or purple and number 1 to 12, "
            "written like purple-12",
            text=text,
        )
    return card


def mark_of(text: Any) -> str:
    """The mark a text names, in lower case, or RuleViolation for one that is no mark."""
    mark = str(text).strip().lower()
    require(
        mark in MARKS, "unknown_mark", "'{text}' is not a mark: {MARKS}", text=text, MARKS=", ".join(MARKS)
    )
    return mark
