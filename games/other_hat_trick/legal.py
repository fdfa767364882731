"""What The Other Hat Trick lets the table record now: the choice between the trick on top and
the next one from the deck, the swap (one's own slot for another player's), the props a perform
may show and what a fail may turn face up (both from what the table knows of every prop), and
the final reveal (every arrangement still possible). Nothing of this game is hidden from the
table, so the answer is the same with the match's token or without."""

from __future__ import annotations

from itertools import product
from typing import Any

from games.contract import State, words
from games.legal import Answer, Entry, accepted, answer, entry, listed
from games.other_hat_trick.constants import (
    CHOOSE,
    MIDDLE,
    MIDDLE_NAME,
    PERFORM,
    PROP_OF,
    PROPS,
    REFILL,
    REVEAL,
    SWAP,
    TRICK_IDS,
    needs_words,
)
from games.other_hat_trick.rules import decide
from games.other_hat_trick.turns import to_act

# --- constants -------------------------------------------------------------------------------

# Beyond this many arrangements still possible the reveal lists each place's props and says the
# rule in words instead of every arrangement (at most 840).
MOST_CHOICES = 200

# --- legal -----------------------------------------------------------------------------------


def legal(state: State, sees_hidden: bool) -> Answer:
    """Every action the rules allow now (``sees_hidden`` changes nothing: nothing is hidden)."""
    if state.get("finished"):
        return answer(state, [], [])
    phase, player = state["phase"], state["turn"]
    actions: list[Entry] = []
    if phase in (CHOOSE, REFILL):
        actions.append(_turn_trick(state))
    if phase in (CHOOSE, SWAP):
        actions.append(_swap(state, player))
    if phase == PERFORM:
        actions += [_perform(state, player), _fail(state, player)]
    if phase == REVEAL:
        actions.append(_reveal_all(state))
    return answer(state, to_act(state), actions)


# --- actions ---------------------------------------------------------------------------------


def _turn_trick(state: State) -> Entry:
    tricks = [t for t in TRICK_IDS if _takes(state, {"type": "turn_trick", "trick": t})]
    return entry("turn_trick", [listed("trick", tricks)])


def _swap(state: State, player: str) -> Entry:
    others = [p for p in state["players"] if p != player]
    choices = [
        {"slot": slot, "with_player": other, "with_slot": with_slot}
        for slot, other, with_slot in product((0, 1), others, (0, 1))
    ]
    fields = [listed("slot", [0, 1]), listed("with_player", others), listed("with_slot", [0, 1])]
    return entry("swap", fields, player=player, choices=choices)


def _perform(state: State, player: str) -> Entry:
    """The props a perform may show (none: what is known of the player's props cannot do it)."""
    pairs = [
        [a, b]
        for a, b in product(PROPS, PROPS)
        if _takes(state, {"type": "perform", "player": player, "props": [a, b]})
    ]
    note = words("the trick needs {needs}", needs=needs_words(state["pile"][-1]))
    return entry("perform", [listed("props", pairs)], player=player, note=note)


def _fail(state: State, player: str) -> Entry:
    base = {"type": "fail", "player": player}
    if _takes(state, base):
        return entry("fail", [], player=player)
    choices = [
        {"slot": slot, "prop": prop}
        for slot, prop in product((0, 1), PROPS)
        if _takes(state, base | {"slot": slot, "prop": prop})
    ]
    fields = [listed("slot", [0, 1]), listed("prop", list(PROPS))]
    return entry("fail", fields, player=player, choices=choices, note=words("the prop turned face up"))


def _reveal_all(state: State) -> Entry:
    players = state["players"]
    arrangements = [_arrangement(players, world) for world in state["worlds"]]
    names = [f"props.{p}" for p in players] + [f"props.{MIDDLE_NAME}"]
    fields = [listed(name, _distinct(a[name] for a in arrangements)) for name in names]
    note = words("every prop once: one rabbit, one other rabbit, one hat, one lettuce and three carrots")
    if len(arrangements) > MOST_CHOICES:
        return entry("reveal_all", fields, note=note)
    return entry("reveal_all", fields, choices=arrangements, note=note)


# --- private helpers -------------------------------------------------------------------------


def _arrangement(players: list[str], world: str) -> dict[str, Any]:
    """An arrangement (one letter per place) as the reveal's fields."""
    found: dict[str, Any] = {
        f"props.{p}": [PROP_OF[world[2 * seat]], PROP_OF[world[2 * seat + 1]]]
        for seat, p in enumerate(players)
    }
    found[f"props.{MIDDLE_NAME}"] = PROP_OF[world[MIDDLE]]
    return found


def _distinct(values: Any) -> list[Any]:
    found: list[Any] = []
    for value in values:
        if value not in found:
            found.append(value)
    return found


def _takes(state: State, action: dict[str, Any]) -> bool:
    return accepted(decide, state, action)
