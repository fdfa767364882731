"""Hat Trick properties over random legal matches, random cards and random stacks."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.contract import RuleViolation
from games.registry import get_game
from games.validation import validate_action, validate_match

# Random playouts and hypothesis searches: the quick run (`make test-quick`) leaves them out.
pytestmark = pytest.mark.slow

GAME = get_game("hat-trick")
State = dict[str, Any]
FAST = settings(max_examples=25, deadline=None)

# Written here again, on purpose, so the brute force below shares nothing with the rules.
VOLUME = {"coin": 1, "rabbit": 2, "tube": 3, "goblet": 4, "hat": 5}
HOLDERS = {"tube", "goblet", "hat"}
PROPS = sorted(VOLUME, key=VOLUME.__getitem__)


# --- recording a match -----------------------------------------------------------------------


Check = Callable[[dict[str, Any], State], None]


def record(seed: int, check: Check | None = None) -> tuple[list[dict[str, Any]], State]:
    """Every event of example(seed) and the live state at the end; with a check, every step is
    checked, and so is that decide leaves the state it is given unchanged."""
    script = GAME.example(seed)
    players, setup, options = validate_match(GAME, script["players"], script["setup"], script["options"])
    events = GAME.setup(players, setup, options)
    state = fold({}, events)
    for action in script["actions"]:
        before = json.dumps(state) if check else ""
        new = GAME.decide(state, validate_action(GAME, action))
        assert not check or json.dumps(state) == before, "decide changed the state it was given"
        for event in new:
            state = GAME.evolve(state, event)
            if check:
                check(event, state)
        events += new
    return events, state


def fold(state: State, events: list[dict[str, Any]]) -> State:
    for event in events:
        state = GAME.evolve(state, event)
    return state


def json_and_conserved(event: dict[str, Any], state: State) -> None:
    """One step's promises: plain JSON everywhere, every card revealed is won, out or in play."""
    board, shown = GAME.scores(state), GAME.view(state)
    for value in (event, state, board, shown):
        assert json.loads(json.dumps(value)) == value
    in_play = 1 if shown["card"] is not None else 0
    assert sum(board["totals"].values()) + len(board["discarded"]) + in_play == len(state["revealed"])
    assert board["totals"] == {p: len(cards) for p, cards in board["cards"].items()}
    assert set(shown["to_act"]) <= set(shown["in_round"])
    assert state["finished"] == (event["type"] == "MatchFinished")


seeds = st.integers(min_value=0, max_value=2**20)


@FAST
@given(seeds)
def test_every_step_is_plain_json_and_conserves_the_cards(seed: int) -> None:
    record(seed, json_and_conserved)


@FAST
@given(seeds)
def test_a_finished_match_is_won_by_the_players_with_the_most_cards(seed: int) -> None:
    _, final = record(seed)
    board = GAME.scores(final)
    assert board["finished"]
    best = max(board["totals"].values())
    assert board["winners"] == [p for p in final["players"] if best and board["totals"][p] == best]
    if board["end"] == "target":
        assert board["winners"] and best == final["options"]["target"]
        assert not final["options"]["full_deck"]
    else:
        assert GAME.view(final)["cards_left"] == 0


# --- stacks against a brute force ------------------------------------------------------------


@st.composite
def cards(draw: st.DrawFn) -> tuple[str, dict[str, list[str]]]:
    """A stars rule and a card that respects it."""
    stars = draw(st.sampled_from(["off", "contain", "empty"]))
    looks = draw(st.fixed_dictionaries({p: st.sampled_from(["colour", "grey", "absent"]) for p in PROPS}))
    if all(look == "absent" for look in looks.values()):
        looks["hat"] = "colour"
    on_card = [p for p in PROPS if looks[p] != "absent"]
    starred = [] if stars == "off" else draw(st.lists(st.sampled_from(on_card), unique=True))
    return stars, {
        "colour": [p for p in on_card if looks[p] == "colour"],
        "grey": [p for p in on_card if looks[p] == "grey"],
        "starred": starred,
    }


