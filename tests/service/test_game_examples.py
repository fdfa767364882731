"""The short example match each game's description carries."""

from __future__ import annotations

import pytest

from games.registry import all_games
from service.api.examples import MAX_ACTIONS, short_example


@pytest.mark.parametrize("game", sorted(all_games()))
def test_the_example_is_short_and_a_prefix_of_one_of_the_games_own_scripts(game: str) -> None:
    example = short_example(game)
    size = len(example["actions"])
    assert 0 < size <= MAX_ACTIONS
    scripts = (all_games()[game].example(seed) for seed in range(64))
    whole = next(
        s for s in scripts if s["players"] == example["players"] and s["actions"][:size] == example["actions"]
    )
    assert example["finished"] is (len(whole["actions"]) == size)


def test_the_example_uses_more_than_one_kind_of_action_where_the_game_has_several() -> None:
    for game in all_games():
        kinds = {action["type"] for action in short_example(game)["actions"]}
        assert len(kinds) >= 3, game
