"""Complete, legal Hobbit matches built from a seed, for tests, benchmarks and fault injection.

The seed chooses the table (2 to 5 players; ``seed % 4`` fixes the count so every count comes up),
the characters, the options and the recording style: with or without a mark table, with or without
the hands, marks sent or left to what is known, cards in any case. Plays follow colour, so the
match is legal whether or not the hands are recorded.
"""

from __future__ import annotations

import random
from typing import Any

from games.contract import Action, Script, State
from games.hobbit.constants import CHARACTERS, DECK, DISCARD, MARKS, colour, living
from games.hobbit.evolve import evolve
from games.hobbit.rules import decide, setup
from games.hobbit.schemas import OPTIONS
from games.validation import with_defaults

# --- constants -----------------------------------------------------------------------------------

_NAMES = ("ann", "bob", "cy", "dee", "eve")

# --- example -------------------------------------------------------------------------------------


def example(seed: int) -> Script:
    """A finished legal match as a script; the same seed always gives the same script."""
    rng = random.Random(seed)
    players = list(_NAMES[: 2 + seed % 4])
    table = {card: rng.choices(MARKS, weights=(2, 2, 1))[0] for card in DECK}
    chosen: dict[str, Any] = {"characters": _cast(rng, players)}
    if rng.random() < 0.5:
        chosen["marks"] = dict(table)
    options = _options(rng)
    style = {"hands": rng.random(), "shout": rng.random() < 0.2, "table": table}
    state: State = {}
    for new in setup(players, chosen, with_defaults(OPTIONS, options)):
        state = evolve(state, new)
    hands: dict[str, list[str]] = {}
    actions: list[Action] = []
    while not state["finished"]:
        action = _next(rng, state, hands, style)
        for new in decide(state, action):
            state = evolve(state, new)
        actions.append(action)
    return {"players": players, "setup": chosen, "options": options, "actions": actions}


# --- private helpers -----------------------------------------------------------------------------


def _cast(rng: random.Random, players: list[str]) -> dict[str, str]:
    good = [c for c, side in CHARACTERS.items() if side == "good"]
    evil = [c for c, side in CHARACTERS.items() if side == "evil"]
    first = [rng.choice(good), rng.choice(evil)]
    rest = [c for c in CHARACTERS if c not in first]
    cast = first + rng.sample(rest, len(players) - 2)
    rng.shuffle(cast)
    return dict(zip(players, cast, strict=True))


def _options(rng: random.Random) -> dict[str, Any]:
    options = {
        "distribution": rng.choice(["powers", "powers", "free"]),
        "elimination": rng.choice(["immediate", "end_of_round"]),
        "rounds": rng.choice([1, 2, 2, 3]),
    }
    return {k: v for k, v in options.items() if rng.random() < 0.8}


def _next(rng: random.Random, state: State, hands: dict[str, list[str]], style: Any) -> Action:
    if state["phase"] == "round_start":
        return _start(rng, state, hands, style)
    if state["phase"] == "playing":
        return _play(rng, state, hands, style)
    return {"type": "distribute", "cards": _hand_out(rng, state)}


def _start(rng: random.Random, state: State, hands: dict[str, list[str]], style: Any) -> Action:
    alive = living(state)
    deck = list(DECK)
    rng.shuffle(deck)
    size = len(deck) // len(alive)
    hands.clear()
    hands.update({p: deck[i * size : (i + 1) * size] for i, p in enumerate(alive)})
    action: Action = {"type": "start_round", "leader": rng.choice(alive)}
    if rng.random() < style["hands"]:
        action["hands"] = {p: [_spell(c, style) for c in hand] for p, hand in hands.items()}
    return action


def _play(rng: random.Random, state: State, hands: dict[str, list[str]], style: Any) -> Action:
    trick = state["trick"]
    player = trick["order"][len(trick["plays"])]
    hand = hands[player]
    follow = [c for c in hand if colour(c) == trick["led"]]
    card = rng.choice(follow or hand)
    hand.remove(card)
    action: Action = {"type": "play", "player": player, "card": _spell(card, style)}
    if card not in state["marks"] or rng.random() < 0.3:
        action["mark"] = style["table"][card]
    return action


def _hand_out(rng: random.Random, state: State) -> dict[str, str]:
    winner = state["trick"]["winner"]
    cards = [play["card"] for play in state["trick"]["plays"]]
    rng.shuffle(cards)
    alive = living(state)
    others = [p for p in alive if p != winner]
    power = state["characters"][winner]
    if state["options"]["distribution"] == "free":
        targets = [rng.choice(alive) for _ in cards]
    elif power == "bilbo":
        targets = [winner, rng.choice(others)]
    elif power == "bolg":
        targets = [rng.choice(others)]
    elif power == "thorin":
        targets = rng.sample(alive, len(alive))
    else:
        targets = rng.sample(alive, rng.randint(0, min(len(cards), len(alive))))
    handed = {card: DISCARD for card in cards}
    handed.update(zip(cards, targets, strict=False))
    return handed


def _spell(card: str, style: Any) -> str:
    return card.upper() if style["shout"] else card
