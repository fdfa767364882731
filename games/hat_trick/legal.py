"""What Hat Trick lets the table record now: the next card's reveal (its number and what it
shows), each player's declaration with the stack they built (every placement a stack may use),
the table's verdict on the first declaration waiting without a stack, and abandoning the round.
Nothing of this game is hidden, so the answer is the same with the match's token or without."""

from __future__ import annotations

from typing import Any

from games.contract import State, words
from games.hat_trick.constants import CONTAINERS, DECK_SIZE, PROPS, SIZE, TABLE
from games.legal import Answer, Entry, answer, described, entry, listed

# --- constants -------------------------------------------------------------------------------

# Every placement a stack may hold: on the table, on another prop, or in a larger container.
PLACEMENTS: list[dict[str, Any]] = [
    {"prop": prop, **where}
    for prop in PROPS
    for where in [
        {"on": TABLE},
        *({"on": other} for other in PROPS if other != prop),
        *({"in": c} for c in CONTAINERS if SIZE[prop] < SIZE[c]),
    ]
]

# --- legal -----------------------------------------------------------------------------------


def legal(state: State, sees_hidden: bool) -> Answer:
    """Every action the rules allow now (``sees_hidden`` changes nothing: nothing is hidden)."""
    if state.get("finished"):
        return answer(state, [], [])
    round_ = state["round"]
    if round_ is None:
        return answer(state, [], [_reveal(state)])
    waiting = [e["player"] for e in round_["queue"]]
    declaring = [p for p in state["players"] if p not in round_["out"] and p not in waiting]
    actions = [_declare(player) for player in declaring]
    first = round_["queue"][0] if round_["queue"] else None
    if first is not None and first["stack"] is None:
        actions.append(_judge(first["player"]))
    actions.append(entry("abandon_round", [], note=words("the card is discarded, scoring for nobody")))
    to_act = [p for p in state["players"] if p in declaring or (first and p == first["player"])]
    return answer(state, to_act, actions)


# --- actions ---------------------------------------------------------------------------------


def _reveal(state: State) -> Entry:
    cards = [n for n in range(1, DECK_SIZE + 1) if n not in state["revealed"]]
    fields = [
        listed("card", cards),
        listed("colour", PROPS, optional=True, multiple=True, min=0, max=len(PROPS)),
        listed("grey", PROPS, optional=True, multiple=True, min=0, max=len(PROPS)),
    ]
    note = words("colour and grey share no prop and together show at least one")
    starred = state["options"]["stars"] != "off"
    if starred:
        fields.append(listed("starred", PROPS, optional=True, multiple=True, min=0, max=len(PROPS)))
        note = words(
            "colour and grey share no prop and together show at least one; a starred prop is one of them"
        )
    found = entry("reveal", fields, note=note)
    # The same bonds as data, so a recorder can hold Send back until the card is one that exists.
    found["together"] = {"fields": ["colour", "grey"], "min": 1}
    if starred:
        found["within"] = {"fields": ["starred"], "of": ["colour", "grey"]}
    return found


def _declare(player: str) -> Entry:
    stack = listed("stack", PLACEMENTS, optional=True, multiple=True, min=1, max=len(PROPS))
    note = words(
        "without a stack the table judges; a stack has one placement per prop used, exactly one "
        "on the table, and no prop resting in or on itself"
    )
    found = entry("declare", [stack], player=player, note=note)
    # The same as data: the placements form one stack, built from the table up.
    found["stack"] = {"field": "stack", "node": "prop", "under": ["on", "in"], "root": TABLE}
    return found


def _judge(player: str) -> Entry:
    reason = described("reason", {"type": "string", "maxLength": 500}, optional=True)
    return entry("judge", [listed("verdict", ["pass", "fail"]), reason], player=player)
