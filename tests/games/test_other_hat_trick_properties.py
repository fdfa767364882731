"""Property tests of The Other Hat Trick over random legal matches.

Each match is ``GAME.example(seed)``, played from a hidden deal. The hidden props after every
action are worked back from the final reveal (swaps undone, and before each sleight of hand the
performer's two props are the ones shown and the middle held the third), so the tests know the
truth the table never recorded and check what tabletape deduces against it, and against a
deduction written here independently (sets of tuples instead of the module's strings).
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.contract import RuleViolation
from games.other_hat_trick import GAME
from games.validation import validate_action, validate_match
from tests.support.games import copied

# Random playouts and hypothesis searches: the quick run (`make test-quick`) leaves them out.
pytestmark = pytest.mark.slow

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=25, deadline=None)
PROP_SET = ("rabbit", "other-rabbit", "hat", "lettuce", "carrot", "carrot", "carrot")
PROPS = ["rabbit", "other-rabbit", "hat", "lettuce", "carrot"]
Arrangement = tuple[str, ...]


def played(seed: int) -> dict[str, Any]:
    """A match: its script, each action's events, the state after each, and the hidden truth."""
    script = GAME.example(seed)
    players, setup, options = validate_match(GAME, script["players"], script["setup"], script["options"])
    created = GAME.setup(players, setup, options)
    state: dict[str, Any] = {}
    for event in created:
        state = GAME.evolve(state, event)
    states, steps = [copied(state)], []
    for action in script["actions"]:
        before = json.dumps(state, sort_keys=True)
        new = GAME.decide(state, validate_action(GAME, action))
        assert json.dumps(state, sort_keys=True) == before, "decide changed the state"
        for event in new:
            state = GAME.evolve(state, event)
        steps.append(new)
        states.append(copied(state))
    return {
        "script": script,
        "players": players,
        "events": created + [event for new in steps for event in new],
        "steps": steps,
        "states": states,
        "truths": hidden_props(players, script["actions"]),
    }


def seat(players: list[str], name: str) -> int:
    return [p.casefold() for p in players].index(name.casefold())


def hidden_props(players: list[str], actions: list[dict[str, Any]]) -> list[list[str]]:
    """The props at the seven places before the first action and after each one."""
    shown = {name.casefold(): props for name, props in actions[-1]["props"].items()}
    now = [*(prop for p in players for prop in shown[p.casefold()]), shown["middle"]]
    truths = [list(now)]
    for action in reversed(actions):
        if action["type"] == "swap":
            a = seat(players, action["player"]) * 2 + action["slot"]
            b = seat(players, action["with_player"]) * 2 + action["with_slot"]
            now[a], now[b] = now[b], now[a]
        elif action["type"] == "perform":
            at = seat(players, action["player"]) * 2
            third = Counter([now[at], now[at + 1], now[6]]) - Counter(action["props"])
            now[at], now[at + 1] = action["props"]
            (now[6],) = third.elements()
        truths.append(list(now))
    return truths[::-1]


def possible_at(state: dict[str, Any]) -> list[list[str]]:
    """What the view says each of the seven places may hold."""
    props = GAME.view(state)["props"]
    places = [props[name][slot] for name in state["players"] for slot in (0, 1)] + [props["middle"]]
    return [list(place["possible"]) for place in places]


def deduced_here(players: list[str], steps: list[list[dict[str, Any]]]) -> list[set[Arrangement]]:
    """The arrangements that agree with what the table saw, after each action (the test's own)."""
    worlds: set[Arrangement] = set(permutations(PROP_SET))
    after = [worlds]
    for events in steps:
        for event in events:
            worlds = follow(players, worlds, event)
        after.append(worlds)
    return after


def follow(players: list[str], worlds: set[Arrangement], event: dict[str, Any]) -> set[Arrangement]:
    data = event["data"]
    if event["type"] == "PropsSwapped":
        a = players.index(data["player"]) * 2 + data["slot"]
        b = players.index(data["with_player"]) * 2 + data["with_slot"]
        return {swapped(w, a, b) for w in worlds}
    if event["type"] == "TrickFailed" and data["slot"] is not None:
        at = players.index(data["player"]) * 2 + data["slot"]
        return {w for w in worlds if w[at] == data["prop"]}
    if event["type"] == "TrickPerformed":
        at = players.index(data["player"]) * 2
        kept = {w for w in worlds if [w[at], w[at + 1]] == data["props"]}
        return {mixed(w, order, at) for w in kept for order in permutations(range(3))}
    return worlds


def swapped(world: Arrangement, a: int, b: int) -> Arrangement:
    listed = list(world)
    listed[a], listed[b] = listed[b], listed[a]
    return tuple(listed)


