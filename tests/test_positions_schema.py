"""Every game's view, as the rules make it at every step of its example matches (with the write
token, and as a reader without it sees it), is what openapi.yaml publishes: its game's ``{Game}View``
and no other game's, so a client's type for ``state`` holds and tells the games apart."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.contract import Game
from games.registry import all_games
from games.validation import validate_action
from service.api.openapi_shape import view_name
from service.api.schemas.positions import VIEWS
from tests.recording import initial_state
from tests.support.document import document, problems
from tests.support.games import copied

SEEDS = (0, 1, 2)


def views(game: Game, seed: int) -> Iterator[tuple[int, str, Any]]:
    """(step, reader, view) after every event of example ``seed`` (a replay's frames show a view
    after each, also between the events of one action): the table's, and the public one."""
    script = game.example(seed)
    state = initial_state(game, script)
    step = 0
    for action in [None, *script["actions"]]:
        for event in [] if action is None else game.decide(copied(state), validate_action(game, action)):
            state = game.evolve(state, event)
            step += 1
            shown = copied(game.view(state))
            yield step, "table", shown
            if game.public_view is not None:
                yield step, "public", game.public_view(state, [], copied(shown))
        if action is None:
            yield step, "table", copied(game.view(state))


def test_every_game_has_a_published_view_schema() -> None:
    schemas = document()["components"]["schemas"]
    assert set(VIEWS) == set(all_games())
    for game_id in all_games():
        assert schemas[view_name(game_id)]["additionalProperties"] is False


@pytest.mark.parametrize("game", all_games().values(), ids=lambda g: g.id)
def test_every_view_of_the_example_matches_is_its_games_published_view(game: Game) -> None:
    others = [view_name(g) for g in all_games() if g != game.id]
    checked = 0
    for seed in SEEDS:
        for step, reader, shown in views(game, seed):
            assert problems(view_name(game.id), shown) == [], (seed, step, reader)
            if step % 7 == 0:
                for other in others:
                    assert problems(other, shown), (seed, step, reader, other)
            checked += 1
    assert checked > 3 * len(SEEDS)


def test_a_view_that_departs_from_its_schema_is_caught() -> None:
    game = all_games()["wizard"]
    _, _, shown = next(views(game, 0))
    assert problems("WizardView", shown | {"round": "one"})
    assert problems("WizardView", shown | {"surprise": 1})
    assert problems("WizardView", {k: v for k, v in shown.items() if k != "totals"})


@pytest.mark.parametrize("game", all_games().values(), ids=lambda g: g.id)
def test_each_games_example_create_body_is_its_games_published_body(game: Game) -> None:
    for seed in SEEDS:
        script = game.example(seed)
        body = {"game": game.id, **{k: script[k] for k in ("players", "setup", "options")}}
        assert problems("CreateMatch", body) == []
        assert problems(f"{view_name(game.id).removesuffix('View')}CreateMatch", body) == []
    wrong = {"game": game.id, "players": script["players"], "setup": {"nobody": 1}}
    assert problems("CreateMatch", wrong)
