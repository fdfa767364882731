"""What the table knows of the seven props, kept exact as the set of arrangements still possible.

An arrangement is a 7-letter string, one letter per place (the players' slots in seat order, then
the middle): ``"HLCCROC"``. Of the 840 ways to lay out one rabbit, one other rabbit, one hat, one
lettuce and three carrots, ``state["worlds"]`` keeps (sorted) those that agree with everything seen.
A swap moves the letters of every arrangement, a prop seen face up keeps the arrangements that have
it there, and a sleight of hand replaces each arrangement by all orders of its three gathered props.
Each place's possibilities are read off the arrangements, so they are exact, counts included.

``state["shown"]`` holds, per place, how its face-up prop came to be known (the step it was seen,
where, how many swaps moved it since and the steps of the last few), so that a contradiction can
be refused with its reason. Only the last few steps are kept, so the state stays the size of the
table however long the match.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import permutations

from games.other_hat_trick.constants import (
    COUNT_WORDS,
    LETTER,
    PLACES,
    PROP_COUNTS,
    PROP_SET,
    PROPS,
    State,
    place_label,
    prop_words,
)
from games.words import and_words, or_words

Claim = tuple[int, str]  # (place, prop)
# The steps of the swaps that moved a face-up prop are kept for the last few only.
MOVES_KEPT = 3

# --- the arrangements ------------------------------------------------------------------------


@cache
def _all_arrangements() -> tuple[str, ...]:
    letters = "".join(LETTER[prop] for prop in PROP_SET)
    return tuple(sorted({"".join(order) for order in permutations(letters)}))


def initial_worlds() -> list[str]:
    """Every arrangement of the seven props: nothing has been seen yet."""
    return list(_all_arrangements())


def possible(worlds: list[str], place: int) -> list[str]:
    """The props a place may still hold, in the order of PROPS."""
    letters = {world[place] for world in worlds}
    return [prop for prop in PROPS if LETTER[prop] in letters]


def known(worlds: list[str], place: int) -> str | None:
    """The prop a place certainly holds, or None while more than one is possible."""
    props = possible(worlds, place)
    return props[0] if len(props) == 1 else None


def fits(worlds: list[str], claims: list[Claim]) -> list[str]:
    """The arrangements in which every claimed place holds the claimed prop."""
    wanted = [(place, LETTER[prop]) for place, prop in claims]
    return [w for w in worlds if all(w[place] == letter for place, letter in wanted)]


# --- following the props (evolve) ------------------------------------------------------------


def swap_places(state: State, a: int, b: int, step: int) -> None:
    """Two props change places, face-up or face-down as they were."""
    state["worlds"] = sorted(_swapped(world, a, b) for world in state["worlds"])
    shown = state["shown"]
    shown[a], shown[b] = shown[b], shown[a]
    for place in (a, b):
        note = shown[place]
        if note is not None:
            note["swaps"] = note.get("swaps", len(note["moves"])) + 1
            note["moves"] = [*note["moves"], step][-MOVES_KEPT:]


def see(state: State, claims: list[Claim], step: int) -> None:
    """Props turned face up: only the arrangements with them there remain."""
    state["worlds"] = fits(state["worlds"], claims)
    for place, prop in claims:
        label = place_label(state["players"], place)
        state["shown"][place] = {"prop": prop, "step": step, "seen_at": label, "moves": [], "swaps": 0}


def sleight_of_hand(state: State, places: list[int]) -> None:
    """The props at these places are gathered and go back face down in an order nobody saw."""
    mixed: set[str] = set()
    for world in state["worlds"]:
        for order in permutations(world[place] for place in places):
            letters = list(world)
            for place, letter in zip(places, order, strict=True):
                letters[place] = letter
            mixed.add("".join(letters))
    state["worlds"] = sorted(mixed)
    for place in places:
        state["shown"][place] = None


# --- contradictions (decide) -----------------------------------------------------------------


def contradiction(state: State, claims: list[Claim]) -> str | None:
    """Why these props cannot be where they are claimed, or None when they fit what is known."""
    worlds = state["worlds"]
    if fits(worlds, claims):
        return None
    for prop, count in Counter(prop for _, prop in claims).items():
        if count > PROP_COUNTS[prop]:
            return _too_many(prop)
    for place, prop in claims:
        if prop not in possible(worlds, place):
            return _why_not_here(state, place, prop)
    return _why_not_together(state, claims)


def _too_many(prop: str) -> str:
    count, noun = PROP_COUNTS[prop], prop.replace("-", " ")
    if count == 1:
        return f"there is only one {noun}"
    return f"there are only {COUNT_WORDS[count]} {noun}s"


def _why_not_here(state: State, place: int, prop: str) -> str:
    players, shown, worlds = state["players"], state["shown"], state["worlds"]
    label = place_label(players, place)
    if shown[place] is not None:
        return _story(players, place, shown[place])
    seen_there = [q for q in range(PLACES) if shown[q] is not None and shown[q]["prop"] == prop]
    if len(seen_there) == PROP_COUNTS[prop]:
        stories = "; ".join(_story(players, q, shown[q]) for q in seen_there)
        return f"{label} cannot be {prop_words(prop)}: {stories}"
    holders = [place_label(players, q) for q in range(PLACES) if prop in possible(worlds, q)]
    here = or_words([prop_words(p) for p in possible(worlds, place)])
    name = prop_words(prop)
    where = "the carrots" if prop == "carrot" else name
    return (
        f"{label} cannot be {name}: from what the table has seen it can only be {here}, "
        f"and {where} can only be at {or_words(holders)}"
    )


def _why_not_together(state: State, claims: list[Claim]) -> str:
    players, worlds = state["players"], state["worlds"]
    for k, (place, prop) in enumerate(claims):
        before = claims[:k]
        left = fits(worlds, before)
        if fits(left, [(place, prop)]):
            continue
        label = place_label(players, place)
        counted = _counted_out(state, claims, k)
        if counted is not None:
            return counted
        could = or_words([prop_words(p) for p in possible(left, place)])
        if len(before) <= 2:
            given = and_words([f"{place_label(players, q)} is {prop_words(p)}" for q, p in before])
            return f"{label} cannot be {prop_words(prop)} when {given}: it could then only be {could}"
        return (
            f"{label} cannot be {prop_words(prop)} together with the props claimed before it: "
            f"it could then only be {could}"
        )
    return "these props do not fit what the table has seen"


def _counted_out(state: State, claims: list[Claim], k: int) -> str | None:
    """The reason claim k is one copy too many: the copies claimed before it and those elsewhere."""
    players, shown = state["players"], state["shown"]
    place, prop = claims[k]
    before = [q for q, p in claims[:k] if p == prop]
    claimed = {q for q, _ in claims[: k + 1]}
    others = [q for q in range(PLACES) if q not in claimed]
    elsewhere = min(
        (sum(1 for q in others if world[q] == LETTER[prop]) for world in state["worlds"]),
        default=0,
    )
    if not before or len(before) + 1 + elsewhere <= PROP_COUNTS[prop]:
        return None
    reason = f"{_too_many(prop)}, and at least {COUNT_WORDS.get(elsewhere, elsewhere)} "
    reason += "is elsewhere" if elsewhere == 1 else "are elsewhere"
    seen = [q for q in others if shown[q] is not None and shown[q]["prop"] == prop]
    if seen:
        show = "shows" if len(seen) == 1 else "show"
        labels = and_words([place_label(players, q) for q in seen])
        reason += f" ({labels} {show} {COUNT_WORDS[len(seen)]})"
    label, earlier = place_label(players, place), [place_label(players, q) for q in before]
    return f"{label} cannot be {prop_words(prop)} as well as {and_words(earlier)}: {reason}"


def _story(players: list[str], place: int, note: dict[str, object]) -> str:
    label = place_label(players, place)
    name = prop_words(str(note["prop"]))
    moves = note["moves"]
    assert isinstance(moves, list)
    if not moves:
        return f"{label} was seen to be {name} at step {note['step']} and has not moved since"
    steps = and_words([str(s) for s in moves])
    count = note.get("swaps", len(moves))
    assert isinstance(count, int)
    if count > len(moves):
        swaps = f"{count} swaps, the last at steps"
    else:
        swaps = "the swap at step" if len(moves) == 1 else "the swaps at steps"
    return (
        f"{label} is {name}, seen at {note['seen_at']} at step {note['step']} "
        f"and moved there by {swaps} {steps}"
    )


def _swapped(world: str, a: int, b: int) -> str:
    letters = list(world)
    letters[a], letters[b] = letters[b], letters[a]
    return "".join(letters)
