"""Seats: what a player's name is, and the player a name in an action means, the same way in
every game and in statistics.

One person, however the name is typed: names are stored in NFC (``Zoë`` typed with a combining
diaeresis is stored as the one letter) and compared by ``name_key``, NFKC with case folding, so
``ann``, ``ANN`` and full-width ``ａｎｎ`` are one name. Invisible and text-direction control
characters are refused: two names that look the same must be the same name.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from games.contract import Message, fail, require, words

# Zero-width characters and bidirectional controls: a name holding one looks like another name.
_INVISIBLE = frozenset(
    [0x061C, 0x180E, 0xFEFF, *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065)]
    + list(range(0x2066, 0x206A))
)


def seat_name(name: str) -> str:
    """A name as a seat stores it: stripped, in NFC."""
    return unicodedata.normalize("NFC", name.strip())


def name_key(name: str) -> str:
    """What two names must share to be one person: NFKC with case folding (of the stripped name)."""
    folded = unicodedata.normalize("NFKC", name.strip()).casefold()
    return unicodedata.normalize("NFKC", folded)


def invisible_in(name: str) -> Message | None:
    """A sentence naming the first invisible or text-direction control character of ``name``."""
    for at, char in enumerate(name, start=1):
        if ord(char) in _INVISIBLE:
            what = unicodedata.name(char, "a control character").lower()
            return words(
                "the name {name!r} holds U+{code:04X} ({what}) at character {at}: a name may "
                "not hold invisible or text-direction control characters, so type it without them",
                name=name,
                code=ord(char),
                what=what,
                at=at,
            )
    return None


def match_player(players: list[str], name: Any) -> str | None:
    """The seated player ``name`` means: an exact match, else the only one with the same
    ``name_key`` (another case, width or Unicode form of the same name)."""
    if not isinstance(name, str):
        return None
    if name in players:
        return name
    key = name_key(name)
    same = [p for p in players if name_key(p) == key]
    return same[0] if len(same) == 1 else None


def find_player(players: list[str], name: Any) -> str:
    """The seated player ``name`` means, or a RuleViolation naming the players there are."""
    player = match_player(players, name)
    if player is None:
        fail(
            "unknown_player",
            "{name!r} is not a player of this match; the players are: {players}",
            name=name,
            players=players,
        )
    return player


def seats_from(players: list[str], first: str) -> list[str]:
    """Every player once, clockwise (seat order), starting with ``first``."""
    at = players.index(first)
    return players[at:] + players[:at]


def left_of(players: list[str], player: str, steps: int = 1) -> str:
    """The player ``steps`` seats clockwise after ``player`` (1: the one to the left)."""
    return players[(players.index(player) + steps) % len(players)]


def by_seat(
    players: list[str], given: Mapping[str, Any], twice: str, /, **values: Any
) -> Iterator[tuple[str, Any]]:
    """Each ``(player, value)`` of a ``{name: value}`` object, the name read as the seated player it
    means; a player named twice (two spellings of one name) is refused (``duplicate_player``) with
    the sentence ``twice``, filled with ``player`` and ``values``."""
    named: set[str] = set()
    for name, value in given.items():
        player = find_player(players, name)
        require(player not in named, "duplicate_player", twice, player=player, **values)
        named.add(player)
        yield player, value


def require_everyone(players: list[str], given: Iterable[str], message: str, /, **values: Any) -> None:
    """Refuse (``missing_player``) unless every one of ``players`` is among ``given``: ``message``
    names them as ``{missing}``, filled in with ``values``."""
    named = set(given)
    missing = [p for p in players if p not in named]
    require(not missing, "missing_player", message, missing=", ".join(missing), **values)


def require_turn(player: str, due: str, message: str, /, **values: Any) -> None:
    """Refuse (``not_your_turn``) unless ``player`` is the one due to act: ``message`` says who is."""
    require(player == due, "not_your_turn", message, **values)
