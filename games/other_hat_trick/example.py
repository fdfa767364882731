"""The Other Hat Trick's example(seed): a complete, legal, finished match for tests and benchmarks.

The seed deals the props and shuffles the deck (the hidden truth the table never records), then
plays: how eagerly players turn new tricks, how often their swap takes what the trick needs (these
players cheat: they know where every prop is), how often they perform when they could, whether the
app spells names as given or in capitals, and whether a fail leaves out the slot when only one
is face down all vary with the seed. Matches end both ways: by The Other Hat Trick performed,
and by three failures of it in a row. One seed always gives the same match.
"""

from __future__ import annotations

from random import Random
from typing import Any

from games.contract import Action, Script
from games.other_hat_trick.constants import (
    FAILURES_TO_END,
    FINAL_TRICK,
    MIDDLE,
    MIDDLE_NAME,
    PLAYERS,
    PROP_SET,
    TRICK_IDS,
    place_of,
    satisfies,
)

_NAMES = ["ann", "bob", "cy", "dee", "eli", "fay", "gus", "hal", "ivy", "jo"]
_LONGEST = 60  # turns before players stop dawdling and turn every trick

# --- example ---------------------------------------------------------------------------------


def example(seed: int) -> Script:
    """A whole legal match, different for each seed and always the same for one seed."""
    rng = Random(seed)
    players = rng.sample(_NAMES, PLAYERS)
    deck = [trick for trick in TRICK_IDS if trick != FINAL_TRICK]
    rng.shuffle(deck)
    deck.append(FINAL_TRICK)
    props = list(PROP_SET)
    rng.shuffle(props)
    table: dict[str, Any] = {
        "players": players,
        "deck": deck,
        "pile": [deck[0]],
        "turned": 1,
        "props": props,
        "face_up": [False] * len(props),
        "turn": rng.randrange(PLAYERS),
        "turns": 0,
        "failures": 0,
        "ended": False,
        "turn_bias": rng.choice((0.15, 0.35, 0.6)),
        "perform_bias": rng.choice((0.5, 0.9, 1.0)),
        "sharpness": rng.choice((0.0, 0.5, 0.9)),
        "shout": rng.random() < 0.3,
        "terse": rng.random() < 0.5,
        "actions": [],
    }
    first = _spell(table, players[table["turn"]])
    while not table["ended"]:
        _play_turn(rng, table)
    table["actions"].append(_reveal(table))
    return {
        "players": players,
        "setup": {"first_player": first, "first_trick": deck[0]},
        "options": {},
        "actions": table["actions"],
    }


# --- private helpers -------------------------------------------------------------------------


def _play_turn(rng: Random, table: dict[str, Any]) -> None:
    seat, props = table["turn"], table["props"]
    table["turns"] += 1
    dawdled = table["turns"] > _LONGEST
    if table["turned"] < len(TRICK_IDS) and (dawdled or rng.random() < table["turn_bias"]):
        _turn_trick(table)
    trick = table["pile"][-1]
    _swap(rng, table, seat)
    mine = [props[place_of(seat, 0)], props[place_of(seat, 1)]]
    if satisfies(trick, mine) and rng.random() < table["perform_bias"]:
        _perform(rng, table, seat, trick, mine)
    else:
        _fail(rng, table, seat, trick)
    table["turn"] = (seat + 1) % PLAYERS


def _turn_trick(table: dict[str, Any]) -> None:
    trick = table["deck"][table["turned"]]
    table["turned"] += 1
    table["pile"].append(trick)
    table["actions"].append({"type": "turn_trick", "trick": trick})


def _swap(rng: Random, table: dict[str, Any], seat: int) -> None:
    choices = [
        (slot, other, with_slot)
        for slot in (0, 1)
        for other in range(PLAYERS)
        if other != seat
        for with_slot in (0, 1)
    ]
    useful = [c for c in choices if _would_satisfy(table, seat, *c)]
    slot, other, with_slot = rng.choice(useful if useful and rng.random() < table["sharpness"] else choices)
    a, b = place_of(seat, slot), place_of(other, with_slot)
    for key in ("props", "face_up"):
        table[key][a], table[key][b] = table[key][b], table[key][a]
    table["actions"].append(
        {
            "type": "swap",
            "player": _spell(table, table["players"][seat]),
            "slot": slot,
            "with_player": _spell(table, table["players"][other]),
            "with_slot": with_slot,
        }
    )


def _would_satisfy(table: dict[str, Any], seat: int, slot: int, other: int, with_slot: int) -> bool:
    """Whether this swap would leave the player holding what the top trick needs."""
    mine = [table["props"][place_of(seat, 0)], table["props"][place_of(seat, 1)]]
    mine[slot] = table["props"][place_of(other, with_slot)]
    return satisfies(table["pile"][-1], mine)


def _perform(rng: Random, table: dict[str, Any], seat: int, trick: str, mine: list[str]) -> None:
    name = _spell(table, table["players"][seat])
    table["actions"].append({"type": "perform", "player": name, "props": mine})
    table["pile"].pop()
    table["failures"] = 0
    places = [place_of(seat, 0), place_of(seat, 1), MIDDLE]
    gathered = [table["props"][place] for place in places]
    rng.shuffle(gathered)  # the sleight of hand: only the performer knows the new order
    for place, prop in zip(places, gathered, strict=True):
        table["props"][place] = prop
        table["face_up"][place] = False
    if trick == FINAL_TRICK:
        table["ended"] = True
    elif not table["pile"]:
        _turn_trick(table)


def _fail(rng: Random, table: dict[str, Any], seat: int, trick: str) -> None:
    action: Action = {"type": "fail", "player": _spell(table, table["players"][seat])}
    hidden = [slot for slot in (0, 1) if not table["face_up"][place_of(seat, slot)]]
    if hidden:
        slot = rng.choice(hidden)
        table["face_up"][place_of(seat, slot)] = True
        if not (table["terse"] and len(hidden) == 1):
            action["slot"] = slot
        action["prop"] = table["props"][place_of(seat, slot)]
    table["actions"].append(action)
    if trick == FINAL_TRICK:
        table["failures"] += 1
        table["ended"] = table["failures"] == FAILURES_TO_END


def _reveal(table: dict[str, Any]) -> Action:
    props = table["props"]
    revealed: dict[str, Any] = {
        _spell(table, name): [props[place_of(seat, 0)], props[place_of(seat, 1)]]
        for seat, name in enumerate(table["players"])
    }
    revealed[MIDDLE_NAME] = props[MIDDLE]
    return {"type": "reveal_all", "props": revealed}


def _spell(table: dict[str, Any], name: str) -> str:
    return name.upper() if table["shout"] else name
