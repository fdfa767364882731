"""Lists of words joined the way a person writes them, in the reader's language.

``and_words`` and ``or_words`` give a Message (English when turned into a string), so a refusal
that names several things is translated whole: "a, b and c", "a、b和c", "a、bとc"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.contract import N_, Message, words


def joined(words: Sequence[str], last: str) -> str:
    """``a, b <last> c``: every word once, the last two joined by ``last``."""
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def and_words(items: Sequence[Any]) -> Message:
    """``a, b and c``."""
    if len(items) < 2:
        return words("{item}", item=items[0] if items else "")
    return words("{items} and {last}", items=list(items[:-1]), last=items[-1])


def or_words(items: Sequence[Any]) -> Message:
    """``a, b or c``."""
    if len(items) < 2:
        return words("{item}", item=items[0] if items else "")
    return words("{items} or {last}", items=list(items[:-1]), last=items[-1])


# The colours the cards are written with (Hats' hat types, The Hobbit's colours), in words.
COLOUR_WORDS = {
    "red": N_("red"),
    "orange": N_("orange"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "purple": N_("purple"),
    "pink": N_("pink"),
}


def colour_words(colour: str) -> Message:
    """A colour in a sentence, in the reader's language: "red", 红, 赤."""
    return words(COLOUR_WORDS.get(colour, colour))


def colour_card_words(card: object) -> Message:
    """A card written colour-value, as the table says it: "red-4" is "red 4", 红 4, 赤 4."""
    colour, _, value = str(card).rpartition("-")
    return words("{colour} {value}", colour=colour_words(colour), value=value)