@st.composite
def sound_stacks(draw: st.DrawFn) -> list[dict[str, str]]:
    """A stack that stands: each prop on or in one placed before it, the first on the table."""
    used = draw(st.permutations(PROPS))[: draw(st.integers(1, len(PROPS)))]
    placements = [{"prop": used[0], "on": "table"}]
    for index, prop in enumerate(used[1:], start=1):
        under = draw(st.sampled_from(used[:index]))
        fits = under in HOLDERS and VOLUME[prop] < VOLUME[under]
        relation = draw(st.sampled_from(["in", "on"])) if fits else "on"
        placements.append({"prop": prop, relation: under})
    return draw(st.permutations(placements))


any_placement = st.one_of(
    st.builds(
        lambda p, u: {"prop": p, "on": u},
        st.sampled_from(PROPS),
        st.sampled_from([*PROPS, "table"]),
    ),
    st.builds(lambda p, u: {"prop": p, "in": u}, st.sampled_from(PROPS), st.sampled_from(PROPS)),
)


def stands(stack: list[dict[str, str]]) -> bool:
    """Brute force: placed once each, fits, supported, one on the table, every chain ends there."""
    below = {p["prop"]: p["in"] if "in" in p else p["on"] for p in stack}
    if len(below) != len(stack) or list(below.values()).count("table") != 1:
        return False
    for p in stack:
        if "in" in p and not (p["in"] in HOLDERS and VOLUME[p["prop"]] < VOLUME[p["in"]]):
            return False
    for start in below:
        place = start
        for _ in range(len(below) + 1):
            if place == "table" or place not in below:
                break
            place = below[place]
        if place != "table":
            return False
    return True


def brute_failures(
    stars: str, card: dict[str, list[str]], stack: list[dict[str, str]]
) -> set[tuple[str, str]]:
    """Brute force: the (requirement, prop) pairs the stack fails."""
    placed = {p["prop"] for p in stack}
    hidden: set[str] = set()
    for _ in PROPS:  # relax until nothing changes: 5 rounds always suffice
        hidden |= {p["prop"] for p in stack if "in" in p or p.get("on") in hidden}
    holding = {p["in"] for p in stack if "in" in p}
    failures = {("colour_visible", p) for p in card["colour"] if p not in placed or p in hidden}
    failures |= {("grey_hidden", p) for p in card["grey"] if p not in placed or p not in hidden}
    failures |= {("others_out", p) for p in placed - set(card["colour"]) - set(card["grey"])}
    if stars == "contain":
        failures |= {("star_holds", p) for p in card["starred"] if p not in holding}
    if stars == "empty":
        failures |= {("star_empty", p) for p in card["starred"] if p in holding}
    return failures


def declare(stars: str, card: dict[str, list[str]], stack: list[dict[str, str]]) -> list[dict]:
    """The events of declaring this stack on this card, through the public contract."""
    names, setup, options = validate_match(GAME, ["ann", "bob"], {}, {"stars": stars})
    state = fold({}, GAME.setup(names, setup, options))
    state = fold(state, GAME.decide(state, {"type": "reveal", "card": 1, **card}))
    action = validate_action(GAME, {"type": "declare", "player": "ann", "stack": stack})
    return GAME.decide(state, action)


@settings(max_examples=200, deadline=None)
@given(cards(), sound_stacks())
def test_the_verdict_on_a_sound_stack_equals_a_brute_force_check(
    card: tuple[str, dict[str, list[str]]], stack: list[dict[str, str]]
) -> None:
    stars, content = card
    judged = declare(stars, content, stack)[1]["data"]
    expected = brute_failures(stars, content, stack)
    assert {(r["requirement"], r["prop"]) for r in judged["reasons"]} == expected
    assert judged["verdict"] == ("fail" if expected else "pass")


@settings(max_examples=200, deadline=None)
@given(st.lists(any_placement, min_size=1, max_size=5))
def test_a_stack_is_refused_exactly_when_it_cannot_stand(stack: list[dict[str, str]]) -> None:
    content = {"colour": ["hat"], "grey": [], "starred": []}
    try:
        events = declare("off", content, stack)
    except RuleViolation:
        assert not stands(stack)
    else:
        assert stands(stack) and events[1]["type"] == "DeclarationJudged"
