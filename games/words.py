"""English for messages: lists of words joined the way a person writes them."""

from __future__ import annotations

from collections.abc import Sequence


def joined(words: Sequence[str], last: str) -> str:
    """``a, b <last> c``: every word once, the last two joined by ``last``."""
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def and_words(words: Sequence[str]) -> str:
    """``a, b and c``."""
    return joined(words, "and")


def or_words(words: Sequence[str]) -> str:
    """``a, b or c``."""
    return joined(words, "or")
