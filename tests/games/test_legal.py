"""What ``legal`` offers, checked against the rules for every game that has it.

Along each game's example matches, at every step: every value offered is accepted by decide (with
some legal completion of the other fields), a sample of the values it leaves out (the values the
same field offers at other steps of the match) is refused, an action type not offered now is
refused, and the action the example records next is among those offered. And random playouts that
choose only from what ``legal`` offers reach a finished match.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

import pytest

from games.contract import Game, RuleViolation
from games.legal import Entry, build
from games.registry import all_games
from games.validation import validate_action, validate_match
from tests.support.games import copied
from tests.support.offers import pick

GAMES = [game for game in all_games().values() if game.legal is not None]
State = dict[str, Any]
TRIES = 60


def start(game: Game, script: dict[str, Any]) -> State:
    """The state right after a script's match is created."""
    players, setup, options = validate_match(game, script["players"], script["setup"], script["options"])
    state: State = {}
    for event in game.setup(players, setup, options):
        state = game.evolve(state, event)
    return state


def apply(game: Game, state: State, action: dict[str, Any]) -> State:
    """The state after ``action`` (refused: RuleViolation)."""
    for event in game.decide(state, validate_action(game, action)):
        state = game.evolve(state, event)
    return state


def takes(game: Game, state: State, action: dict[str, Any]) -> bool:
    """Whether the rules accept ``action`` now."""
    try:
        game.decide(state, validate_action(game, action))
    except RuleViolation:
        return False
    return True


def completes(game: Game, state: State, rng: Random, found: Entry, fixed: dict[str, Any]) -> bool:
    """Whether some completion of ``fixed`` with values offered is accepted (a few random tries)."""
    return any(takes(game, state, build(found, pick(rng, found, fixed))) for _ in range(TRIES))


def example_steps(game: Game, seed: int) -> Iterator[tuple[State, dict[str, Any]]]:
    """Each state of the example match of ``seed``, with the action recorded next."""
    script = game.example(seed)
    state = start(game, script)
    for action in script["actions"]:
        yield state, action
        state = apply(game, state, action)


def offered_values(game: Game, seed: int) -> dict[tuple[str, str], list[Any]]:
    """Every value offered for each (action type, field) along the example match."""
    seen: dict[tuple[str, str], list[Any]] = {}
    for state, _ in example_steps(game, seed):
        assert game.legal is not None
        for found in game.legal(state, True)["actions"]:
            for field in found["fields"]:
                for value in field.get("values", []):
                    known = seen.setdefault((found["type"], field["name"]), [])
                    if value not in known and not field.get("multiple"):
                        known.append(value)
    return seen


def offers(answer: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether ``action`` is of a type offered to its player, with listed values where listed."""
    for found in answer["actions"]:
        if found["type"] != action["type"]:
            continue
        if any(_fold(action.get(k)) != _fold(v) for k, v in found["fixed"].items() if k in action):
            continue
        if "choices" in found:
            return any(
                all(_fold(_at(action, k)) == _fold(v) for k, v in c.items() if _at(action, k) is not None)
                for c in found["choices"]
            )
        return all(
            field.get("multiple") or _fold(_at(action, field["name"])) in [_fold(v) for v in field["values"]]
            for field in found["fields"]
            if "values" in field and _at(action, field["name"]) is not None
        )
    return False


def combinations_left_out(rng: Random, found: Entry, most: int = 4) -> list[dict[str, Any]]:
    """A few combinations of offered values that are not among an entry's choices."""
    if not found.get("choices"):
        return []
    names = list(found["choices"][0])
    listed = {f["name"]: f["values"] for f in found["fields"] if "values" in f and f["values"]}
    if not all(name in listed for name in names):
        return []
    found_out: list[dict[str, Any]] = []
    for _ in range(most * 10):
        combination = {name: rng.choice(listed[name]) for name in names}
        if combination not in found["choices"] and combination not in found_out:
            found_out.append(combination)
        if len(found_out) == most:
            break
    return found_out


def _at(action: dict[str, Any], name: str) -> Any:
    place: Any = action
    for part in name.split("."):
        place = place.get(part) if isinstance(place, dict) else None
    return place


def _fold(value: Any) -> Any:
    return value.casefold() if isinstance(value, str) else value


SEEDS = [0, 1, 2, 3]


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_value_offered_is_accepted_and_values_left_out_are_refused(game: Game, seed: int) -> None:
    rng = Random(seed)
    universe = offered_values(game, seed)
    earlier: dict[str, dict[str, Any]] = {}
    assert game.legal is not None
    for state, recorded in example_steps(game, seed):
        answer = game.legal(state, True)
        assert offers(answer, recorded), f"the next recorded action {recorded} is not offered: {answer}"
        for found in answer["actions"]:
            for field in found["fields"]:
                if "values" not in field or field.get("multiple"):
                    continue
                for value in rng.sample(field["values"], min(4, len(field["values"]))):
                    assert completes(game, state, rng, found, {field["name"]: value}), (found, value)
                left_out = [
                    v for v in universe.get((found["type"], field["name"]), []) if v not in field["values"]
                ]
                for value in rng.sample(left_out, min(3, len(left_out))):
                    action = build(found, pick(rng, found) | {field["name"]: value})
                    assert not takes(game, state, action), f"{action} is not offered, yet accepted"
            for combination in combinations_left_out(rng, found):
                action = build(found, combination)
                assert not takes(game, state, action), f"{action} is no offered choice, yet accepted"
            earlier[found["type"]] = build(found, pick(rng, found))
        offered = {found["type"] for found in answer["actions"]}
        for kind, action in earlier.items():
            if kind not in offered:
                assert not takes(game, state, action), f"{kind} is not offered now, yet {action} is accepted"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5, 6, 7])
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_playout_that_chooses_only_from_what_is_offered_finishes_the_match(game: Game, seed: int) -> None:
    rng = Random(seed)
    state = start(game, game.example(seed))
    assert game.legal is not None
    for _ in range(5000):
        answer = game.legal(state, True)
        if answer["finished"]:
            break
        assert answer["actions"], f"nothing is offered in an unfinished match: {state}"
        state = _step(game, state, answer, rng)
    assert state["finished"]
    assert game.legal(state, True) == {"finished": True, "to_act": [], "actions": []}


def _step(game: Game, state: State, answer: dict[str, Any], rng: Random) -> State:
    """The state after one action built from a random offered entry (accepted within a few tries)."""
    for _ in range(TRIES):
        found = rng.choice(answer["actions"])
        action = build(found, pick(rng, found))
        if takes(game, state, action):
            return apply(game, copied(state), action)
    raise AssertionError(f"no offered action was accepted in {TRIES} tries: {answer}")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_whoever_is_offered_an_action_is_to_act(game: Game) -> None:
    assert game.legal is not None
    for state, _ in example_steps(game, 0):
        answer = game.legal(state, True)
        players = {found["fixed"].get("player") for found in answer["actions"]} - {None}
        assert players <= set(answer["to_act"])
