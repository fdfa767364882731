"""Hats: a recorded card that left its hand unnamed as a black hat is still its player's, so no
other player can play it (docs/games/hats.md, "Hidden facts are optional")."""

from __future__ import annotations

from typing import Any

import pytest

from games.contract import RuleViolation
from games.registry import get_game
from games.validation import validate_action, validate_match

GAME = get_game("hats")
ANN = ["pink-1", "pink-2", "pink-3", "pink-4", "pink-5", "pink-6", "blue-1", "blue-2", "blue-3"]
TABLE = ["red-1", "red-2", "orange-1", "orange-2", "purple-1"]


def only_anns_hand_recorded() -> dict[str, Any]:
    setup = {
        "start_player": "ann",
        "table": TABLE,
        "removed_types": ["green", "yellow"],
        "hands": {"ann": ANN},
    }
    players, setup, options = validate_match(GAME, ["ann", "bob"], setup, {})
    state: dict[str, Any] = {}
    for new in GAME.setup(players, setup, options):
        state = GAME.evolve(state, new)
    return state


def act(state: dict[str, Any], **action: Any) -> dict[str, Any]:
    for new in GAME.decide(state, validate_action(GAME, action)):
        state = GAME.evolve(state, new)
    return state


def test_a_card_of_a_hand_that_made_an_unnamed_black_hat_cannot_be_played_by_another_player() -> None:
    state = act(only_anns_hand_recorded(), type="black_hat", player="ann")
    with pytest.raises(RuleViolation) as refused:
        act(state, type="swap", player="bob", card="pink-6", space=1)
    assert refused.value.code == "card_in_hand"
    assert "pink 6" in refused.value.message and "black hats ann made" in refused.value.message
    with pytest.raises(RuleViolation):
        act(state, type="redraw", player="bob", drawn="blue-2")


def test_the_player_who_made_the_unnamed_black_hat_may_still_play_any_recorded_card() -> None:
    state = act(only_anns_hand_recorded(), type="black_hat", player="ann")
    state = act(state, type="swap", player="bob", card="red-6", space=1)
    state = act(state, type="swap", player="ann", card="pink-6", space=2)
    assert state["table"][1] == "pink-6"


def test_a_card_that_may_have_gone_to_the_discard_pile_unnamed_is_no_longer_only_hers() -> None:
    state = act(only_anns_hand_recorded(), type="black_hat", player="ann")
    state = act(state, type="redraw", player="ann")
    assert GAME.view(state)["hands"]["ann"]["maybe"] == ANN
    state = act(state, type="swap", player="bob", card="pink-6", space=1)
    assert state["table"][0] == "pink-6"
