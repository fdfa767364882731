"""Hat Trick example matches: complete, legal, finished scripts built from one random seed.

Test support. Each seed varies the player count, the options (target, full_deck, stars) and the
recording style (stacks judged by tabletape, verdicts given by the table, queued declarations,
abandoned rounds), and always gives the same script.
"""

from __future__ import annotations

import random
from typing import Any

from games.contract import Action, Script, State
from games.hat_trick.constants import CONTAINERS, DECK_SIZE, PROPS, SIZE, TABLE
from games.hat_trick.evolve import evolve
from games.hat_trick.rules import decide, setup
from games.hat_trick.schemas import OPTIONS
from games.hat_trick.stacks import (
    Placement,
    held_props,
    hidden_props,
    judge_stack,
)
from games.validation import with_defaults

# --- constants -------------------------------------------------------------------------------

NAMES = ("ann", "bob", "cy", "dee")
STYLES = ("stacks", "table", "mixed")


# --- example ---------------------------------------------------------------------------------


def example(seed: int) -> Script:
    """A complete legal finished match, different for different seeds, the same for one."""
    rng = random.Random(seed)
    players = list(NAMES[: rng.randint(2, 4)])
    options: dict[str, Any] = {"stars": rng.choice(("off", "contain", "empty"))}
    if rng.random() < 0.15:
        options["full_deck"] = True
    elif rng.random() < 0.8:
        options["target"] = rng.randint(1, 6)
    style = rng.choice(STYLES)
    state = _fold({}, setup(players, {}, with_defaults(OPTIONS, options)))
    numbers = rng.sample(range(1, DECK_SIZE + 1), DECK_SIZE)
    actions: list[Action] = []
    while not state["finished"]:
        for action in _round(rng, state, numbers.pop(), style):
            state = _fold(state, decide(state, action))
            actions.append(action)
            if state["round"] is None:
                break
    return {"players": players, "setup": {}, "options": options, "actions": actions}


def random_stack(rng: random.Random, props: list[str] | None = None) -> list[Placement]:
    """A physically sound stack of the given props (default: a random non-empty subset)."""
    used = props or rng.sample(PROPS, rng.randint(1, len(PROPS)))
    stack: list[Placement] = [{"prop": used[0], "on": TABLE}]
    for index, prop in enumerate(used[1:], start=1):
        under = rng.choice(used[:index])
        fits = under in CONTAINERS and SIZE[prop] < SIZE[under]
        relation = "in" if fits and rng.random() < 0.6 else "on"
        stack.append({"prop": prop, relation: under})
    rng.shuffle(stack)
    return stack


# --- private helpers -------------------------------------------------------------------------


def _round(rng: random.Random, state: State, number: int, style: str) -> list[Action]:
    """A reveal and the declarations, verdicts or abandonment that follow (the caller stops
    at the action that ends the round)."""
    solution = random_stack(rng)
    card = _card_for(rng, solution, state["options"]["stars"])
    actions: list[Action] = [{"type": "reveal", "card": number, **card}]
    if rng.random() < 0.07:
        return [*actions, {"type": "abandon_round"}]
    order = rng.sample(state["players"], len(state["players"]))
    winner = rng.choice([*order, None])
    waiting: list[str] = []
    for player in order:
        with_stack = style == "stacks" or (style == "mixed" and rng.random() < 0.5)
        declaration: Action = {"type": "declare", "player": player}
        if with_stack:
            declaration["stack"] = solution if player == winner else _wrong_stack(rng, card, state)
        else:
            waiting.append(player)
        actions.append(declaration)
        while waiting and rng.random() < 0.6:
            actions.append(_verdict(rng, waiting.pop(0), winner))
    actions.extend(_verdict(rng, player, winner) for player in waiting)
    return [*actions, {"type": "abandon_round"}]


def _verdict(rng: random.Random, player: str, winner: str | None) -> Action:
    verdict = "pass" if player == winner else "fail"
    action: Action = {"type": "judge", "player": player, "verdict": verdict}
    if verdict == "fail" and rng.random() < 0.5:
        action["reason"] = rng.choice(("the rabbit shows", "the coin was left in", "two stacks"))
    return action


def _wrong_stack(rng: random.Random, card: dict[str, Any], state: State) -> list[Placement]:
    """A random sound stack that fails the card (a few tries; the last one is kept anyway)."""
    full = {"colour": card["colour"], "grey": card["grey"], "starred": card["starred"]}
    stack = random_stack(rng)
    for _ in range(5):
        if judge_stack(full, stack, state["options"]["stars"]):
            return stack
        stack = random_stack(rng)
    return stack


def _card_for(rng: random.Random, stack: list[Placement], stars: str) -> dict[str, list[str]]:
    """The card this stack solves: visible props in colour, hidden in grey, stars that hold."""
    used = [prop for prop in PROPS if any(p["prop"] == prop for p in stack)]
    grey = hidden_props(stack)
    holding = [prop for prop in used if held_props(stack, prop)]
    fitting = {"off": [], "contain": holding, "empty": [p for p in used if p not in holding]}
    starred = [prop for prop in fitting[stars] if rng.random() < 0.4]
    return {"colour": [p for p in used if p not in grey], "grey": grey, "starred": starred}


def _fold(state: State, events: list[dict[str, Any]]) -> State:
    for one in events:
        state = evolve(state, one)
    return state
