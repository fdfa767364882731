"""The contract, checked the same way for every registered game through its example matches."""

from __future__ import annotations

import importlib
import json
import pkgutil
from types import ModuleType
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import games
from games.contract import Game, InvalidAction, RuleViolation
from games.decider import MODULES
from games.registry import all_games
from games.schemas import DRAFT
from games.validation import validate_match
from tests.support import games as support

GAMES = list(all_games().values())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_example_of_a_seed_is_always_the_same_match_and_differs_from_another_seeds(game: Game) -> None:
    assert game.example(11) == game.example(11)
    assert game.example(7) != game.example(8)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_finished_match_is_described_with_json_schemas(game: Game) -> None:
    described = game.describe()
    assert described["actions"] and all(s.get("type") == "object" for s in described["actions"].values())
    assert json.loads(json.dumps(described)) == described


# --- the shape every game package shares -----------------------------------------------------

SHARED = set(MODULES)
EXTRAS_ALLOWED = 4


def package_of(game: Game) -> ModuleType:
    """The package under games/ that registers ``game``."""
    return next(
        importlib.import_module(f"games.{info.name}")
        for info in pkgutil.iter_modules(games.__path__)
        if info.ispkg and getattr(importlib.import_module(f"games.{info.name}"), "GAME", None) is game
    )


def modules_of(game: Game) -> set[str]:
    """The module names in a game's package."""
    return {"__init__"} | {info.name for info in pkgutil.iter_modules(package_of(game).__path__)}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_game_package_holds_the_shared_modules(game: Game) -> None:
    assert SHARED <= modules_of(game), f"missing: {sorted(SHARED - modules_of(game))}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_no_game_package_holds_more_than_four_modules_of_its_own(game: Game) -> None:
    extras = modules_of(game) - SHARED
    assert len(extras) <= EXTRAS_ALLOWED, f"{game.id} has {len(extras)} extras: {sorted(extras)}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_game_handles_exactly_the_actions_it_publishes(game: Game) -> None:
    rules = importlib.import_module(f"{package_of(game).__name__}.rules")
    assert set(rules.HANDLERS) == set(game.actions)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_schema_a_game_publishes_is_a_described_draft_2020_12_object(game: Game) -> None:
    schemas = [*game.actions.values(), game.setup_schema, game.options_schema]
    for schema in schemas:
        assert schema["$schema"] == DRAFT and schema["type"] == "object"
        assert schema["description"].strip()
        Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_finished_match_refuses_every_action_with_match_finished(game: Game) -> None:
    _, finished = support.play_script(game, game.example(0))
    for kind in game.actions:
        with pytest.raises(RuleViolation) as refused:
            game.decide(finished, {"type": kind})
        assert refused.value.code == "match_finished"
        # The refusal says who won, where the state knows it.
        assert all(winner in refused.value.message for winner in finished.get("winners", []))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_an_unknown_action_is_refused_naming_the_actions_there_are(game: Game) -> None:
    state = game.evolve({}, game.setup(*first_position(game))[0])
    with pytest.raises(InvalidAction) as refused:
        game.decide(state, {"type": "dance"})
    assert refused.value.code == "unknown_action"
    assert all(kind in refused.value.message for kind in game.actions)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_setup_refuses_a_player_count_the_game_is_not_played_by(game: Game) -> None:
    players, setup, options = first_position(game)
    for count in (game.min_players - 1, game.max_players + 1):
        names = [f"p{i}" for i in range(count)]
        with pytest.raises(InvalidAction) as caught:
            validate_match(game, names, setup, options)
        assert caught.value.code == "player_count"
        with pytest.raises(RuleViolation) as refused:
            game.setup(names, setup, options)
        assert refused.value.code == "player_count" and str(count) in refused.value.message


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_two_seats_whose_names_differ_only_in_case_are_refused_naming_both(game: Game) -> None:
    players, setup, options = first_position(game)
    names = [*players[:-1], players[0].upper()]
    with pytest.raises(InvalidAction) as caught:
        validate_match(game, names, setup, options)
    assert caught.value.code == "invalid_players" and "differ only in case" in caught.value.message
    assert repr(players[0]) in caught.value.message and repr(players[0].upper()) in caught.value.message


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_setup_fills_in_every_option_left_out_with_its_default(game: Game) -> None:
    players, setup, _ = first_position(game)
    created = game.setup(players, setup, {})[0]
    defaults = {k: p["default"] for k, p in game.options_schema["properties"].items() if "default" in p}
    assert created["data"]["options"] == defaults


def first_position(game: Game) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """The players, setup and options of the game's first example."""
    script = game.example(0)
    return validate_match(game, script["players"], script["setup"], script["options"])
