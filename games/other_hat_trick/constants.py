"""The Other Hat Trick as data: the seven props, the ten tricks, the places, the phases."""

from __future__ import annotations

from typing import Any

from games.contract import N_, Message, words
from games.words import and_words, or_words

State = dict[str, Any]

GAME_ID = "other-hat-trick"
TITLE = "The Other Hat Trick"
PLAYERS = MIN_PLAYERS = MAX_PLAYERS = 3

# --- props -----------------------------------------------------------------------------------

PROPS = ("rabbit", "other-rabbit", "hat", "lettuce", "carrot")
PROP_COUNTS = {"rabbit": 1, "other-rabbit": 1, "hat": 1, "lettuce": 1, "carrot": 3}
PROP_SET = tuple(prop for prop in PROPS for _ in range(PROP_COUNTS[prop]))
# One letter per prop: an arrangement of the seven places is a 7-letter string.
LETTER = {"rabbit": "R", "other-rabbit": "O", "hat": "H", "lettuce": "L", "carrot": "C"}
PROP_OF = {letter: prop for prop, letter in LETTER.items()}
PROP_WORDS = {
    "rabbit": N_("the rabbit"),
    "other-rabbit": N_("the other rabbit"),
    "hat": N_("the hat"),
    "lettuce": N_("the lettuce"),
    "carrot": N_("a carrot"),
}
COUNT_WORDS = {1: N_("one"), 2: N_("two"), 3: N_("three")}

# --- tricks ----------------------------------------------------------------------------------

RABBITS = ["rabbit", "other-rabbit"]
VEGETABLES = ["carrot", "lettuce"]

# id -> (title, points, the two props needed: each a list of the props that will do).
TRICKS: dict[str, tuple[str, int, tuple[list[str], list[str]]]] = {
    "hungry-rabbit": (N_("The Hungry Rabbit"), 1, (RABBITS, VEGETABLES)),
    "bunch-of-carrots": (N_("The Bunch of Carrots"), 2, (["carrot"], ["carrot"])),
    "vegetable-patch": (N_("The Vegetable Patch"), 3, (["carrot"], ["lettuce"])),
    "rabbit-that-didnt-like-carrots": (
        N_("The Rabbit That Didn't Like Carrots"),
        4,
        (RABBITS, ["lettuce"]),
    ),
    "pair-of-rabbits": (N_("The Pair of Rabbits"), 5, (["rabbit"], ["other-rabbit"])),
    "vegetable-hat-trick": (N_("The Vegetable Hat Trick"), 2, (["hat"], VEGETABLES)),
    "carrot-hat-trick": (N_("The Carrot Hat Trick"), 3, (["hat"], ["carrot"])),
    "slightly-easier-hat-trick": (N_("The Slightly Easier Hat Trick"), 4, (["hat"], RABBITS)),
    "hat-trick": (N_("The Hat Trick"), 5, (["hat"], ["rabbit"])),
    "other-hat-trick": (N_("The Other Hat Trick"), 6, (["hat"], ["other-rabbit"])),
}
TRICK_IDS = list(TRICKS)
FINAL_TRICK = "other-hat-trick"
FAILURES_TO_END = 3
PENALTY = 3
PENALISED_PROPS = ("hat", "other-rabbit")

# --- places and phases -----------------------------------------------------------------------

# Places 0..5 are the players' slots (seat * 2 + slot); place 6 is the middle.
MIDDLE = 6
MIDDLE_NAME = "middle"
PLACES = 7

CHOOSE = "choose"  # the player may turn the next trick, or swap to attempt the top one
SWAP = "swap"  # a trick was turned: the player must swap
PERFORM = "perform"  # swapped: the player must perform or fail
REFILL = "refill"  # the pile is empty after a perform: the next trick must be turned
REVEAL = "reveal"  # the match has ended: everyone reveals everything
FINISHED = "finished"

# What the player whose turn it is must do next, by phase (for messages that refuse an action).
NEXT_STEP = {
    CHOOSE: N_("choose: turn the next trick or swap to attempt the top one"),
    SWAP: N_("swap one of their props with another player's"),
    PERFORM: N_("perform or fail"),
    REFILL: N_("turn the next trick onto the empty pile"),
}


def trick_title(trick: str) -> str:
    """The printed name of a trick."""
    return TRICKS[trick][0]


def trick_points(trick: str) -> int:
    """The points a trick is worth."""
    return TRICKS[trick][1]


def satisfies(trick: str, props: list[str]) -> bool:
    """Whether two props, in either order, are what the trick needs."""
    first, second = TRICKS[trick][2]
    a, b = props
    return (a in first and b in second) or (a in second and b in first)


def needs_words(trick: str) -> Message:
    """What a trick needs, in words: 'the hat and the rabbit or the other rabbit'."""
    return and_words([_either_words(options) for options in TRICKS[trick][2]])


def prop_words(prop: str) -> Message:
    """A prop in a sentence: 'the hat', 'a carrot'."""
    return words(PROP_WORDS[prop])


def place_of(seat: int, slot: int) -> int:
    """The place number of a player's slot."""
    return seat * 2 + slot


def place_label(players: list[str], place: int) -> str:
    """A place in a sentence: 'slot 1 of bob', 'the middle' (English, as the state keeps it)."""
    return str(place_words(players, place))


def place_words(players: list[str], place: int) -> Message:
    """A place in a refusal's sentence, translated with it."""
    if place == MIDDLE:
        return words("the middle")
    return words("slot {slot} of {player}", slot=place % 2, player=players[place // 2])


def _either_words(options: list[str]) -> Message:
    return or_words([prop_words(prop) for prop in options])