def mixed(world: Arrangement, order: tuple[int, ...], at: int) -> Arrangement:
    places = [at, at + 1, 6]
    listed = list(world)
    for place, index in zip(places, order, strict=True):
        listed[place] = world[places[index]]
    return tuple(listed)


def marginals(worlds: set[Arrangement]) -> list[list[str]]:
    return [[p for p in PROPS if any(w[place] == p for w in worlds)] for place in range(7)]


POINTS = {
    "hungry-rabbit": 1,
    "bunch-of-carrots": 2,
    "vegetable-patch": 3,
    "rabbit-that-didnt-like-carrots": 4,
    "pair-of-rabbits": 5,
    "vegetable-hat-trick": 2,
    "carrot-hat-trick": 3,
    "slightly-easier-hat-trick": 4,
    "hat-trick": 5,
    "other-hat-trick": 6,
}


# --- properties ------------------------------------------------------------------------------


@FAST
@given(SEEDS)
def test_what_tabletape_deduces_always_contains_the_truth(seed: int) -> None:
    match = played(seed)
    for state, truth in zip(match["states"], match["truths"], strict=True):
        view = GAME.view(state)["props"]
        places = [view[p][s] for p in state["players"] for s in (0, 1)] + [view["middle"]]
        for place, prop in enumerate(truth):
            assert prop in places[place]["possible"]
            if places[place]["face_up"] or places[place]["prop"] is not None:
                assert places[place]["prop"] == prop


@FAST
@given(SEEDS)
def test_the_deduction_is_exact_counts_included(seed: int) -> None:
    match = played(seed)
    ours = deduced_here(match["players"], match["steps"])
    for state, worlds in zip(match["states"][:-1], ours[:-1], strict=True):
        assert possible_at(state) == marginals(worlds)
        assert GAME.view(state)["arrangements"] == len(worlds)


@FAST
@given(SEEDS, st.data())
def test_a_shown_prop_is_accepted_exactly_when_it_is_still_possible(seed: int, data: st.DataObject) -> None:
    match = played(seed)
    actions = match["script"]["actions"]
    fails = [k for k, a in enumerate(actions) if a["type"] == "fail" and "prop" in a]
    if not fails:
        return
    k = data.draw(st.sampled_from(fails), label="fail")
    state, shown = match["states"][k], match["steps"][k][0]["data"]
    place = match["players"].index(shown["player"]) * 2 + shown["slot"]
    assert shown["prop"] == match["truths"][k][place]
    possible = possible_at(state)[place]
    for prop in PROPS:
        action = {"type": "fail", "player": shown["player"], "slot": shown["slot"], "prop": prop}
        try:
            GAME.decide(state, validate_action(GAME, action))
        except RuleViolation as refused:
            assert prop not in possible and refused.code == "prop_contradiction"
        else:
            assert prop in possible


@FAST
@given(SEEDS)
def test_scores_are_trick_points_less_three_for_the_hat_and_other_rabbit_after_three_failures(
    seed: int,
) -> None:
    match = played(seed)
    players, last = match["players"], match["states"][-1]
    points = {p: 0 for p in players}
    performed = [e["data"] for e in match["events"] if e["type"] == "TrickPerformed"]
    for data in performed:
        points[data["player"]] += POINTS[data["trick"]]
    by_three_failures = not performed or performed[-1]["trick"] != "other-hat-trick"
    final = match["truths"][-1]
    totals = {
        p: points[p]
        - (
            3 * sum(prop in ("hat", "other-rabbit") for prop in final[2 * i : 2 * i + 2])
            if by_three_failures
            else 0
        )
        for i, p in enumerate(players)
    }
    board = GAME.scores(last)
    assert board["totals"] == totals and board["points"] == points
    assert board["ended_by"] == ("three_failures" if by_three_failures else "performed")
    assert board["winners"] == [p for p in players if totals[p] == max(totals.values())]


def test_the_state_of_a_long_match_stays_the_size_of_the_table() -> None:
    from bench.harness import OTHER_HAT_TRICK, long_other_hat_trick

    _, players, setup, options = OTHER_HAT_TRICK
    names, setup, options = validate_match(GAME, players, setup, options)
    state: dict[str, Any] = {}
    for ev in GAME.setup(names, setup, options):
        state = GAME.evolve(state, ev)
    sizes = {}
    for turn, action in enumerate(long_other_hat_trick(3000), start=1):
        for ev in GAME.decide(state, validate_action(GAME, action)):
            state = GAME.evolve(state, ev)
        if turn in (300, 6000):
            sizes[turn] = len(json.dumps(state))
    assert sizes[6000] <= 1.1 * sizes[300]
    notes = [note for note in state["shown"] if note is not None]
    assert notes and all(len(note["moves"]) <= 3 for note in notes)
    assert max(note["swaps"] for note in notes) > 3
